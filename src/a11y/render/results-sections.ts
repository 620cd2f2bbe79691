import type { ReportDiff } from '../diff/diff';
import type { Report, ReportNode, ReportPage } from '../report/report.types';
import { costLabel } from '../scoring/breakdown';
import { html, SafeHtml } from '../../common/html/html';

/** What the renderings add to a report beyond the stored JSON. */
export interface RenderExtras {
  /** The diff against the previous scan of the same address (undefined: not computed). */
  sinceLast?: ReportDiff;
  /** Screenshot PNGs by their URL (the PDF embeds them). */
  images?: ReadonlyMap<string, Buffer>;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** One line per failed rule: "fix color-contrast: +14", largest first. */
export function breakdownLines(report: Pick<Report, 'scoreBreakdown' | 'score'>): string[] {
  return (report.scoreBreakdown ?? []).map((c) => `${costLabel(c)} (${c.impact})`);
}

/** Sentences summarising the diff, shared by the HTML page and the PDF. */
export function sinceLastSummary(d: ReportDiff): string {
  if (!d.against) return 'This is the first stored scan of this address: there is nothing to compare with yet.';
  const change = d.scoreChange === 0 ? 'unchanged' : `${d.scoreChange! > 0 ? '+' : ''}${d.scoreChange}`;
  return `Compared with the scan of ${d.against.scannedAt.replace('T', ' ').slice(0, 16)} UTC (score ${d.against.score}, now ${d.score}: ${change}): ${plural(d.totals.new, 'new failing element')}, ${plural(d.totals.fixed, 'fixed element')}, ${plural(d.totals.still, 'element')} still failing.`;
}

/** The warning shown when pages had not rendered when the scan's wait ended. */
export function renderNote(urls: readonly string[]): string {
  return `Not a clean result: ${urls.join(', ')} had not finished rendering (nearly empty or still loading) when the scan's wait ended, so ${urls.length === 1 ? 'it scores' : 'they score'} 0. Scan again, or check that the page renders without a login or user action.`;
}

/** HTML: the score breakdown and the "since the last scan" sections of /r/{id}. */
export function resultsSectionsHtml(report: Report, extras: RenderExtras): SafeHtml {
  const costs = report.scoreBreakdown ?? [];
  const multiPage = report.pages.length > 1;
  const breakdown = costs.length
    ? html`<p>Each failed rule costs the score the points below; fixing all of them gives 100 (the points add up to ${100 - report.score}).</p>
<table>
<caption>Points each failed rule costs</caption>
<thead><tr><th scope="col">Rule</th><th scope="col">Impact</th><th scope="col" class="num">Points if fixed</th>${multiPage ? html`<th scope="col">Pages</th>` : ''}</tr></thead>
<tbody>${costs.map((c) => html`<tr><th scope="row"><code>${c.id}</code></th><td>${c.impact}</td><td class="num">+${c.points}</td>${multiPage ? html`<td>${c.pages}</td>` : ''}</tr>`)}</tbody>
</table>`
    : html`<p>No rule failed: nothing costs points.</p>`;
  let since: SafeHtml | '' = '';
  const d = extras.sinceLast;
  if (d) {
    const multi = new Set(d.rules.map((x) => x.page)).size > 1;
    const rows = d.rules.map(
      (r) =>
        html`<tr><th scope="row"><code>${r.rule}</code></th><td>${r.status === 'still' ? 'still failing' : r.status}</td><td>${r.new.length}</td><td>${r.fixed.length}</td><td>${r.still.length}</td>${d.against && multi ? html`<td>${r.page}</td>` : ''}</tr>`,
    );
    since = html`<h2>Since the last scan</h2>
<p>${sinceLastSummary(d)}</p>
${
  d.against && d.rules.length
    ? html`<table>
<caption>Failing elements by rule since the last scan</caption>
<thead><tr><th scope="col">Rule</th><th scope="col">Rule status</th><th scope="col">New</th><th scope="col">Fixed</th><th scope="col">Still failing</th>${multi ? html`<th scope="col">Page</th>` : ''}</tr></thead>
<tbody>${rows}</tbody>
</table>`
    : ''
}`;
  }
  const unrendered = report.pages.filter((p) => p.render?.state === 'incomplete');
  const note = unrendered.length ? html`<p class="note">${renderNote(unrendered.map((p) => p.url))}</p>\n` : '';
  return html`${note}<h2>What each fix is worth</h2>
${breakdown}
${since}`;
}

/**
 * The address of a stored picture as the HTML page uses it: a same-site path (`/api/screenshots/{id}.png`)
 * for this service's pictures, whatever host name the report was stored or is viewed under (the
 * page's CSP allows images from 'self' only); anything else unchanged. The JSON and the PDF keep
 * the absolute address.
 */
export function sameSiteSrc(url: string): string {
  const m = /^https?:\/\/[^/]+(\/api\/screenshots\/[A-Za-z0-9_-]{16}\.png)$/.exec(url);
  return m ? m[1] : url;
}

/** The crop of a failing element on /r/{id} (nothing when there is none). */
export function nodeShotHtml(n: ReportNode): SafeHtml | '' {
  if (!n.screenshot) return '';
  const alt = `Screenshot of failing element ${n.marker ?? ''} (${n.target.join(' | ')}), outlined`;
  return html`<p><img class="shot" src="${sameSiteSrc(n.screenshot)}" alt="${alt}"${n.crop ? html` width="${n.crop.width}" height="${n.crop.height}"` : ''}></p>`;
}

/** The annotated full-page screenshot of a page on /r/{id}. */
export function pageShotHtml(p: ReportPage): SafeHtml | '' {
  if (!p.screenshot) return '';
  return html`<details><summary>Full-page screenshot with every failing element outlined and numbered${p.screenshot.cut ? ' (cut at the height limit)' : ''}</summary>
<p><img class="shot" src="${sameSiteSrc(p.screenshot.url)}" alt="Screenshot of ${p.url} with the failing elements outlined and numbered as in the lists below" width="${p.screenshot.width}" height="${p.screenshot.height}"></p></details>`;
}
