import { Get, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { MENTION_STATUSES, MentionStatus } from '../visibility/derive/classify';
import { SOURCE_CATEGORIES } from '../visibility/derive/domains';
import { AnswersQuery, GapsQuery, HistoryQuery, PromptsQuery, SourcesQuery, UrlsQuery } from '../visibility/dto/query.dto';
import { ProjectState, VisibilityQueryService } from '../visibility/visibility-query.service';
import { CsrfService } from './csrf.service';
import { exportHref } from './dashboard-export.controller';
import { answersLink, csvLink, gapChanges, scanField, urlLink } from './pages/dashboard-lists.pages';
import type { History } from '../visibility/dto/responses';
import type { ExportKind } from '../visibility/export/visibility-export.service';
import {
  answerItem,
  dashboardNav,
  DashboardTab,
  emptyDashboard,
  FilterField,
  filterForm,
  FilterProblem,
  overviewPage,
  pager,
  promptLinks,
  SummaryView,
  table,
} from './pages/dashboard.pages';
import { html, qs, Renderable } from '../common/html/html';
import { page, sendPage } from './render/layout';
import { percent } from './render/values';
import { apiQuery, filterProblem, keptParams } from './web-query';
import { WebController } from './web-controller.decorator';
import { WebRequest, WebUserParam } from './web-context';

/** Scans offered by the scan picker of the list pages (the newest). */
const PICKER_SCANS = 500;

/** Scans drawn in the history chart (one page of the API's history). */
const HISTORY_CHART_SCANS = 52;

/** The API's brand_status values in the Answers filter's words. */
const BRAND_STATUS_WORDS: Record<MentionStatus, string> = {
  mentioned: 'mentioned',
  absent: 'said not to be known',
  not_named: 'not named',
};

/**
 * The dashboard: every figure comes from VisibilityQueryService, the service behind /api/v1,
 * with the API's query DTOs, so the page and the API always agree.
 */
@WebController('dashboard')
export class DashboardController {
  constructor(
    private readonly query: VisibilityQueryService,
    private readonly csrf: CsrfService,
  ) {}

  /** The workspace's project, or null when it has no data yet (the empty state). */
  private async project(user: UserView): Promise<ProjectState | null> {
    try {
      return await this.query.project(user.workspace_id);
    } catch (e) {
      if (e instanceof DomainError && e.code === ErrorCode.ProjectNotFound) return null;
      throw e;
    }
  }

  private async withProject(req: WebRequest, res: Response, user: UserView, build: (p: ProjectState, csrf: string) => Promise<string>): Promise<void> {
    const csrf = this.csrf.token(req, res);
    const p = await this.project(user);
    sendPage(res, 200, p ? await build(p, csrf) : emptyDashboard(user, csrf));
  }

  /**
   * A list page: its filters read with the API's DTO and validation. A filter the API refuses (or an
   * out-of-date page link) is shown on the form itself, the other filters kept (400), never a dead
   * end. `view` gives the form's fields (lists of the values the data has) and the results of a
   * valid query.
   */
  private async listPage<T extends object>(
    req: WebRequest,
    res: Response,
    user: UserView,
    o: { tab: DashboardTab; title: string; dto: new () => T; raw: Record<string, unknown> },
    view: (
      p: ProjectState,
      s: SummaryView,
      scans: History['scans'],
    ) => { intro?: Renderable; fields: FilterField[]; results: (q: T, params: Record<string, string | undefined>) => Promise<Renderable> },
  ): Promise<void> {
    const csrf = this.csrf.token(req, res);
    const p = await this.project(user);
    if (!p) return sendPage(res, 200, emptyDashboard(user, csrf));
    const [summary, history] = await Promise.all([this.query.summary(p), this.query.history(p, await apiQuery(HistoryQuery, { limit: String(PICKER_SCANS) }))]);
    const v = view(p, summary, history.scans);
    const params = keptParams(o.raw);
    let results: Renderable = '';
    let problem: FilterProblem | null = null;
    try {
      results = await v.results(await apiQuery(o.dto, o.raw), params);
    } catch (e) {
      problem = filterProblem(e, Object.fromEntries([...v.fields.map((f) => [f.name, f.label]), ['limit', 'Per page']]));
      if (!problem) throw e;
    }
    const action = `/dashboard/${o.tab}`;
    sendPage(
      res,
      problem ? 400 : 200,
      page({
        title: o.title,
        section: 'dashboard',
        user,
        csrf,
        body: html`<h1>${o.title}</h1>${dashboardNav(o.tab, user)}${v.intro ?? ''}
${filterForm(action, v.fields.map((f) => ({ ...f, value: params[f.name] })), params.limit, problem)}
${problem ? html`<p id="no-results">No results are shown until the filter is corrected.</p>` : html`${csvLink(exportHref(o.tab as ExportKind, params), o.tab)}${results}`}`,
      }),
    );
  }

  @Get()
  async overview(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const q = await apiQuery(HistoryQuery, { limit: String(HISTORY_CHART_SCANS), cursor: raw.history_cursor });
    await this.withProject(req, res, user, async (p, csrf) => {
      const [summary, history] = await Promise.all([this.query.summary(p), this.query.history(p, q)]);
      return overviewPage(user, csrf, summary, history);
    });
  }

  @Get('prompts')
  prompts(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    return this.listPage(req, res, user, { tab: 'prompts', title: 'Tracked prompts', dto: PromptsQuery, raw }, (p, _s, scans) => ({
      fields: [
        scanField(scans),
        { name: 'tag', label: 'Tag' },
        { name: 'intent', label: 'Intent' },
        { name: 'country', label: 'Country (2 letters)' },
        { name: 'enabled', label: 'Enabled', options: [['true', 'yes'], ['false', 'no']] },
      ],
      results: async (q, params) => {
        const r = await this.query.prompts(p, q);
        return html`${table(
          `Prompts (buyer questions) with their mention rate in ${q.scan_id ? `scan ${q.scan_id}` : 'the latest scan'}`,
          ['Prompt', 'Id', 'Tags', 'Intent', 'Country', 'Enabled', ['Answers', 'num'], ['Mention rate', 'num']],
          r.prompts.map((x) => [answersLink(x.text, { prompt_id: x.id, scan_id: q.scan_id }, `Answers to: ${x.text}`), x.id, x.tags.join(', '), x.intent ?? '–', x.country ?? '–', x.enabled ? 'yes' : 'no', x.latest?.answers ?? '–', percent(x.latest?.mention_rate)]),
          'No prompt matches these filters.',
          { stack: true },
        )}
${pager('/dashboard/prompts', params, r.next_cursor, r.total, r.prompts.length)}`;
      },
    }));
  }

  @Get('answers')
  answers(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    return this.listPage(req, res, user, { tab: 'answers', title: 'AI answers', dto: AnswersQuery, raw }, (p, s, scans) => ({
      intro: html`<p class="meta">Mentions of ${s.brand.name} are marked <mark class="own">${s.brand.name}<span class="you"> (you)</span></mark>, in bold; mentions of its competitors are highlighted <mark class="competitor">like this</mark>; a dotted underline marks a match that did not count (hover or focus shows why).</p>`,
      fields: [
        scanField(scans),
        { name: 'platform', label: 'Platform', options: s.platforms },
        { name: 'mentioned', label: `Mentions ${s.brand.name}`, options: [['true', 'yes'], ['false', 'no']] },
        { name: 'brand_status', label: `${s.brand.name} in the answer`, options: MENTION_STATUSES.map((m): [string, string] => [m, BRAND_STATUS_WORDS[m]]) },
        { name: 'competitor', label: 'Competitor', options: s.competitors.map((c) => c.name) },
        { name: 'tag', label: 'Tag' },
        { name: 'prompt_id', label: 'Prompt id' },
        { name: 'cited_url', label: 'Citing the URL' },
        { name: 'cited_domain', label: 'Citing the domain' },
        { name: 'gap_url', label: 'Behind the gap (URL)' },
      ],
      results: async (q, params) => {
        const r = await this.query.answers(p, q);
        return html`<p class="meta">Scan ${r.scan.scan_id} of ${r.scan.date}.</p>
${r.answers.length ? r.answers.map((a) => answerItem(a, s.brand.name)) : html`<p>No answer matches these filters.</p>`}
${pager('/dashboard/answers', params, r.next_cursor, r.total, r.answers.length)}`;
      },
    }));
  }

  @Get('sources')
  sources(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    return this.listPage(req, res, user, { tab: 'sources', title: 'Cited sources', dto: SourcesQuery, raw }, (p, s, scans) => ({
      fields: [
        scanField(scans),
        { name: 'category', label: 'Category', options: [...SOURCE_CATEGORIES] },
        { name: 'platform', label: 'Platform', options: s.platforms },
      ],
      results: async (q, params) => {
        const r = await this.query.sources(p, q);
        return html`${table(`Domains cited in scan ${r.scan.scan_id} (${r.scan.date}), most cited first`, ['Domain', 'Category', ['Citations', 'num'], ['Answers', 'num'], ['Prompts', 'num'], ['URLs', 'num'], 'Platforms'],
  r.sources.map((x) => [x.domain, x.category, x.citations, answersLink(x.answers, { cited_domain: x.domain, scan_id: q.scan_id }, `Answers citing ${x.domain}`), x.prompts, html`<a href="/dashboard/urls${qs({ domain: x.domain, scan_id: q.scan_id })}" aria-label="URLs of ${x.domain}">${x.urls}</a>`, x.platforms.join(', ')]), 'No source matches these filters.', { stack: true })}
${pager('/dashboard/sources', params, r.next_cursor, r.total, r.sources.length)}`;
      },
    }));
  }

  @Get('urls')
  urls(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    return this.listPage(req, res, user, { tab: 'urls', title: 'Cited URLs', dto: UrlsQuery, raw }, (p, s, scans) => ({
      fields: [
        scanField(scans),
        { name: 'domain', label: 'Domain' },
        { name: 'category', label: 'Category', options: [...SOURCE_CATEGORIES] },
        { name: 'platform', label: 'Platform', options: s.platforms },
      ],
      results: async (q, params) => {
        const r = await this.query.urls(p, q);
        return html`${table(`URLs cited in scan ${r.scan.scan_id} (${r.scan.date}), most cited first`, ['URL', 'Domain', 'Category', ['Citations', 'num'], ['Answers', 'num'], ['Prompts', 'num'], 'Platforms'],
  r.urls.map((x) => [urlLink(x.url), x.domain, x.category, x.citations, answersLink(x.answers, { cited_url: x.url, scan_id: q.scan_id }, `Answers citing ${x.url}`), x.prompts, x.platforms.join(', ')]), 'No URL matches these filters.', { stack: true })}
${pager('/dashboard/urls', params, r.next_cursor, r.total, r.urls.length)}`;
      },
    }));
  }

  @Get('gaps')
  gaps(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    return this.listPage(req, res, user, { tab: 'gaps', title: 'Citation gaps', dto: GapsQuery, raw }, (p, s, scans) => ({
      intro: html`<p>Pages cited in answers that mention a competitor but not you: where to be present.</p>`,
      fields: [
        scanField(scans),
        { name: 'competitor', label: 'Competitor', options: s.competitors.map((c) => c.name) },
        { name: 'category', label: 'Category', options: [...SOURCE_CATEGORIES] },
        { name: 'platform', label: 'Platform', options: s.platforms },
      ],
      results: async (q, params) => {
        const r = await this.query.gaps(p, q);
        return html`${table(`Citation gaps of scan ${r.scan.scan_id} (${r.scan.date})`, ['URL', 'Domain', 'Category', ['Answers', 'num'], 'Competitors', 'Prompts', 'Platforms'],
  r.gaps.map((x) => [urlLink(x.url), x.domain, x.category, answersLink(x.answers, { gap_url: x.url, scan_id: q.scan_id }, `Answers behind the gap ${x.url}`), x.competitors.join(', '), promptLinks(x.prompts), x.platforms.join(', ')]), 'No gap matches these filters.', { stack: true })}
${pager('/dashboard/gaps', params, r.next_cursor, r.total, r.gaps.length)}
${gapChanges(scans.find((x) => x.scan_id === r.scan.scan_id), q.scan_id)}`;
      },
    }));
  }
}
