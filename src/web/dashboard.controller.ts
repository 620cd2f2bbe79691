import { Get, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { SOURCE_CATEGORIES } from '../visibility/derive/domains';
import { AnswersQuery, GapsQuery, HistoryQuery, PromptsQuery, SourcesQuery, UrlsQuery } from '../visibility/dto/query.dto';
import { ProjectState, VisibilityQueryService } from '../visibility/visibility-query.service';
import { CsrfService } from './csrf.service';
import {
  dashboardNav,
  DashboardTab,
  emptyDashboard,
  filterForm,
  highlight,
  overviewPage,
  pager,
  pct,
  SummaryView,
  table,
} from './pages/dashboard.pages';
import { html, Renderable, SafeHtml } from './render/html';
import { page, sendPage } from './render/layout';
import { plural } from '../common/text/plural';
import { apiQuery, keptParams } from './web-query';
import { WebController } from './web-controller.decorator';
import { WebRequest, WebUserParam } from './web-context';

/** Scans drawn in the history chart (one page of the API's history). */
const HISTORY_CHART_SCANS = 52;

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

  private listPage(user: UserView, csrf: string, tab: DashboardTab, title: string, body: Renderable): string {
    return page({ title, section: 'dashboard', user, csrf, body: html`<h1>${title}</h1>${dashboardNav(tab, user)}${body}` });
  }

  @Get()
  async overview(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const q = await apiQuery(HistoryQuery, { limit: String(HISTORY_CHART_SCANS), cursor: raw.history_cursor });
    await this.withProject(req, res, user, async (p, csrf) => {
      const [summary, history] = await Promise.all([this.query.summary(p), this.query.history(p, q)]);
      return overviewPage(user, csrf, summary as SummaryView, history);
    });
  }

  @Get('prompts')
  async prompts(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const q = await apiQuery(PromptsQuery, raw);
    await this.withProject(req, res, user, async (p, csrf) => {
      const r = await this.query.prompts(p, q);
      const params = keptParams(raw);
      return this.listPage(user, csrf, 'prompts', 'Tracked prompts', html`
${filterForm('/dashboard/prompts', [
  { name: 'tag', label: 'Tag', value: params.tag },
  { name: 'intent', label: 'Intent', value: params.intent },
  { name: 'country', label: 'Country (2 letters)', value: params.country },
  { name: 'enabled', label: 'Enabled', value: params.enabled, options: ['true', 'false'] },
], params.limit)}
${table(
  'Prompts (buyer questions) with their latest mention rate',
  ['Prompt', 'Id', 'Tags', 'Intent', 'Country', 'Enabled', ['Answers', 'num'], ['Mention rate', 'num']],
  r.prompts.map((x) => [x.text, x.id, x.tags.join(', '), x.intent ?? '–', x.country ?? '–', x.enabled ? 'yes' : 'no', x.latest?.answers ?? '–', pct(x.latest?.mention_rate)]),
  'No prompt matches these filters.',
  { stack: true },
)}
${pager('/dashboard/prompts', params, r.next_cursor, r.total, r.prompts.length)}`);
    });
  }

  @Get('answers')
  async answers(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const q = await apiQuery(AnswersQuery, raw);
    await this.withProject(req, res, user, async (p, csrf) => {
      const [r, s] = await Promise.all([this.query.answers(p, q), this.query.summary(p) as Promise<SummaryView>]);
      const params = keptParams(raw);
      const competitors = s.competitors.map((c) => c.name);
      const items: SafeHtml[] = r.answers.map(
        (a) => html`<article class="answer" aria-labelledby="answer-${a.index}">
<h3 id="answer-${a.index}">${a.prompt ?? a.prompt_id}</h3>
<p class="meta">${a.platform}${a.model ? ` (${a.model})` : ''} · ${a.status} · ${a.brand_mentioned ? `mentions ${s.brand.name}` : `does not mention ${s.brand.name}`}${a.competitors_mentioned.length ? ` · competitors: ${a.competitors_mentioned.join(', ')}` : ''}${a.cites_owned ? ' · cites your domain' : ''}</p>
<p class="text">${highlight(a.text, a.mentions)}</p>
${a.citations.length ? html`<details><summary>${plural(a.citations.length, 'citation')}</summary><ul>${a.citations.map((c) => html`<li>${c}</li>`)}</ul></details>` : ''}
</article>`,
      );
      return this.listPage(user, csrf, 'answers', 'AI answers of the latest scan', html`
<p class="meta">Scan ${r.scan.scan_id} of ${r.scan.date}. Mentions of ${s.brand.name} and its competitors are highlighted.</p>
${filterForm('/dashboard/answers', [
  { name: 'platform', label: 'Platform', value: params.platform, options: s.platforms },
  { name: 'mentioned', label: `Mentions ${s.brand.name}`, value: params.mentioned, options: ['true', 'false'] },
  { name: 'competitor', label: 'Competitor', value: params.competitor, options: competitors },
  { name: 'tag', label: 'Tag', value: params.tag },
  { name: 'prompt_id', label: 'Prompt id', value: params.prompt_id },
], params.limit)}
${items.length ? items : html`<p>No answer matches these filters.</p>`}
${pager('/dashboard/answers', params, r.next_cursor, r.total, r.answers.length)}`);
    });
  }

  @Get('sources')
  async sources(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const q = await apiQuery(SourcesQuery, raw);
    await this.withProject(req, res, user, async (p, csrf) => {
      const r = (await this.query.sources(p, q)) as unknown as { sources: Array<{ domain: string; category: string; citations: number; answers: number; prompts: number; urls: number; platforms: string[] }>; next_cursor: string | null; total?: number };
      const params = keptParams(raw);
      return this.listPage(user, csrf, 'sources', 'Cited sources', html`
${filterForm('/dashboard/sources', [
  { name: 'category', label: 'Category', value: params.category, options: [...SOURCE_CATEGORIES] },
  { name: 'platform', label: 'Platform', value: params.platform },
], params.limit)}
${table('Domains cited in the latest scan, most cited first', ['Domain', 'Category', ['Citations', 'num'], ['Answers', 'num'], ['Prompts', 'num'], ['URLs', 'num'], 'Platforms'],
  r.sources.map((x) => [x.domain, x.category, x.citations, x.answers, x.prompts, x.urls, x.platforms.join(', ')]), 'No source matches these filters.', { stack: true })}
${pager('/dashboard/sources', params, r.next_cursor, r.total, r.sources.length)}`);
    });
  }

  @Get('urls')
  async urls(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const q = await apiQuery(UrlsQuery, raw);
    await this.withProject(req, res, user, async (p, csrf) => {
      const r = (await this.query.urls(p, q)) as unknown as { urls: Array<{ url: string; domain: string; category: string; citations: number; answers: number; prompts: number; platforms: string[] }>; next_cursor: string | null; total?: number };
      const params = keptParams(raw);
      return this.listPage(user, csrf, 'urls', 'Cited URLs', html`
${filterForm('/dashboard/urls', [
  { name: 'domain', label: 'Domain', value: params.domain },
  { name: 'category', label: 'Category', value: params.category, options: [...SOURCE_CATEGORIES] },
  { name: 'platform', label: 'Platform', value: params.platform },
], params.limit)}
${table('URLs cited in the latest scan, most cited first', ['URL', 'Domain', 'Category', ['Citations', 'num'], ['Answers', 'num'], ['Prompts', 'num'], 'Platforms'],
  r.urls.map((x) => [x.url, x.domain, x.category, x.citations, x.answers, x.prompts, x.platforms.join(', ')]), 'No URL matches these filters.', { stack: true })}
${pager('/dashboard/urls', params, r.next_cursor, r.total, r.urls.length)}`);
    });
  }

  @Get('gaps')
  async gaps(@WebUserParam() user: UserView, @Query() raw: Record<string, unknown>, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const q = await apiQuery(GapsQuery, raw);
    await this.withProject(req, res, user, async (p, csrf) => {
      const r = (await this.query.gaps(p, q)) as unknown as { gaps: Array<{ url: string; domain: string; category: string; answers: number; competitors: string[]; prompts: number; platforms: string[] }>; next_cursor: string | null; total?: number };
      const params = keptParams(raw);
      return this.listPage(user, csrf, 'gaps', 'Citation gaps', html`
<p>Pages cited in answers that mention a competitor but not you: where to be present.</p>
${filterForm('/dashboard/gaps', [
  { name: 'competitor', label: 'Competitor', value: params.competitor },
  { name: 'category', label: 'Category', value: params.category, options: [...SOURCE_CATEGORIES] },
  { name: 'platform', label: 'Platform', value: params.platform },
], params.limit)}
${table('Citation gaps of the latest scan', ['URL', 'Domain', 'Category', ['Answers', 'num'], 'Competitors', ['Prompts', 'num'], 'Platforms'],
  r.gaps.map((x) => [x.url, x.domain, x.category, x.answers, x.competitors.join(', '), x.prompts, x.platforms.join(', ')]), 'No gap matches these filters.', { stack: true })}
${pager('/dashboard/gaps', params, r.next_cursor, r.total, r.gaps.length)}`);
    });
  }
}
