import type { Report, ReportPage, ReportRule } from '../report/report.types';
import { nodeCount } from '../report/from-axe';
import { scoreBand } from '../scoring/score';
import { page as sitePage } from '../../common/html/page';
import { html, SafeHtml } from '../../common/html/html';
import { COVERAGE_NOTE, impactSummary, wcagCriteria } from './summary';
import { reviewHtml } from './review-html';
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

function rule(r: ReportRule, level: number, pageIndex: number): SafeHtml {
  const id = `p${pageIndex}-rule-${r.id}`;
  const criteria = wcagCriteria(r.tags);
  const nodes = r.nodes.map(
    (n) =>
      html`<li><p>Selector: <code>${n.target.join(' | ')}</code></p><pre><code>${n.html}</code></pre>${nodeShotHtml(n)}</li>`,
  );
  const h = `h${level}`;
  return html`<section class="rule" aria-labelledby="${id}">
<${h} id="${id}">${r.help}</${h}>
<dl>
<dt>Rule</dt><dd><code>${r.id}</code> (<a href="${r.helpUrl}" rel="noopener noreferrer">how to fix ${r.id}</a>)</dd>
<dt>Impact</dt><dd>${r.impact}</dd>
<dt>WCAG success criteria</dt><dd>${criteria.length ? criteria.join(', ') : 'none (best practice)'}</dd>
<dt>Affected users</dt><dd>${r.disabilities.join(', ') || 'not classified'}</dd>
<dt>Failing elements</dt><dd>${nodeCount(r)}</dd>
</dl>
<ol>${nodes}</ol>${r.nodesOmitted ? html`<p>${r.nodesOmitted} more element${r.nodesOmitted === 1 ? '' : 's'} not listed (the report keeps at most ${r.nodes.length} per rule).</p>` : ''}
</section>`;
}

/** Items joined by a line break. */
const lines = (items: readonly SafeHtml[]): SafeHtml[] => items.flatMap((x, i) => (i ? [html`\n`, x] : [x]));

function page(p: ReportPage, index: number, total: number): SafeHtml {
  const heading = total > 1 ? `Page ${index + 1}: ${p.url}` : `Page: ${p.url}`;
  const violations = p.violations.length
    ? lines(p.violations.map((r) => rule(r, 4, index)))
    : html`<p>No violations of the automated checks were found on this page.</p>`;
  const review = p.incomplete.length
    ? html`<ul>${p.incomplete.map((r) => html`<li>${r.help} (<code>${r.id}</code>, ${nodeCount(r)} element${nodeCount(r) === 1 ? '' : 's'})</li>`)}</ul>`
    : html`<p>Nothing was left for human review by the automated checks.</p>`;
  return html`<section aria-labelledby="p-${index}">
<h2 id="p-${index}">${heading}</h2>
<p>Score of this page: <strong>${p.score} out of 100</strong>. Address after redirects: ${p.finalUrl}.
${p.passes.length} rules passed, ${p.violations.length} failed, ${p.incomplete.length} need review.</p>
${pageShotHtml(p)}
<h3>Violations</h3>
${violations}
<h3>Needs human review</h3>
${review}
${reviewHtml(p)}
</section>`;
}

/** The embed snippets of the stable badge (Markdown and HTML), each with a copy button. */
function embedHtml(links: ReportLinks): SafeHtml {
  const alt = 'Accessibility score (automated)';
  const snippets = [
    ['markdown', 'Markdown', `[![${alt}](${links.stableBadge})](${links.stableReport})`],
    ['html', 'HTML', `<a href="${links.stableReport}"><img src="${links.stableBadge}" alt="${alt}"></a>`],
  ];
  return html`<h2 id="embed">Badge for your README or site</h2>
<p>This badge always shows the latest report of this address (it is not tied to this report, which is kept 30 days); it links to that report.</p>
<p><img src="${links.badge}" alt="The score badge of this report"></p>
${lines(
  snippets.map(
    ([key, label, code]) => html`<h3 id="embed-${key}-title">${label}</h3>
<pre><code id="embed-${key}">${code}</code></pre>
<p><button type="button" class="secondary" data-copy="embed-${key}" data-status="embed-${key}-status" aria-describedby="embed-${key}-title" hidden>Copy the ${label} snippet</button> <span id="embed-${key}-status" role="status"></span></p>`,
  ),
)}`;
}

/**
 * The public report page /r/{id}: server-rendered inside the website's layout (skip link, site
 * navigation); works without script (the site script only adds the copy buttons); itself
 * accessible (scans at 100). Pictures and downloads are same-site paths, so the page works under
 * any host name the site answers on.
 */
export function renderReportHtml(report: Report, links: ReportLinks, extras: RenderExtras = {}): string {
  const band = scoreBand(report.score);
  const rows = impactSummary(report).map(
    (s) => html`<tr><th scope="row">${s.impact}</th><td>${s.rules}</td><td>${s.nodes}</td></tr>`,
  );
  const body = html`<h1>Accessibility report</h1>
<p><span class="score ${band}">${report.score}</span> <strong>Automated score ${report.score} out of 100</strong> (${band}).</p>
<dl>
<dt>Scanned address</dt><dd>${report.url}</dd>
<dt>Scan date</dt><dd>${report.scannedAt.replace('T', ' ').slice(0, 19)} UTC</dd>
<dt>Pages scanned</dt><dd>${report.pages.length}${report.crawl ? ' (crawl of the site)' : ''}</dd>
<dt>Failing elements</dt><dd>${report.totalNodes}</dd>
<dt>Distinct failed rules</dt><dd>${report.violationTypes}</dd>
</dl>
<p><a class="button" href="${links.scanAgain}">Scan this address again</a></p>
<p class="note">${COVERAGE_NOTE}</p>
<h2>Summary by impact</h2>
<table>
<caption>Failed rules and failing elements by impact</caption>
<thead><tr><th scope="col">Impact</th><th scope="col">Rules</th><th scope="col">Elements</th></tr></thead>
<tbody>${rows}</tbody>
</table>
${resultsSectionsHtml(report, extras)}
<h2>Downloads</h2>
<ul class="links">
<li><a href="${links.pdf}">PDF audit of this report</a></li>
<li><a href="${links.json}">This report as JSON</a></li>
<li><a href="${links.badge}">Score badge of this report (SVG)</a></li>
</ul>
${embedHtml(links)}
${lines(report.pages.map((p, i) => page(p, i, report.pages.length)))}
<p class="meta">Checked with axe-core ${report.meta.axeVersion} in ${report.meta.browser}, rules tagged ${report.meta.tags.join(', ')}, viewport ${report.meta.viewport.width}x${report.meta.viewport.height}. Report ${report.id}, kept until ${report.expiresAt.slice(0, 10)}. Address of this page: ${links.self}</p>`;
  return sitePage({
    title: `Accessibility report: ${report.url} (score ${report.score})`,
    section: 'scan',
    user: null,
    csrf: '',
    body,
  });
}
