import { html, SafeHtml } from '../../common/html/html';

export interface Series {
  name: string;
  /** One value per label (null: no sample in that scan). */
  values: Array<number | null>;
}

/** Colours (4.5:1 or more on white) and dash patterns: series differ by more than colour. */
const STYLES: Array<[string, string]> = [
  ['#1f5fbf', ''],
  ['#b3261e', '8 4'],
  ['#1b7a3d', '2 4'],
  ['#7a4ab3', '12 4 2 4'],
  ['#8a5a00', '6 6'],
  ['#00707a', '1 3'],
  ['#5c5c5c', '10 3 3 3 3 3'],
];

/**
 * A line chart of several series over the same labels (scans), as inline SVG drawn on the server
 * (presentation attributes, no script, no inline style), with a legend; `id` keeps the title and
 * description ids unique on a page of several charts. The caller puts the same data in a table
 * beside it for screen readers (role="img" with title and description here).
 */
export function trendChart(
  id: string,
  labels: string[],
  series: Series[],
  o: { title: string; desc: string; unit?: string; max?: number },
): SafeHtml {
  const W = 720;
  const legendRows = Math.ceil(series.length / 3);
  const plotH = 220;
  const top = 16;
  const bottom = 40;
  const H = top + plotH + bottom + legendRows * 20;
  const left = 44;
  const right = 16;
  const inset = 28;
  const x0 = left + inset;
  const x1 = W - right - 32;
  const values = series.flatMap((s) => s.values).filter((v): v is number => v !== null);
  const max = o.max ?? Math.max(10, Math.ceil(Math.max(0, ...values) / 10) * 10);
  const x = (i: number): number => (labels.length <= 1 ? (x0 + x1) / 2 : x0 + (i * (x1 - x0)) / (labels.length - 1));
  const y = (v: number): number => top + plotH * (1 - v / max);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(max * f * 10) / 10);
  const every = Math.max(1, Math.ceil(labels.length / 8));
  const style = (i: number) => STYLES[i % STYLES.length];
  return html`<svg class="chart trend" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="${id}-title ${id}-desc" focusable="false">
<title id="${id}-title">${o.title}</title>
<desc id="${id}-desc">${o.desc}</desc>
${ticks.map((t) => html`<line class="grid" x1="${left}" x2="${W - right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"/><text x="${left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${t}${o.unit ?? ''}</text>`)}
<line class="axis" x1="${left}" x2="${W - right}" y1="${top + plotH}" y2="${top + plotH}"/>
${series.map((s, si) => {
  const [colour, dash] = style(si);
  const pts = s.values
    .map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`))
    .filter((p): p is string => p !== null);
  return html`<g class="series">${pts.length > 1 ? html`<polyline fill="none" stroke="${colour}" stroke-width="2.5"${dash ? html` stroke-dasharray="${dash}"` : ''} points="${pts.join(' ')}"/>` : ''}${pts.map(
    (p) => {
      const [cx, cy] = p.split(',');
      return html`<circle cx="${cx}" cy="${cy}" r="3.5" fill="${colour}"/>`;
    },
  )}</g>`;
})}
${labels.map((l, i) => (i % every === 0 || i === labels.length - 1 ? html`<text x="${x(i).toFixed(1)}" y="${top + plotH + 18}" text-anchor="middle">${l}</text>` : ''))}
${series.map((s, si) => {
  const [colour, dash] = style(si);
  const lx = left + (si % 3) * 225;
  const ly = top + plotH + bottom + Math.floor(si / 3) * 20 + 4;
  return html`<line x1="${lx}" x2="${lx + 28}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2.5"${dash ? html` stroke-dasharray="${dash}"` : ''}/><text x="${lx + 34}" y="${ly + 4}">${s.name}</text>`;
})}
</svg>`;
}
