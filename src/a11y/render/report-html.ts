import type { Report, ReportPage, ReportRule } from '../report/report.types';
import { scoreBand } from '../scoring/score';
import { escapeXml as e } from './escape';
import { COVERAGE_NOTE, impactSummary, wcagCriteria } from './summary';
import { RenderExtras, resultsSectionsHtml } from './results-sections';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
header,main,footer{max-width:60rem;margin:0 auto;padding:1rem}
header{border-bottom:1px solid #767676}
footer{border-top:1px solid #767676;font-size:.9rem}
a{color:#0645ad;text-decoration:underline}
a:focus{outline:3px solid #1a1a1a;outline-offset:2px}
.score{display:inline-block;min-width:4.5rem;padding:.25rem .75rem;border-radius:.25rem;color:#fff;font-size:2rem;font-weight:700;text-align:center}
.good{background:#0b6b2e}.average{background:#8a4b00}.poor{background:#b3261e}
table{border-collapse:collapse;margin:1rem 0}
th,td{border:1px solid #767676;padding:.25rem .75rem;text-align:left}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.875rem}
pre{white-space:pre-wrap;word-break:break-all;background:#f3f3f3;padding:.5rem;margin:.25rem 0 .75rem}
.rule{border-left:4px solid #767676;padding-left:1rem;margin:1.5rem 0}
.note{background:#fff4ce;border:1px solid #8a6d00;padding:.75rem}
ul.links li{margin:.5rem 0}
`;

function rule(r: ReportRule, level: number): string {
  const criteria = wcagCriteria(r.tags);
  const nodes = r.nodes
    .map((n) => `<li><p>Selector: <code>${e(n.target.join(' | '))}</code></p><pre><code>${e(n.html)}</code></pre></li>`)
    .join('');
  return `<section class="rule" aria-labelledby="r-${level}-${e(r.id)}">
<h${level} id="r-${level}-${e(r.id)}">${e(r.help)}</h${level}>
<dl>
<dt>Rule</dt><dd><code>${e(r.id)}</code> (<a href="${e(r.helpUrl)}" rel="noopener noreferrer">how to fix ${e(r.id)}</a>)</dd>
<dt>Impact</dt><dd>${e(r.impact)}</dd>
<dt>WCAG success criteria</dt><dd>${criteria.length ? e(criteria.join(', ')) : 'none (best practice)'}</dd>
<dt>Affected users</dt><dd>${e(r.disabilities.join(', ') || 'not classified')}</dd>
<dt>Failing elements</dt><dd>${r.nodes.length}</dd>
</dl>
<ol>${nodes}</ol>
</section>`;
}

function page(p: ReportPage, index: number, total: number): string {
  const heading = total > 1 ? `Page ${index + 1}: ${p.url}` : `Page: ${p.url}`;
  const violations = p.violations.length
    ? p.violations.map((r) => rule(r, 4)).join('\n')
    : '<p>No violations of the automated checks were found on this page.</p>';
  const review = p.incomplete.length
    ? `<ul>${p.incomplete.map((r) => `<li>${e(r.help)} (<code>${e(r.id)}</code>, ${r.nodes.length} element${r.nodes.length === 1 ? '' : 's'})</li>`).join('')}</ul>`
    : '<p>Nothing was left for human review by the automated checks.</p>';
  return `<section aria-labelledby="p-${index}">
<h2 id="p-${index}">${e(heading)}</h2>
<p>Score of this page: <strong>${p.score} out of 100</strong>. Address after redirects: ${e(p.finalUrl)}.
${p.passes.length} rules passed, ${p.violations.length} failed, ${p.incomplete.length} need review.</p>
<h3>Violations</h3>
${violations}
<h3>Needs human review</h3>
${review}
</section>`;
}

/** The public report page /r/{id}: server-rendered, no script, itself accessible (scans at 100). */
export function renderReportHtml(report: Report, links: { pdf: string; json: string; badge: string; self: string }, extras: RenderExtras = {}): string {
  const band = scoreBand(report.score);
  const rows = impactSummary(report)
    .map((s) => `<tr><th scope="row">${e(s.impact)}</th><td>${s.rules}</td><td>${s.nodes}</td></tr>`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Accessibility report: ${e(report.url)} (score ${report.score})</title>
<meta name="robots" content="noindex">
<style>${STYLE}</style>
</head>
<body>
<header>
<p>Beacon accessibility scan</p>
</header>
<main>
<h1>Accessibility report</h1>
<p><span class="score ${band}">${report.score}</span> <strong>Automated score ${report.score} out of 100</strong> (${band}).</p>
<dl>
<dt>Scanned address</dt><dd>${e(report.url)}</dd>
<dt>Scan date</dt><dd>${e(report.scannedAt.replace('T', ' ').slice(0, 19))} UTC</dd>
<dt>Pages scanned</dt><dd>${report.pages.length}</dd>
<dt>Failing elements</dt><dd>${report.totalNodes}</dd>
<dt>Distinct failed rules</dt><dd>${report.violationTypes}</dd>
</dl>
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
<li><a href="${e(links.badge)}">Score badge (SVG)</a></li>
</ul>
${report.pages.map((p, i) => page(p, i, report.pages.length)).join('\n')}
</main>
<footer>
<p>Checked with axe-core ${e(report.meta.axeVersion)} in ${e(report.meta.browser)}, rules tagged ${e(report.meta.tags.join(', '))}, viewport ${report.meta.viewport.width}x${report.meta.viewport.height}. Report ${e(report.id)}, kept until ${e(report.expiresAt.slice(0, 10))}. Address of this page: ${e(links.self)}</p>
</footer>
</body>
</html>
`;
}
