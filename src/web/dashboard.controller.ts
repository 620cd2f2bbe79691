import { Get, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { MENTION_STATUSES, MentionStatus } from '../visibility/derive/classify';
import { SOURCE_CATEGORIES } from '../visibility/derive/domains';
import { HistoryQuery } from '../visibility/dto/query.dto';
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
import { exportHref, QUERY_DTOS } from './dashboard-export.controller';
import type { History } from '../visibility/dto/responses';
import type { ExportQueries } from '../visibility/export/visibility-export.service';
import { Renderable } from '../common/html/html';
import { sendPage } from '../common/html/page';
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

/** The dashboard's list tabs (each a route of its own name: the route list stays explicit). */
type ListTabName = Extract<DashboardTab, 'prompts' | 'answers' | 'sources' | 'urls' | 'gaps'>;

/** A list tab's form fields (after the scan picker) and its results for a valid query. */
interface ListView<T> {
  intro?: Renderable;
  fields: FilterField[];
  results: (q: T, params: Record<string, string | undefined>) => Promise<Renderable>;
}
type ListRoute = (req: WebRequest, res: Response, user: UserView, raw: Record<string, unknown>) => Promise<void>;

const YES_NO: Array<[string, string]> = [
  ['true', 'yes'],
  ['false', 'no'],
];
const CATEGORY_FIELD: FilterField = { name: 'category', label: 'Category', options: [...SOURCE_CATEGORIES] };
const platformField = (s: SummaryView): FilterField => ({ name: 'platform', label: 'Platform', options: s.platforms });
const competitorField = (s: SummaryView): FilterField => ({
  name: 'competitor',
  label: 'Competitor',
  options: s.competitors.map((c) => c.name),
});

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
   * end. `view` gives the form's fields after the scan picker (lists of the values the data has)
   * and the results of a valid query.
   */
  private list<K extends ListTabName>(
    tab: K,
    title: string,
    view: (p: ProjectState, s: SummaryView, scans: History['scans']) => ListView<ExportQueries[K]>,
  ): ListRoute {
    return async (req, res, user, raw) => {
      const csrf = this.csrf.token(req, res);
      const p = await this.project(user);
      if (!p) return sendPage(res, 200, emptyDashboard(user, csrf));
      const [summary, history] = await Promise.all([
        this.query.summary(p),
        this.query.history(p, await apiQuery(HistoryQuery, { limit: String(PICKER_SCANS) })),
      ]);
      const v = view(p, summary, history.scans);
      const fields = [scanField(history.scans), ...v.fields];
      const params = keptParams(raw);
      let results: Renderable = '';
      let problem: FilterProblem | null = null;
      try {
        results = await v.results(await apiQuery(QUERY_DTOS[tab], raw), params);
      } catch (e) {
        problem = filterProblem(
          e,
          Object.fromEntries([...fields.map((f) => [f.name, f.label]), ['limit', 'Per page']]),
        );
        if (!problem) throw e;
      }
      sendPage(
        res,
        problem ? 400 : 200,
        dashboardListPage(user, csrf, {
          tab,
          title,
          intro: v.intro,
          fields,
          params,
          problem,
          results,
          csvHref: exportHref(tab, params),
        }),
      );
    };
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

  /** The filters and results of each list tab (the scan picker comes first on every one). */
  private readonly lists: { [K in ListTabName]: ListRoute } = {
    prompts: this.list('prompts', 'Tracked prompts', (p) => ({
      fields: [
        { name: 'tag', label: 'Tag' },
        { name: 'intent', label: 'Intent' },
        { name: 'country', label: 'Country (2 letters)' },
        { name: 'enabled', label: 'Enabled', options: YES_NO },
      ],
      results: async (q, params) => promptsResults(await this.query.prompts(p, q), params, q.scan_id),
    })),
    answers: this.list('answers', 'AI answers', (p, s) => ({
      intro: answersIntro(s.brand.name),
      fields: [
        platformField(s),
        { name: 'mentioned', label: `Mentions ${s.brand.name}`, options: YES_NO },
        {
          name: 'brand_status',
          label: `${s.brand.name} in the answer`,
          options: MENTION_STATUSES.map((m): [string, string] => [m, BRAND_STATUS_WORDS[m]]),
        },
        competitorField(s),
        { name: 'tag', label: 'Tag' },
        { name: 'prompt_id', label: 'Prompt id' },
        { name: 'cited_url', label: 'Citing the URL' },
        { name: 'cited_domain', label: 'Citing the domain' },
        { name: 'gap_url', label: 'Behind the gap (URL)' },
      ],
      results: async (q, params) => answersResults(await this.query.answers(p, q), params, s.brand.name),
    })),
    sources: this.list('sources', 'Cited sources', (p, s) => ({
      fields: [CATEGORY_FIELD, platformField(s)],
      results: async (q, params) => sourcesResults(await this.query.sources(p, q), params, q.scan_id),
    })),
    urls: this.list('urls', 'Cited URLs', (p, s) => ({
      fields: [{ name: 'domain', label: 'Domain' }, CATEGORY_FIELD, platformField(s)],
      results: async (q, params) => urlsResults(await this.query.urls(p, q), params, q.scan_id),
    })),
    gaps: this.list('gaps', 'Citation gaps', (p, s, scans) => ({
      intro: GAPS_INTRO,
      fields: [competitorField(s), CATEGORY_FIELD, platformField(s)],
      results: async (q, params) => gapsResults(await this.query.gaps(p, q), params, q.scan_id, scans),
    })),
  };

  @Get('prompts')
  prompts(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.lists.prompts(req, res, user, raw);
  }

  @Get('answers')
  answers(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.lists.answers(req, res, user, raw);
  }

  @Get('sources')
  sources(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.lists.sources(req, res, user, raw);
  }

  @Get('urls')
  urls(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.lists.urls(req, res, user, raw);
  }

  @Get('gaps')
  gaps(
    @WebUserParam() user: UserView,
    @Query() raw: Record<string, unknown>,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    return this.lists.gaps(req, res, user, raw);
  }
}
