/**
 * Over 300 lines: one route per dashboard tab, each turning the tab's query string into the API's query DTO and its
 * problems into the filter form's messages; the markup is in pages/dashboard*.pages.ts.
 */
import { Get, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { MENTION_STATUSES, MentionStatus } from '../visibility/derive/classify';
import { SOURCE_CATEGORIES } from '../visibility/derive/domains';
import {
  AnswersQuery,
  GapsQuery,
  HistoryQuery,
  PromptsQuery,
  SourcesQuery,
  UrlsQuery,
} from '../visibility/dto/query.dto';
import { ProjectState, VisibilityQueryService } from '../visibility/visibility-query.service';
import { CsrfService } from './csrf.service';
import {
  emptyDashboard,
  FilterField,
  FilterProblem,
  overviewPage,
  SummaryView,
  DashboardTab,
} from './pages/dashboard.pages';
import {
  answersIntro,
  answersResults,
  dashboardListPage,
  GAPS_INTRO,
  gapsResults,
  promptsResults,
  scanField,
  sourcesResults,
  urlsResults,
} from './pages/dashboard-lists.pages';
import { exportHref } from './dashboard-export.controller';
import type { History } from '../visibility/dto/responses';
import type { ExportKind } from '../visibility/export/visibility-export.service';
import { Renderable } from '../common/html/html';
import { sendPage } from './render/layout';
import { apiQuery, filterProblem, keptParams } from './web-query';
import { WebController } from './web-controller.decorator';
import { WebRequest, WebUserParam } from './web-context';

/** Scans drawn in the history chart (one page of the API's history). */
const HISTORY_CHART_SCANS = 52;

/** Scans offered by the scan picker of the list pages (the newest). */
const PICKER_SCANS = 500;

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

  private async withProject(
    req: WebRequest,
    res: Response,
    user: UserView,
    build: (p: ProjectState, csrf: string) => Promise<string>,
  ): Promise<void> {
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
    ) => {
      intro?: Renderable;
      fields: FilterField[];
      results: (q: T, params: Record<string, string | undefined>) => Promise<Renderable>;
    },
  ): Promise<void> {
    const csrf = this.csrf.token(req, res);
    const p = await this.project(user);
    if (!p) return sendPage(res, 200, emptyDashboard(user, csrf));
    const [summary, history] = await Promise.all([
      this.query.summary(p),
      this.query.history(p, await apiQuery(HistoryQuery, { limit: String(PICKER_SCANS) })),
    ]);
    const v = view(p, summary, history.scans);
    const params = keptParams(o.raw);
    let results: Renderable = '';
    let problem: FilterProblem | null = null;
    try {
      results = await v.results(await apiQuery(o.dto, o.raw), params);
    } catch (e) {
      problem = filterProblem(
        e,
        Object.fromEntries([...v.fields.map((f) => [f.name, f.label]), ['limit', 'Per page']]),
      );
      if (!problem) throw e;
    }
    sendPage(
      res,
      problem ? 400 : 200,
      dashboardListPage(user, csrf, {
        tab: o.tab,
        title: o.title,
        intro: v.intro,
        fields: v.fields,
        params,
        problem,
        results,
        csvHref: exportHref(o.tab as ExportKind, params),
      }),
    );
  }

  @Get()
  async overview(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const q = await apiQuery(HistoryQuery, { limit: String(HISTORY_CHART_SCANS), cursor: raw.history_cursor });
    await this.withProject(req, res, user, async (p, csrf) => {
      const [summary, history] = await Promise.all([this.query.summary(p), this.query.history(p, q)]);
      return overviewPage(user, csrf, summary, history);
    });
  }

  @Get('prompts')
  prompts(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.listPage(
      req,
      res,
      user,
      { tab: 'prompts', title: 'Tracked prompts', dto: PromptsQuery, raw },
      (p, _s, scans) => ({
        fields: [
          scanField(scans),
          { name: 'tag', label: 'Tag' },
          { name: 'intent', label: 'Intent' },
          { name: 'country', label: 'Country (2 letters)' },
          {
            name: 'enabled',
            label: 'Enabled',
            options: [
              ['true', 'yes'],
              ['false', 'no'],
            ],
          },
        ],
        results: async (q, params) => {
          return promptsResults(await this.query.prompts(p, q), params, q.scan_id);
        },
      }),
    );
  }

  @Get('answers')
  answers(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.listPage(
      req,
      res,
      user,
      { tab: 'answers', title: 'AI answers', dto: AnswersQuery, raw },
      (p, s, scans) => ({
        intro: answersIntro(s.brand.name),
        fields: [
          scanField(scans),
          { name: 'platform', label: 'Platform', options: s.platforms },
          {
            name: 'mentioned',
            label: `Mentions ${s.brand.name}`,
            options: [
              ['true', 'yes'],
              ['false', 'no'],
            ],
          },
          {
            name: 'brand_status',
            label: `${s.brand.name} in the answer`,
            options: MENTION_STATUSES.map((m): [string, string] => [m, BRAND_STATUS_WORDS[m]]),
          },
          { name: 'competitor', label: 'Competitor', options: s.competitors.map((c) => c.name) },
          { name: 'tag', label: 'Tag' },
          { name: 'prompt_id', label: 'Prompt id' },
          { name: 'cited_url', label: 'Citing the URL' },
          { name: 'cited_domain', label: 'Citing the domain' },
          { name: 'gap_url', label: 'Behind the gap (URL)' },
        ],
        results: async (q, params) => {
          return answersResults(await this.query.answers(p, q), params, s.brand.name);
        },
      }),
    );
  }

  @Get('sources')
  sources(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.listPage(
      req,
      res,
      user,
      { tab: 'sources', title: 'Cited sources', dto: SourcesQuery, raw },
      (p, s, scans) => ({
        fields: [
          scanField(scans),
          { name: 'category', label: 'Category', options: [...SOURCE_CATEGORIES] },
          { name: 'platform', label: 'Platform', options: s.platforms },
        ],
        results: async (q, params) => {
          return sourcesResults(await this.query.sources(p, q), params, q.scan_id);
        },
      }),
    );
  }

  @Get('urls')
  urls(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.listPage(req, res, user, { tab: 'urls', title: 'Cited URLs', dto: UrlsQuery, raw }, (p, s, scans) => ({
      fields: [
        scanField(scans),
        { name: 'domain', label: 'Domain' },
        { name: 'category', label: 'Category', options: [...SOURCE_CATEGORIES] },
        { name: 'platform', label: 'Platform', options: s.platforms },
      ],
      results: async (q, params) => {
        return urlsResults(await this.query.urls(p, q), params, q.scan_id);
      },
    }));
  }

  @Get('gaps')
  gaps(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.listPage(
      req,
      res,
      user,
      { tab: 'gaps', title: 'Citation gaps', dto: GapsQuery, raw },
      (p, s, scans) => ({
        intro: GAPS_INTRO,
        fields: [
          scanField(scans),
          { name: 'competitor', label: 'Competitor', options: s.competitors.map((c) => c.name) },
          { name: 'category', label: 'Category', options: [...SOURCE_CATEGORIES] },
          { name: 'platform', label: 'Platform', options: s.platforms },
        ],
        results: async (q, params) => {
          return gapsResults(await this.query.gaps(p, q), params, q.scan_id, scans);
        },
      }),
    );
  }
}
