/**
 * Markup of the dashboard's list pages added by issue #22: CSV links, the scan picker, drill-down
 * links to the answers behind a row, clickable URLs, the gaps gained and lost.
 */
import { html, qs, Renderable, SafeHtml } from '../../common/html/html';
import type { History } from '../../visibility/dto/responses';
import type { FilterField } from './dashboard.pages';

type ScanItem = History['scans'][number];

/** The link of a list's CSV file (every row matching the page's filters). */
export function csvLink(href: string, what: string): SafeHtml {
  return html`<p class="export"><a href="${href}" download>Download ${what} as CSV</a> <span class="meta">(every row matching these filters, not only this page)</span></p>`;
}

/** The scan picker: every scan, newest first ("Any" is the latest). */
export function scanField(scans: ScanItem[]): FilterField {
  return { name: 'scan_id', label: 'Scan (Any: the latest)', options: scans.map((s): [string, string] => [s.scan_id, `${s.date} (${s.scan_id})`]) };
}

/** The answers page with these filters (the drill-down from a row). */
export function answersHref(filters: Record<string, string | undefined>): string {
  return `/dashboard/answers${qs(filters)}`;
}

/** `text` linking to the answers behind a row. */
export function answersLink(text: Renderable, filters: Record<string, string | undefined>, label: string): SafeHtml {
  return html`<a href="${answersHref(filters)}" aria-label="${label}">${text}</a>`;
}

/** A cited URL as a link that opens it (http and https only; anything else stays text). */
export function urlLink(url: string): SafeHtml {
  if (!/^https?:\/\//i.test(url)) return html`${url}`;
  return html`<a href="${url}" rel="noopener noreferrer nofollow" class="external">${url}</a>`;
}

/** The gaps gained and lost by a scan against the one before it (history's changes); a lost gap links to the previous scan's answers. */
export function gapChanges(scan: ScanItem | undefined, scanId: string | undefined): SafeHtml {
  if (!scan) return html``;
  if (!scan.changes) return html`<p id="gap-changes">Scan ${scan.scan_id} is the first: no gaps gained or lost to show.</p>`;
  const g = scan.changes.gaps;
  const list = (urls: string[], id: string, title: string, none: string, more: number, inScan: string | undefined): SafeHtml =>
    html`<section aria-labelledby="${id}-h"><h3 id="${id}-h">${title} (${urls.length + more})</h3>${
      urls.length
        ? html`<ul id="${id}">${urls.map((u) => html`<li>${urlLink(u)} · ${answersLink('answers', { cited_url: u, scan_id: inScan }, `Answers citing ${u}`)}</li>`)}</ul>`
        : html`<p>${none}</p>`
    }${more > 0 ? html`<p>and ${more} more (the API's history lists at most the first ones).</p>` : ''}</section>`;
  return html`<h2>Gaps gained and lost in scan ${scan.scan_id} (${scan.date}) against ${scan.changes.previous_scan_id}</h2>
<div class="gap-changes">${list(g.gained, 'gaps-gained', 'Gained: new gaps', 'No new gap.', g.gained_count - g.gained.length, scanId)}
${list(g.lost, 'gaps-lost', 'Lost: gaps closed or no longer cited', 'No gap lost.', g.lost_count - g.lost.length, scan.changes.previous_scan_id)}</div>`;
}
