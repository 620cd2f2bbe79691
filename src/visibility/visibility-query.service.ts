/**
 * Over 300 lines: one method per read of the visibility API (summary, history, trends, prompts, answers, sources, URLs,
 * gaps), all resolving the scan and the memo cache the same way, shared by the REST controller, the dashboard and the
 * export.
 */
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { compareScans, Comparison } from './derive/changes';
import { voiceSample, withIntervals } from './derive/intervals';
import { percent } from './derive/metrics';
import { wilson } from './derive/stats';
import { AnswersQuery, GapsQuery, HistoryQuery, PromptsQuery, SourcesQuery, UrlsQuery } from './dto/query.dto';
import type {
  AnswerItem,
  Answers,
  Gaps,
  History,
  Prompts,
  ScanRef,
  ScanStub,
  Sources,
  Urls,
  Visibility,
} from './dto/responses';
import { MemoCache } from './memo-cache';
import { decodeCursor, encodeCursor, Page, toPage } from './pagination';
import { ProjectState, ProjectStateCache } from './store/project-state.cache';
import { answerHead, answerJson } from './store/answer-json';
import { pgJsonCompact } from './store/pg-json-text';
import { AnswerRow, RANKED, RankedKind, ScanRow, VisibilityReadStore } from './store/visibility-read.store';
import { markImmutable } from '../common/http/immutable-body';
import { RawJson } from '../common/interceptors/raw-json';
import { JsonBytes } from '../common/http/json-bytes';

export { PROJECT_STATE_TTL_MS } from './store/project-state.cache';
export type { ProjectState } from './store/project-state.cache';

export type { ScanRef, ScanStub } from './dto/responses';

/** GET /answers with its rows as JSON text (VisibilityQueryService.answersText). */
export type AnswersText = Omit<Answers, 'answers'> & { answers: RawJson };

const stub = (s: ScanRow): ScanStub => ({
  scan_id: s.scan_key,
  date: s.date,
  grade: s.summary.grade,
  grade_reason: s.summary.grade_reason,
  mention_rate: s.summary.mention_rate,
  mention_rate_ci: wilson(s.summary.mentions, s.summary.answers.successful),
  share_of_voice: s.summary.share_of_voice,
  share_of_voice_sample: voiceSample(s.summary),
  share_of_voice_ci: wilson(s.summary.mentions, voiceSample(s.summary)),
  answers: s.summary.answers.successful,
  mentions: s.summary.mentions,
  absences: s.summary.absences ?? null,
});

/** One scan's figures by platform and by competitor (the dashboard's trend charts). */
export interface TrendScan {
  scan_id: string;
  date: string;
  mention_rate: number | null;
  share_of_voice: number | null;
  citation_rate: number | null;
  platforms: Array<{
    platform: string;
    answers: number;
    mention_rate: number | null;
    share_of_voice: number | null;
    citation_rate: number | null;
  }>;
  competitors: Array<{ name: string; mentions: number; mention_rate: number | null; share_of_voice: number | null }>;
}

/**
 * The read side of the visibility API: shapes, paginates and memoises what VisibilityReadStore
 * reads (figures stored at ingest). Public methods are used by the controller and the dashboard.
 */
@Injectable()
export class VisibilityQueryService {
  /** Summary bodies by workspace and data version. */
  private readonly summaries = new MemoCache<Visibility>(1000);
  /** Scan references by scan id, and list totals by scope (scan id or data version) and filter. */
  private readonly scans = new MemoCache<ScanRef>(1000);
  private readonly totals = new MemoCache<number>(5000);
  /** Scans picked by `scan_id`, by workspace and scan id (a miss is not kept). */
  private readonly scanIds = new MemoCache<{ id: string; ref: ScanRef }>(1000);

  constructor(
    private readonly store: VisibilityReadStore,
    private readonly projects: ProjectStateCache,
  ) {}

  /**
   * The workspace's project pointers (the input of every read and of the ETag); 404
   * project_not_found when it has no scan yet. Kept for PROJECT_STATE_TTL_MS: an import made by
   * another process (the CLI, another instance) is visible within that time.
   */
  project(workspaceId: string): Promise<ProjectState> {
    return this.projects.get(workspaceId, () => this.loadProject(workspaceId));
  }

  /** Called after a write into the workspace committed. */
  forget(workspaceId: string): void {
    this.projects.forget(workspaceId);
  }

  private async loadProject(workspaceId: string): Promise<ProjectState> {
    const row = await this.store.projectPointers(workspaceId);
    if (!row || !row.latest_scan_id) {
      throw new DomainError(ErrorCode.ProjectNotFound, 'This workspace has no project data yet: import a scan first.');
    }
    return { workspaceId, latestScanId: row.latest_scan_id, version: row.version };
  }

  /**
   * The scan a list reads: `scanKey` (a scan id of the workspace) or the latest. An unknown scan id
   * is 404 not_found naming `scan_id`. Scan ids never change meaning (a re-import of an id with
   * other content is refused), so the lookup is memoised.
   */
  async scanOf(p: ProjectState, scanKey: string | undefined): Promise<{ id: string; ref: ScanRef }> {
    if (scanKey === undefined) return { id: p.latestScanId, ref: await this.scanRef(p) };
    const found = await this.scanIds.get(`${p.workspaceId}\n${scanKey}`, async () => {
      const r = await this.store.scanByKey(p.workspaceId, scanKey);
      if (!r) {
        throw new DomainError(
          ErrorCode.NotFound,
          `This workspace has no scan "${scanKey}": GET /api/v1/history lists its scans.`,
          { field: 'scan_id' },
        );
      }
      return { id: r.id, ref: { scan_id: r.scan_key, date: r.date } };
    });
    return found;
  }

  private scanRef(p: ProjectState): Promise<ScanRef> {
    return this.scans.get(p.latestScanId, async () => {
      const r = await this.store.scanRef(p.latestScanId);
      return { scan_id: r.scan_key, date: r.date };
    });
  }

  summary(p: ProjectState): Promise<Visibility> {
    // Immutable per data version: the API serializes it once (common/http/immutable-body).
    return this.summaries.get(`${p.workspaceId}:${p.version}`, async () => markImmutable(await this.loadSummary(p)));
  }

  private async loadSummary(p: ProjectState): Promise<Visibility> {
    const [project, [latest, previous]] = await Promise.all([
      this.store.project(p.workspaceId),
      this.store.scans(p.workspaceId, 2),
    ]);
    const s = withIntervals(latest.summary);
    const comparison: Comparison | null = compareScans(
      { scan_id: latest.scan_key, summary: latest.summary },
      previous ? { scan_id: previous.scan_key, summary: previous.summary } : null,
    );
    return {
      business: project.business,
      brand: project.brand,
      platforms: latest.platforms,
      latest: stub(latest),
      previous: previous ? stub(previous) : null,
      scans_total: project.scans_total,
      answers: s.answers,
      funnel: s.funnel,
      by_platform: s.platforms,
      competitors: s.competitors,
      comparison,
      changes: latest.changes,
    };
  }

  async history(p: ProjectState, q: HistoryQuery): Promise<History> {
    const scope = String(p.version);
    const after = decodeCursor(q.cursor, scope, ['string', 'string']);
    const rows = await this.store.scans(p.workspaceId, q.limit + 1, after);
    const page = toPage(
      rows,
      q.limit,
      scope,
      (r) => [r.date, r.scan_key],
      (r) => ({
        scan_id: r.scan_key,
        date: r.date,
        platforms: r.platforms,
        answers: r.summary.answers,
        grade: r.summary.grade,
        grade_reason: r.summary.grade_reason,
        mention_rate: r.summary.mention_rate,
        mention_rate_ci: wilson(r.summary.mentions, r.summary.answers.successful),
        share_of_voice: r.summary.share_of_voice,
        share_of_voice_sample: voiceSample(r.summary),
        share_of_voice_ci: wilson(r.summary.mentions, voiceSample(r.summary)),
        citation_rate: r.summary.funnel.citation_rate,
        citation_rate_ci: wilson(r.summary.funnel.with_citations, r.summary.funnel.answers),
        owned_citation_rate: r.summary.funnel.owned_citation_rate,
        owned_citation_rate_ci: wilson(r.summary.funnel.with_owned_citation, r.summary.funnel.answers),
        changes: r.changes,
      }),
    );
    const scansTotal = await this.count(scope, 'scans', {}, () => this.store.countScans(p.workspaceId));
    return { scans_total: scansTotal, ...rename(page, 'scans') };
  }

  /** The newest `limit` scans, oldest first, with their figures by platform and by competitor (stored at ingest). */
  async trends(p: ProjectState, limit: number): Promise<TrendScan[]> {
    const rows = await this.store.scans(p.workspaceId, limit);
    return rows.reverse().map((r) => ({
      scan_id: r.scan_key,
      date: r.date,
      mention_rate: r.summary.mention_rate,
      share_of_voice: r.summary.share_of_voice,
      citation_rate: r.summary.funnel.citation_rate,
      platforms: r.summary.platforms.map((x) => ({
        platform: x.platform,
        answers: x.answers,
        mention_rate: x.mention_rate,
        share_of_voice: x.share_of_voice,
        citation_rate: x.funnel.citation_rate,
      })),
      competitors: r.summary.competitors.map((x) => ({
        name: x.name,
        mentions: x.mentions,
        mention_rate: x.mention_rate,
        share_of_voice: x.share_of_voice,
      })),
    }));
  }

  async prompts(p: ProjectState, q: PromptsQuery): Promise<Prompts> {
    const scope = String(p.version);
    const after = decodeCursor(q.cursor, scope, ['string']);
    const { scan_id: _scan, ...promptFilters } = filters(q);
    const total = await this.count(scope, 'prompts', promptFilters, () => this.store.countPrompts(p.workspaceId, q));
    const scanId = q.scan_id === undefined ? undefined : (await this.scanOf(p, q.scan_id)).id;
    const rows = await this.store.prompts(p.workspaceId, q, q.limit + 1, after, scanId);
    const page = toPage(
      rows,
      q.limit,
      scope,
      (r) => [r.prompt_key],
      (r) => ({
        id: r.prompt_key,
        text: r.text,
        tags: r.tags,
        intent: r.intent,
        country: r.country,
        enabled: r.enabled,
        latest:
          r.latest_answers === null
            ? null
            : {
                answers: r.latest_answers,
                mentions: r.latest_mentions,
                mention_rate: percent(r.latest_mentions, r.latest_answers),
                mention_rate_ci: wilson(r.latest_mentions, r.latest_answers),
              },
      }),
    );
    return { total, ...rename(page, 'prompts') };
  }

  async answers(p: ProjectState, q: AnswersQuery): Promise<Answers> {
    const page = await this.answerRows(p, q);
    return { ...page, answers: page.answers.map((r) => JSON.parse(answerText(r)) as AnswerItem) };
  }

  /**
   * The page of {@link answers} with its rows as JSON, the bytes JSON.stringify would write for
   * them: what GET /answers sends, without building (and serializing) 500 rows of objects. Each row
   * is written as UTF-8 as the driver reads it (store.eachAnswer): no row outlives its write.
   */
  async answersText(p: ProjectState, q: AnswersQuery): Promise<AnswersText> {
    const { scope, scan, after, total } = await this.answersPage(p, q);
    const rows = new JsonBytes().write('[');
    let kept = 0;
    let last = 0;
    let more = false;
    await this.store.eachAnswer(p.workspaceId, scope, q, q.limit + 1, after, (r) => {
      if (kept === q.limit) {
        more = true;
        return;
      }
      if (kept > 0) rows.write(',');
      if (r.api_tail === null) rows.write(pgJsonCompact(r.json));
      else rows.write(answerHead(r.seq, r.prompt_key, r.prompt)).write(r.api_tail);
      kept++;
      last = r.seq;
    });
    return {
      scan,
      total,
      answers: new RawJson(rows.write(']')),
      next_cursor: more ? encodeCursor(scope, [last]) : null,
    };
  }

  /** What a page of answers starts from, as rows or as text: its scan, the cursor's key and the filtered total. */
  private async answersPage(p: ProjectState, q: AnswersQuery) {
    const { id: scope, ref: scan } = await this.scanOf(p, q.scan_id);
    const after = decodeCursor(q.cursor, scope, ['number']);
    const total = await this.count(scope, 'answers', filters(q), () =>
      this.store.countAnswers(p.workspaceId, scope, q),
    );
    return { scope, scan, after, total };
  }

  private async answerRows(p: ProjectState, q: AnswersQuery) {
    const { scope, scan, after, total } = await this.answersPage(p, q);
    const rows = await this.store.answers(p.workspaceId, scope, q, q.limit + 1, after);
    const page = toPage(
      rows,
      q.limit,
      scope,
      (r) => [r.seq],
      (r) => r,
    );
    return { scan, total, ...rename(page, 'answers') };
  }

  sources(p: ProjectState, q: SourcesQuery): Promise<Sources> {
    return this.rankedList(p, q, 'sources');
  }

  urls(p: ProjectState, q: UrlsQuery): Promise<Urls> {
    return this.rankedList(p, q, 'urls');
  }

  gaps(p: ProjectState, q: GapsQuery): Promise<Gaps> {
    return this.rankedList(p, q, 'gaps');
  }

  /** Rows of one scan sorted by a count (desc) then a text key (asc, bytewise), keyset-paginated. */
  private async rankedList<N extends RankedKind>(p: ProjectState, q: SourcesQuery, kind: N) {
    const { id: scope, ref: scan } = await this.scanOf(p, q.scan_id);
    const after = decodeCursor(q.cursor, scope, ['number', 'string']);
    const total = await this.count(scope, kind, filters(q), () => this.store.countRanked(kind, scope, q));
    const rows = await this.store.ranked(kind, scope, q, q.limit + 1, after);
    const { count, key } = RANKED[kind];
    const page = toPage(
      rows,
      q.limit,
      scope,
      (r) => [Reflect.get(r, count) as number, Reflect.get(r, key) as string],
      (r) => r,
    );
    return { scan, total, ...rename(page, kind) };
  }

  /** A total, memoised by `scope` (scan id or data version: rows under it never change), list and filter. */
  private count(
    scope: string,
    list: string,
    filter: Record<string, unknown>,
    load: () => Promise<number>,
  ): Promise<number> {
    return this.totals.get(`${scope}\n${list}\n${JSON.stringify(filter)}`, load);
  }
}

/** An answer's JSON as GET /answers sends it: stored at ingest, or built by PostgreSQL for rows stored before. */
function answerText(r: AnswerRow): string {
  return r.api_tail === null ? pgJsonCompact(r.json) : answerJson(r.seq, r.prompt_key, r.prompt, r.api_tail);
}

/** The filter fields of a query (not its page): the key of its memoised total. */
function filters(q: object): Record<string, unknown> {
  const { limit: _limit, cursor: _cursor, ...rest } = q as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(rest)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/** `{ items, next_cursor }` -> `{ [name]: items, next_cursor }` */
function rename<T, N extends string>(page: Page<T>, name: N): Record<N, T[]> & { next_cursor: string | null } {
  return { [name]: page.items, next_cursor: page.next_cursor } as Record<N, T[]> & { next_cursor: string | null };
}
