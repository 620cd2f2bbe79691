import type { Report, ReportPage, ReportRule } from '../report/report.types';
import { nodeCount } from '../report/from-axe';
import { scoreBand } from '../scoring/score';
import { page as sitePage } from '../../web/render/layout';
import { raw } from '../../common/html/html';
import { escapeXml as e } from './escape';
import { COVERAGE_NOTE, impactSummary, wcagCriteria } from './summary';
import { nodeShotHtml, pageShotHtml, RenderExtras, resultsSectionsHtml } from './results-sections';

/** Addresses the report page links to. */
export interface ReportLinks {
  /** The PDF, JSON and badge of this report (same-site paths). */
  pdf: string;
  json: string;
  badge: string;
  /** The absolute address of this page. */
  self: string;
  /** Absolute, stable addresses of the address's badge and latest report (for READMEs). */
  stableBadge: string;
  stableReport: string;
  /** The scan form, prefilled with this report's address and crawl flag. */
  scanAgain: string;
}

function rule(r: ReportRule, level: number, pageIndex: number): string {
  const id = `p${pageIndex}-rule-${r.id}`;
  const criteria = wcagCriteria(r.tags);
  const nodes = r.nodes
    .map((n) => `<li><p>Selector: <code>${e(n.target.join(' | '))}</code></p><pre><code>${e(n.html)}</code></pre>${nodeShotHtml(n)}</li>`)
    .join('');
  return `<section class="rule" aria-labelledby="${e(id)}">
<h${level} id="${e(id)}">${e(r.help)}</h${level}>
<dl>
<dt>Rule</dt><dd><code>${e(r.id)}</code> (<a href="${e(r.helpUrl)}" rel="noopener noreferrer">how to fix ${e(r.id)}</a>)</dd>
<dt>Impact</dt><dd>${e(r.impact)}</dd>
<dt>WCAG success criteria</dt><dd>${criteria.length ? e(criteria.join(', ')) : 'none (best practice)'}</dd>
<dt>Affected users</dt><dd>${e(r.disabilities.join(', ') || 'not classified')}</dd>
<dt>Failing elements</dt><dd>${nodeCount(r)}</dd>
</dl>
<ol>${nodes}</ol>${r.nodesOmitted ? `<p>${r.nodesOmitted} more element${r.nodesOmitted === 1 ? '' : 's'} not listed (the report keeps at most ${r.nodes.length} per rule).</p>` : ''}
</section>`;
}

function page(p: ReportPage, index: number, total: number): string {
  const heading = total > 1 ? `Page ${index + 1}: ${p.url}` : `Page: ${p.url}`;
  const violations = p.violations.length
    ? p.violations.map((r) => rule(r, 4, index)).join('\n')
    : '<p>No violations of the automated checks were found on this page.</p>';
  const review = p.incomplete.length
    ? `<ul>${p.incomplete.map((r) => `<li>${e(r.help)} (<code>${e(r.id)}</code>, ${nodeCount(r)} element${nodeCount(r) === 1 ? '' : 's'})</li>`).join('')}</ul>`
    : '<p>Nothing was left for human review by the automated checks.</p>';
  return `<section aria-labelledby="p-${index}">
<h2 id="p-${index}">${e(heading)}</h2>
<p>Score of this page: <strong>${p.score} out of 100</strong>. Address after redirects: ${e(p.finalUrl)}.
${p.passes.length} rules passed, ${p.violations.length} failed, ${p.incomplete.length} need review.</p>
${pageShotHtml(p)}
<h3>Violations</h3>
${violations}
<h3>Needs human review</h3>
${review}
</section>`;
}

/** The embed snippets of the stable badge (Markdown and HTML), each with a copy button. */
function embedHtml(links: ReportLinks): string {
  const alt = 'Accessibility score (automated)';
  const snippets = [
    ['markdown', 'Markdown', `[![${alt}](${links.stableBadge})](${links.stableReport})`],
    ['html', 'HTML', `<a href="${links.stableReport}"><img src="${links.stableBadge}" alt="${alt}"></a>`],
  ];
  return `<h2 id="embed">Badge for your README or site</h2>
<p>This badge always shows the latest report of this address (it is not tied to this report, which is kept 30 days); it links to that report.</p>
<p><img src="${e(links.badge)}" alt="The score badge of this report"></p>
${snippets
  .map(
    ([key, label, code]) => `<h3 id="embed-${key}-title">${label}</h3>
<pre><code id="embed-${key}">${e(code)}</code></pre>
<p><button type="button" class="secondary" data-copy="embed-${key}" data-status="embed-${key}-status" aria-describedby="embed-${key}-title" hidden>Copy the ${label} snippet</button> <span id="embed-${key}-status" role="status"></span></p>`,
  )
  .join('\n')}`;
}

/**
 * The public report page /r/{id}: server-rendered inside the website's layout (skip link, site
 * navigation); works without script (the site script only adds the copy buttons); itself
 * accessible (scans at 100). Pictures and downloads are same-site paths, so the page works under
 * any host name the site answers on.
 */
export function renderReportHtml(report: Report, links: ReportLinks, extras: RenderExtras = {}): string {
  const band = scoreBand(report.score);
  const rows = impactSummary(report)
    .map((s) => `<tr><th scope="row">${e(s.impact)}</th><td>${s.rules}</td><td>${s.nodes}</td></tr>`)
    .join('');
  const body = `<h1>Accessibility report</h1>
<p><span class="score ${band}">${report.score}</span> <strong>Automated score ${report.score} out of 100</strong> (${band}).</p>
<dl>
<dt>Scanned address</dt><dd>${e(report.url)}</dd>
<dt>Scan date</dt><dd>${e(report.scannedAt.replace('T', ' ').slice(0, 19))} UTC</dd>
<dt>Pages scanned</dt><dd>${report.pages.length}${report.crawl ? ' (crawl of the site)' : ''}</dd>
<dt>Failing elements</dt><dd>${report.totalNodes}</dd>
<dt>Distinct failed rules</dt><dd>${report.violationTypes}</dd>
</dl>
<p><a class="button" href="${e(links.scanAgain)}">Scan this address again</a></p>
<p class="note">${e(COVERAGE_NOTE)}</p>
<h2>Summary by impact</h2>
<table>
<caption>Failed rules and failing elements by impact</caption>
<thead><tr><th scope="col">Impact</th><th scope="col">Rules</th><th scope="col">Elements</th></tr></thead>
<tbody>${rows}</tbody>
</table>
${resultsSectionsHtml(report, extras)}
<h2>Downloads</h2>
<ul class="links">
<li><a href="${e(links.pdf)}">PDF audit of this report</a></li>
<li><a href="${e(links.json)}">This report as JSON</a></li>
<li><a href="${e(links.badge)}">Score badge of this report (SVG)</a></li>
</ul>
${embedHtml(links)}
${report.pages.map((p, i) => page(p, i, report.pages.length)).join('\n')}
<p class="meta">Checked with axe-core ${e(report.meta.axeVersion)} in ${e(report.meta.browser)}, rules tagged ${e(report.meta.tags.join(', '))}, viewport ${report.meta.viewport.width}x${report.meta.viewport.height}. Report ${e(report.id)}, kept until ${e(report.expiresAt.slice(0, 10))}. Address of this page: ${e(links.self)}</p>`;
  return sitePage({ title: `Accessibility report: ${report.url} (score ${report.score})`, section: 'scan', user: null, csrf: '', body: raw(body) });
}
