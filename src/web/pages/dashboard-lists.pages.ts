import type { UserView } from '../../accounts/accounts.service';
import { html, Renderable, SafeHtml } from '../../common/html/html';
import type { Answers, Gaps, Prompts, Sources, Urls } from '../../visibility/dto/responses';
import { page } from '../render/layout';
import { percent } from '../render/values';
import { answerItem, dashboardNav, DashboardTab, FilterField, filterForm, FilterProblem, pager, promptLinks, table } from './dashboard.pages';

/** The query parameters a list page keeps in its links (filters, page size). */
type Params = Record<string, string | undefined>;

/**
 * A list page of the dashboard: its filter form (with the field the API refused, if any) above
 * the results, or a note that none are shown until the filter is corrected.
 */
export function dashboardListPage(
  user: UserView,
  csrf: string,
  o: { tab: DashboardTab; title: string; intro?: Renderable; fields: FilterField[]; params: Params; problem: FilterProblem | null; results: Renderable },
): string {
  const action = `/dashboard/${o.tab}`;
  return page({
    title: o.title,
    section: 'dashboard',
    user,
    csrf,
    body: html`<h1>${o.title}</h1>${dashboardNav(o.tab, user)}${o.intro ?? ''}
${filterForm(action, o.fields.map((f) => ({ ...f, value: o.params[f.name] })), o.params.limit, o.problem)}
${o.problem ? html`<p id="no-results">No results are shown until the filter is corrected.</p>` : o.results}`,
  });
}

export function promptsResults(r: Prompts, params: Params): SafeHtml {
  return html`${table(
    'Prompts (buyer questions) with their latest mention rate',
    ['Prompt', 'Id', 'Tags', 'Intent', 'Country', 'Enabled', ['Answers', 'num'], ['Mention rate', 'num']],
    r.prompts.map((x) => [x.text, x.id, x.tags.join(', '), x.intent ?? '–', x.country ?? '–', x.enabled ? 'yes' : 'no', x.latest?.answers ?? '–', percent(x.latest?.mention_rate)]),
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

export function sourcesResults(r: Sources, params: Params): SafeHtml {
  return html`${table('Domains cited in the latest scan, most cited first', ['Domain', 'Category', ['Citations', 'num'], ['Answers', 'num'], ['Prompts', 'num'], ['URLs', 'num'], 'Platforms'],
  r.sources.map((x) => [x.domain, x.category, x.citations, x.answers, x.prompts, x.urls, x.platforms.join(', ')]), 'No source matches these filters.', { stack: true })}
${pager('/dashboard/sources', params, r.next_cursor, r.total, r.sources.length)}`;
}

export function urlsResults(r: Urls, params: Params): SafeHtml {
  return html`${table('URLs cited in the latest scan, most cited first', ['URL', 'Domain', 'Category', ['Citations', 'num'], ['Answers', 'num'], ['Prompts', 'num'], 'Platforms'],
  r.urls.map((x) => [x.url, x.domain, x.category, x.citations, x.answers, x.prompts, x.platforms.join(', ')]), 'No URL matches these filters.', { stack: true })}
${pager('/dashboard/urls', params, r.next_cursor, r.total, r.urls.length)}`;
}

export const GAPS_INTRO = html`<p>Pages cited in answers that mention a competitor but not you: where to be present.</p>`;

export function gapsResults(r: Gaps, params: Params): SafeHtml {
  return html`${table('Citation gaps of the latest scan', ['URL', 'Domain', 'Category', ['Answers', 'num'], 'Competitors', 'Prompts', 'Platforms'],
  r.gaps.map((x) => [x.url, x.domain, x.category, x.answers, x.competitors.join(', '), promptLinks(x.prompts), x.platforms.join(', ')]), 'No gap matches these filters.', { stack: true })}
${pager('/dashboard/gaps', params, r.next_cursor, r.total, r.gaps.length)}`;
}
