import type { UserView } from '../../accounts/accounts.service';
import { html, qs, Renderable, SafeHtml } from '../../common/html/html';
import type { Answers, Gaps, History, Prompts, Sources, Urls } from '../../visibility/dto/responses';
import { page } from '../../common/html/page';
import { percent } from '../render/values';
import {
  answerItem,
  dashboardNav,
  DashboardTab,
  FilterField,
  filterForm,
  FilterProblem,
  pager,
  promptLinks,
  table,
} from './dashboard.pages';

/** The query parameters a list page keeps in its links (filters, page size). */
type Params = Record<string, string | undefined>;

type ScanItem = History['scans'][number];

/**
 * A list page of the dashboard: its filter form (with the field the API refused, if any) above
 * the results, or a note that none are shown until the filter is corrected.
 */
export function dashboardListPage(
  user: UserView,
  csrf: string,
  o: {
    tab: DashboardTab;
    title: string;
    intro?: Renderable;
    fields: FilterField[];
    params: Params;
    problem: FilterProblem | null;
    results: Renderable;
    csvHref: string;
  },
): string {
  const action = `/dashboard/${o.tab}`;
  return page({
    title: o.title,
    section: 'dashboard',
    user,
    csrf,
    body: html`<h1>${o.title}</h1>${dashboardNav(o.tab, user)}${o.intro ?? ''}
${filterForm(
  action,
  o.fields.map((f) => ({ ...f, value: o.params[f.name] })),
  o.params.limit,
  o.problem,
)}
${o.problem ? html`<p id="no-results">No results are shown until the filter is corrected.</p>` : html`${csvLink(o.csvHref, o.tab)}${o.results}`}`,
  });
}

export function promptsResults(r: Prompts, params: Params, scanId: string | undefined): SafeHtml {
  return html`${table(
    `Prompts (buyer questions) with their mention rate in ${scanId ? `scan ${scanId}` : 'the latest scan'}`,
    ['Prompt', 'Id', 'Tags', 'Intent', 'Country', 'Enabled', ['Answers', 'num'], ['Mention rate', 'num']],
    r.prompts.map((x) => [
      answersLink(x.text, { prompt_id: x.id, scan_id: scanId }, `Answers to: ${x.text}`),
      x.id,
      x.tags.join(', '),
      x.intent ?? '–',
      x.country ?? '–',
      x.enabled ? 'yes' : 'no',
      x.latest?.answers ?? '–',
      percent(x.latest?.mention_rate),
    ]),
    'No prompt matches these filters.',
    { stack: true },
  )}
${pager('/dashboard/prompts', params, r.next_cursor, r.total, r.prompts.length)}`;
}

/** What the marks in the answers mean. */
export function answersIntro(brand: string): SafeHtml {
  return html`<p class="meta">Mentions of ${brand} are marked <mark class="own">${brand}<span class="you"> (you)</span></mark>, in bold; mentions of its competitors are highlighted <mark class="competitor">like this</mark>; a dotted underline marks a match that did not count (hover or focus shows why).</p>`;
}

export function answersResults(r: Answers, params: Params, brand: string): SafeHtml {
  return html`<p class="meta">Scan ${r.scan.scan_id} of ${r.scan.date}.</p>
${r.answers.length ? r.answers.map((a) => answerItem(a, brand)) : html`<p>No answer matches these filters.</p>`}
${pager('/dashboard/answers', params, r.next_cursor, r.total, r.answers.length)}`;
}

export function sourcesResults(r: Sources, params: Params, scanId: string | undefined): SafeHtml {
  return html`${table(
    `Domains cited in scan ${r.scan.scan_id} (${r.scan.date}), most cited first`,
    ['Domain', 'Category', ['Citations', 'num'], ['Answers', 'num'], ['Prompts', 'num'], ['URLs', 'num'], 'Platforms'],
    r.sources.map((x) => [
      x.domain,
      x.category,
      x.citations,
      answersLink(x.answers, { cited_domain: x.domain, scan_id: scanId }, `Answers citing ${x.domain}`),
      x.prompts,
      html`<a href="/dashboard/urls${qs({ domain: x.domain, scan_id: scanId })}" aria-label="${x.urls} URLs of ${x.domain}">${x.urls}</a>`,
      x.platforms.join(', '),
    ]),
    'No source matches these filters.',
    { stack: true },
  )}
${pager('/dashboard/sources', params, r.next_cursor, r.total, r.sources.length)}`;
}

export function urlsResults(r: Urls, params: Params, scanId: string | undefined): SafeHtml {
  return html`${table(
    `URLs cited in scan ${r.scan.scan_id} (${r.scan.date}), most cited first`,
    ['URL', 'Domain', 'Category', ['Citations', 'num'], ['Answers', 'num'], ['Prompts', 'num'], 'Platforms'],
    r.urls.map((x) => [
      urlLink(x.url),
      x.domain,
      x.category,
      x.citations,
      answersLink(x.answers, { cited_url: x.url, scan_id: scanId }, `Answers citing ${x.url}`),
      x.prompts,
      x.platforms.join(', '),
    ]),
    'No URL matches these filters.',
    { stack: true },
  )}
${pager('/dashboard/urls', params, r.next_cursor, r.total, r.urls.length)}`;
}

export const GAPS_INTRO = html`<p>Pages cited in answers that mention a competitor but not you: where to be present.</p>`;

export function gapsResults(r: Gaps, params: Params, scanId: string | undefined, scans: ScanItem[]): SafeHtml {
  return html`${table(
    `Citation gaps of scan ${r.scan.scan_id} (${r.scan.date})`,
    ['URL', 'Domain', 'Category', ['Answers', 'num'], 'Competitors', 'Prompts', 'Platforms'],
    r.gaps.map((x) => [
      urlLink(x.url),
      x.domain,
      x.category,
      answersLink(x.answers, { gap_url: x.url, scan_id: scanId }, `Answers behind the gap ${x.url}`),
      x.competitors.join(', '),
      promptLinks(x.prompts),
      x.platforms.join(', '),
    ]),
    'No gap matches these filters.',
    { stack: true },
  )}
${pager('/dashboard/gaps', params, r.next_cursor, r.total, r.gaps.length)}
${gapChanges(
  scans.find((x) => x.scan_id === r.scan.scan_id),
  scanId,
)}`;
}

/** The link of a list's CSV file (by default: every row matching the page's filters; `rows` says otherwise). */
export function csvLink(
  href: string,
  what: string,
  rows = 'every row matching these filters, not only this page',
): SafeHtml {
  return html`<p class="export"><a href="${href}" download>Download ${what} as CSV</a> <span class="meta">(${rows})</span></p>`;
}

/** The scan picker: every scan, newest first ("Any" is the latest). */
export function scanField(scans: ScanItem[]): FilterField {
  return {
    name: 'scan_id',
    label: 'Scan (Any: the latest)',
    options: scans.map((s): [string, string] => [s.scan_id, `${s.date} (${s.scan_id})`]),
  };
}

/** The answers page with these filters (the drill-down from a row). */
export function answersHref(filters: Record<string, string | undefined>): string {
  return `/dashboard/answers${qs(filters)}`;
}

/** `text` linking to the answers behind a row. */
export function answersLink(
  text: string | number,
  filters: Record<string, string | undefined>,
  label: string,
): SafeHtml {
  // The accessible name starts with the visible text (WCAG 2.5.3, label in name): "27 answers citing x".
  const visible = String(text);
  const name =
    /^\d+$/.test(visible) || !label.toLowerCase().includes(visible.toLowerCase())
      ? `${visible} ${label.charAt(0).toLowerCase()}${label.slice(1)}`
      : label;
  return html`<a href="${answersHref(filters)}" aria-label="${name}">${visible}</a>`;
}

/** A cited URL as a link that opens it (http and https only; anything else stays text). */
export function urlLink(url: string): SafeHtml {
  if (!/^https?:\/\//i.test(url)) return html`${url}`;
  return html`<a href="${url}" rel="noopener noreferrer nofollow" class="external">${url}</a>`;
}

/** The gaps gained and lost by a scan against the one before it (history's changes); a lost gap links to the previous scan's answers. */
export function gapChanges(scan: ScanItem | undefined, scanId: string | undefined): SafeHtml {
  if (!scan) return html``;
  if (!scan.changes)
    return html`<p id="gap-changes">Scan ${scan.scan_id} is the first: no gaps gained or lost to show.</p>`;
  const g = scan.changes.gaps;
  const list = (
    urls: string[],
    id: string,
    title: string,
    none: string,
    more: number,
    inScan: string | undefined,
  ): SafeHtml =>
    html`<section aria-labelledby="${id}-h"><h3 id="${id}-h">${title} (${urls.length + more})</h3>${
      urls.length
        ? html`<ul id="${id}">${urls.map((u) => html`<li>${urlLink(u)} · ${answersLink('answers', { cited_url: u, scan_id: inScan }, `Answers citing ${u}`)}</li>`)}</ul>`
        : html`<p>${none}</p>`
    }${more > 0 ? html`<p>and ${more} more (the API's history lists at most the first ones).</p>` : ''}</section>`;
  return html`<h2>Gaps gained and lost in scan ${scan.scan_id} (${scan.date}) against ${scan.changes.previous_scan_id}</h2>
<div class="gap-changes">${list(g.gained, 'gaps-gained', 'Gained: new gaps', 'No new gap.', g.gained_count - g.gained.length, scanId)}
${list(g.lost, 'gaps-lost', 'Lost: gaps closed or no longer cited', 'No gap lost.', g.lost_count - g.lost.length, scan.changes.previous_scan_id)}</div>`;
}
