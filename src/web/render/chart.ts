import { html, SafeHtml } from '../../common/html/html';

export interface ChartPoint {
  label: string;
  value: number | null;
  note?: string | null;
}

/** The room around the plot for the axes' labels (px). */
const MARGIN = { top: 16, right: 16, bottom: 40, left: 44 };

/**
 * A line chart as inline SVG drawn on the server (no script, no inline style: presentation
 * attributes and classes only). `role="img"` with a title and description; the same data is
 * always given as a table beside it for screen readers.
 */
export function lineChart(
  points: ChartPoint[],
  o: { title: string; desc: string; max?: number; unit?: string },
): SafeHtml {
  const W = 720;
  const H = 260;
  const { left, right, top, bottom } = MARGIN;
  // The points sit inside the axes: the first grade label clear of the y axis, the last date label
  // (centred under its point, about 70 px wide) inside the picture.
  const inset = 28;
  const lastInset = 48 - right;
  const values = points.map((p) => p.value).filter((v): v is number => v !== null);
  const max = o.max ?? Math.max(10, Math.ceil(Math.max(0, ...values) / 10) * 10);
  const x0 = left + inset;
  const x1 = W - right - lastInset;
  const x = (i: number): number => (points.length <= 1 ? (x0 + x1) / 2 : x0 + (i * (x1 - x0)) / (points.length - 1));
  const y = (v: number): number => top + (H - top - bottom) * (1 - v / max);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(max * f * 10) / 10);
  const path = points
    .map((p, i) => (p.value === null ? null : `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`))
    .filter((s): s is string => s !== null)
    .join(' ');
  const every = Math.max(1, Math.ceil(points.length / 8));
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="chart-title chart-desc" focusable="false">
<title id="chart-title">${o.title}</title>
<desc id="chart-desc">${o.desc}</desc>
${ticks.map((t) => html`<line class="grid" x1="${left}" x2="${W - right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"/><text x="${left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${t}${o.unit ?? ''}</text>`)}
<line class="axis" x1="${left}" x2="${W - right}" y1="${H - bottom}" y2="${H - bottom}"/>
${path ? html`<polyline class="line" points="${path}"/>` : ''}
${points.map((p, i) =>
  p.value === null
    ? ''
    : html`<circle class="dot" cx="${x(i).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="4"/>${p.note ? html`<text x="${x(i).toFixed(1)}" y="${(y(p.value) - 10).toFixed(1)}" text-anchor="middle">${p.note}</text>` : ''}`,
)}
${points.map((p, i) => (i % every === 0 || i === points.length - 1 ? html`<text x="${x(i).toFixed(1)}" y="${H - bottom + 18}" text-anchor="middle">${p.label}</text>` : ''))}
</svg>`;
}
