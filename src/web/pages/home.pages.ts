import { html, SafeHtml } from '../../common/html/html';
import { page } from '../../common/html/page';
import type { WebRequest } from '../web-context';

/**
 * The spec's rule for the homepage (pdf-tools-mcp.md, "Public stats"): the count of successful PDF
 * tool runs is hidden while it rests on fewer samples than this. The endpoint shows any number.
 */
export const HOME_COUNT_MIN_SAMPLES = 100;

/** The homepage's line about the PDF tools' successful runs, or nothing below the minimum sample. */
export function runsLine(stats: { window_days: number; success: number } | undefined): SafeHtml | '' {
  if (!stats || stats.success < HOME_COUNT_MIN_SAMPLES) return '';
  return html` <span id="pdf-runs">${stats.success.toLocaleString('en-US')} successful runs in the last ${stats.window_days} days.</span>`;
}

/** The landing page: the three products in three sentences (and the PDF tools' 30-day count). */
export function homePage(
  user: WebRequest['webUser'],
  csrf: string,
  stats: { window_days: number; success: number } | undefined,
): string {
  return page({
    title: 'Home',
    section: 'home',
    user,
    csrf,
    body: html`<h1>Beacon</h1>
<p>Three tools in one place.</p>
<ul class="tools">
  <li class="card"><h2><a href="/dashboard">AI visibility dashboard</a></h2><p>How often AI assistants mention your brand, which sources they cite, and where competitors get cited instead. ${user ? 'You are signed in: open your workspace above' : 'Sign in to see your workspace'}; the same figures are in the <a href="/api/v1">API</a>.</p></li>
  <li class="card"><h2><a href="/pdf">PDF tools</a></h2><p>Merge, split, rotate, compress, watermark and more, <a href="/pdf/images">PDF to images</a>, <a href="/pdf/ocr">OCR</a>: free, no account, a daily quota per tool.${runsLine(stats)}</p></li>
  <li class="card"><h2><a href="/scan">Accessibility scan</a></h2><p>Check a web page against WCAG with axe-core in a real browser and get a shareable report.</p></li>
</ul>`,
  });
}
