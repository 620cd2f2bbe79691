/**
 * Markup of the dashboard's list pages added by issue #22 (exports, scan picker, drill-down links).
 */
import { html, SafeHtml } from '../../common/html/html';

/** The link of a list's CSV file (every row matching the page's filters). */
export function csvLink(href: string, what: string): SafeHtml {
  return html`<p class="export"><a href="${href}" download>Download ${what} as CSV</a> <span class="meta">(every row matching these filters, not only this page)</span></p>`;
}
