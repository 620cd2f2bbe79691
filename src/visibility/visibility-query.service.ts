import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { compareScans, Comparison, ScanChanges } from './derive/changes';
import { Ci, voiceSample, withIntervals } from './derive/intervals';
import { wilson } from './derive/stats';
import type { MentionStatus } from './derive/classify';
import { AnswerMention, Grade, percent, ScanSummary } from './derive/metrics';
import { AnswersQuery, GapsQuery, HistoryQuery, PromptsQuery, SourcesQuery, UrlsQuery } from './dto/query.dto';
import { MemoCache } from './memo-cache';
import { CursorKey, decodeCursor, Page, toPage } from './pagination';
import type { StoredBrand } from './entities/vis-project.entity';

/** How long a workspace's project pointers are reused without a database read. */
export const PROJECT_STATE_TTL_MS = 1000;

/** What every read starts from: one primary-key lookup (also the input of the ETag). */
export interface ProjectState {
  workspaceId: string;
  latestScanId: string;
  version: number;
}

export interface ScanStub {
  scan_id: string;
  date: string;
  grade: Grade | null;
  grade_reason: string | null;
  mention_rate: number | null;
  /** 95 % Wilson interval of mention_rate (percent), null without sample. */
  mention_rate_ci: Ci;
  share_of_voice: number | null;
  /** Mentions of all tracked brands: the sample of share_of_voice. */
  share_of_voice_sample: number;
  share_of_voice_ci: Ci;
  /** Successful answers: the sample of mention_rate. */
  answers: number;
  /** Successful answers mentioning the brand (the numerator of mention_rate). */
  mentions: number;
  /** Successful answers saying they do not know the brand; null for scans classified before absences existed. */
  absences: number | null;
}

export interface ScanRef {
  scan_id: string;
  date: string;
}

/** Builds a dynamic WHERE clause with numbered parameters. */
class Where {
  readonly params: unknown[] = [];
  private readonly parts: string[] = [];
  add(sql: (p: (v: unknown) => string) => string): this {
    this.parts.push(sql((v) => `$${this.params.push(v)}`));
    return this;
  }
  get sql(): string {
    return this.parts.join(' AND ');
  }
}

/** One item of GET /answers, built by Postgres (field order of the API). */
interface AnswerItem {
  index: number;
  prompt_id: string;
  prompt: string | null;
  platform: string;
  model: string | null;
  status: string;
  text: string;
  brand_mentioned: boolean;
  brand_position: number | null;
  brand_status: MentionStatus;
  competitors_mentioned: string[];
  competitors_absent: string[];
  competitor_mentions: Array<{ name: string; position: number }>;
  citations: string[];
  cites_owned: boolean;
  /** Classification and evidence of every tracked brand (brand first). */
  mentions: AnswerMention[];
}

interface PromptRow {
  prompt_key: string;
  text: string;
  tags: string[];
  intent: string | null;
  country: string | null;
  enabled: boolean;
  latest_answers: number | null;
  latest_mentions: number | null;
}

interface ScanRow {
  id: string;
  scan_key: string;
  date: string;
  platforms: string[];
  summary: ScanSummary;
  changes: ScanChanges | null;
}

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

/** The read side of the visibility API: simple indexed queries over figures stored at ingest. */
@Injectable()
export class VisibilityQueryService {
  /** Summary bodies by workspace and data version. */
  private readonly summaries = new MemoCache<object>(1000);
  /** Scan references by scan id, and list totals by scope (scan id or data version) and filter. */
  private readonly scans = new MemoCache<ScanRef>(1000);
  private readonly totals = new MemoCache<number>(5000);

  constructor(private readonly db: DataSource) {}

  /** Project pointers by workspace, kept PROJECT_STATE_TTL_MS (imports in this process drop them at once). */
  private readonly projects = new Map<string, { state: ProjectState; until: number }>();

  /**
   * The workspace's project pointers (the input of every read and of the ETag); 404
   * project_not_found when it has no scan yet. Kept for PROJECT_STATE_TTL_MS: an import made by
   * another process (the CLI, another instance) is visible within that time.
   */
  async project(workspaceId: string): Promise<ProjectState> {
    const now = Date.now();
    const hit = this.projects.get(workspaceId);
    if (hit && hit.until > now) return hit.state;
    const state = await this.loadProject(workspaceId);
    if (this.projects.size >= 10_000) this.projects.clear();
    this.projects.set(workspaceId, { state, until: now + PROJECT_STATE_TTL_MS });
    return state;
  }

  /** Called after an import into the workspace committed. */
  forget(workspaceId: string): void {
    this.projects.delete(workspaceId);
  }

  private async loadProject(workspaceId: string): Promise<ProjectState> {
    const rows = await this.db.query<Array<{ latest_scan_id: string | null; version: number }>>(
      'SELECT latest_scan_id, version FROM vis_projects WHERE workspace_id = $1',
      [workspaceId],
    );
    if (rows.length === 0 || !rows[0].latest_scan_id) {
      throw new DomainError(ErrorCode.ProjectNotFound, 'This workspace has no project data yet: import a scan first.');
    }
    return { workspaceId, latestScanId: rows[0].latest_scan_id, version: rows[0].version };
  }

  private scanRef(p: ProjectState): Promise<ScanRef> {
    return this.scans.get(p.latestScanId, () => this.loadScanRef(p));
  }

  private async loadScanRef(p: ProjectState): Promise<ScanRef> {
    const [r] = await this.db.query<Array<{ scan_key: string; date: string }>>(
      `SELECT scan_key, to_char(date, 'YYYY-MM-DD') AS date FROM vis_scans WHERE id = $1`,
      [p.latestScanId],
    );
    return { scan_id: r.scan_key, date: r.date };
  }

  summary(p: ProjectState): Promise<object> {
    return this.summaries.get(`${p.workspaceId}:${p.version}`, () => this.loadSummary(p));
  }

  private async loadSummary(p: ProjectState) {
    const [[project], scans] = (await Promise.all([
      this.db.query('SELECT business, brand, competitors, scans_total FROM vis_projects WHERE workspace_id = $1', [p.workspaceId]),
      this.db.query(
        `SELECT id, scan_key, to_char(date, 'YYYY-MM-DD') AS date, platforms, summary, changes FROM vis_scans
          WHERE workspace_id = $1 ORDER BY date DESC, scan_key DESC LIMIT 2`,
        [p.workspaceId],
      ),
    ])) as [Array<{ business: string; brand: StoredBrand; competitors: StoredBrand[]; scans_total: number }>, ScanRow[]];
    const [latest, previous] = scans;
    const s = withIntervals(latest.summary);
    const comparison: Comparison | null = compareScans(
      { scan_id: latest.scan_key, summary: s },
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

  async history(p: ProjectState, q: HistoryQuery) {
    const scope = String(p.version);
    const after = decodeCursor(q.cursor, scope, ['string', 'string']);
    const w = new Where().add((v) => `workspace_id = ${v(p.workspaceId)}`);
    if (after) w.add((v) => `(date, scan_key) < (${v(after[0])}::date, ${v(after[1])})`);
    const rows = await this.db.query<ScanRow[]>(
      `SELECT id, scan_key, to_char(date, 'YYYY-MM-DD') AS date, platforms, summary, changes FROM vis_scans
        WHERE ${w.sql} ORDER BY date DESC, scan_key DESC LIMIT ${q.limit + 1}`,
      w.params,
    );
    const page = toPage(rows, q.limit, scope, (r) => [r.date, r.scan_key], (r) => ({
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
    }));
    const scansTotal = await this.count(scope, 'SELECT count(*) FROM vis_scans WHERE workspace_id = $1', [p.workspaceId]);
    return { scans_total: scansTotal, ...rename(page, 'scans') };
  }

  async prompts(p: ProjectState, q: PromptsQuery) {
    const scope = String(p.version);
    const after = decodeCursor(q.cursor, scope, ['string']);
    const w = new Where().add((v) => `workspace_id = ${v(p.workspaceId)}`);
    if (q.tag !== undefined) w.add((v) => `${v(q.tag)} = ANY(tags)`);
    if (q.enabled !== undefined) w.add((v) => `enabled = ${v(q.enabled === 'true')}`);
    if (q.intent !== undefined) w.add((v) => `intent = ${v(q.intent)}`);
    if (q.country !== undefined) w.add((v) => `country = ${v(q.country!.toUpperCase())}`);
    const total = await this.count(scope, `SELECT count(*) FROM vis_prompts WHERE ${w.sql}`, w.params);
    if (after) w.add((v) => `prompt_key > ${v(after[0])}`);
    const rows = await this.db.query<PromptRow[]>(
      `SELECT prompt_key, text, tags, intent, country, enabled, latest_answers, latest_mentions FROM vis_prompts
        WHERE ${w.sql} ORDER BY prompt_key COLLATE "C" LIMIT ${q.limit + 1}`,
      w.params,
    );
    const page = toPage(rows, q.limit, scope, (r) => [r.prompt_key], (r) => ({
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
              mention_rate: percent(r.latest_mentions ?? 0, r.latest_answers),
              mention_rate_ci: wilson(r.latest_mentions ?? 0, r.latest_answers),
            },
    }));
    return { total, ...rename(page, 'prompts') };
  }

  async answers(p: ProjectState, q: AnswersQuery) {
    const scope = p.latestScanId;
    const after = decodeCursor(q.cursor, scope, ['number']);
    const w = new Where().add((v) => `a.scan_id = ${v(p.latestScanId)}`);
    if (q.platform !== undefined) w.add((v) => `a.platform = ${v(q.platform)}`);
    if (q.mentioned !== undefined) w.add((v) => `a.brand_mentioned = ${v(q.mentioned === 'true')}`);
    if (q.brand_status !== undefined) w.add((v) => `a.brand_status = ${v(q.brand_status)}`);
    if (q.prompt_id !== undefined) w.add((v) => `a.prompt_key = ${v(q.prompt_id)}`);
    if (q.competitor !== undefined) {
      w.add((v) => `EXISTS (SELECT 1 FROM jsonb_array_elements(a.competitor_mentions) e WHERE lower(e->>'name') = lower(${v(q.competitor)}))`);
    }
    if (q.tag !== undefined) {
      w.add((v) => `a.prompt_key IN (SELECT prompt_key FROM vis_prompts WHERE workspace_id = ${v(p.workspaceId)} AND ${v(q.tag)} = ANY(tags))`);
    }
    const total = await this.count(scope, `SELECT count(*) FROM vis_answers a WHERE ${w.sql}`, w.params);
    if (after) w.add((v) => `a.seq > ${v(after[0])}`);
    const ws = w.params.push(p.workspaceId);
    // Postgres builds the API rows and one JSON array of them: one JSON.parse instead of a
    // row-by-row conversion of 500 rows of arrays and jsonb in JavaScript.
    const [[{ rows }], scan] = await Promise.all([
      this.db.query<Array<{ rows: AnswerItem[] }>>(
        `SELECT coalesce(json_agg(r.j ORDER BY r.seq), '[]'::json) AS rows FROM (
           SELECT a.seq, json_build_object(
             'index', a.seq, 'prompt_id', a.prompt_key, 'prompt', pr.text, 'platform', a.platform, 'model', a.model,
             'status', a.status, 'text', a.text, 'brand_mentioned', a.brand_mentioned, 'brand_position', a.brand_position,
             'brand_status', a.brand_status,
             'competitors_mentioned', ARRAY(SELECT e->>'name' FROM jsonb_array_elements(a.competitor_mentions) e),
             'competitors_absent', ARRAY(SELECT e->>'name' FROM jsonb_array_elements(a.mentions) e
                                          WHERE e->>'kind' = 'competitor' AND e->>'status' = 'absent'),
             'competitor_mentions', a.competitor_mentions, 'citations', a.citations, 'cites_owned', a.cites_owned,
             'mentions', a.mentions) AS j
             FROM vis_answers a LEFT JOIN vis_prompts pr ON pr.workspace_id = $${ws} AND pr.prompt_key = a.prompt_key
            WHERE ${w.sql} ORDER BY a.seq LIMIT ${q.limit + 1}) r`,
        w.params,
      ),
      this.scanRef(p),
    ]);
    const page = toPage(rows, q.limit, scope, (r) => [r.index], (r) => r);
    return { scan, total, ...rename(page, 'answers') };
  }

  async sources(p: ProjectState, q: SourcesQuery) {
    const w = this.rowFilter(p, q);
    return this.rankedList(p, q, w, {
      table: 'vis_sources',
      columns: 'domain, category, citations, answers, prompts, urls, platforms',
      count: 'citations',
      key: 'domain',
      name: 'sources',
    });
  }

  async urls(p: ProjectState, q: UrlsQuery) {
    const w = this.rowFilter(p, q);
    if (q.domain !== undefined) w.add((v) => `domain = ${v(q.domain!.toLowerCase())}`);
    return this.rankedList(p, q, w, {
      table: 'vis_urls',
      columns: 'url, domain, category, citations, answers, prompts, platforms',
      count: 'citations',
      key: 'url',
      name: 'urls',
    });
  }

  async gaps(p: ProjectState, q: GapsQuery) {
    const w = this.rowFilter(p, q);
    if (q.competitor !== undefined) {
      w.add((v) => `EXISTS (SELECT 1 FROM unnest(competitors) c WHERE lower(c) = lower(${v(q.competitor)}))`);
    }
    return this.rankedList(p, q, w, {
      table: 'vis_gaps',
      columns: 'url, domain, category, answers, competitors, prompts, platforms',
      count: 'answers',
      key: 'url',
      name: 'gaps',
    });
  }

  private rowFilter(p: ProjectState, q: SourcesQuery): Where {
    const w = new Where().add((v) => `scan_id = ${v(p.latestScanId)}`);
    if (q.category !== undefined) w.add((v) => `category = ${v(q.category)}`);
    if (q.platform !== undefined) w.add((v) => `${v(q.platform)} = ANY(platforms)`);
    return w;
  }

  /** Rows of one scan sorted by a count (desc) then a text key (asc, bytewise), keyset-paginated. */
  private async rankedList<N extends string>(
    p: ProjectState,
    q: SourcesQuery,
    w: Where,
    o: { table: string; columns: string; count: string; key: string; name: N },
  ) {
    const scope = p.latestScanId;
    const after = decodeCursor(q.cursor, scope, ['number', 'string']);
    const total = await this.count(scope, `SELECT count(*) FROM ${o.table} WHERE ${w.sql}`, w.params);
    if (after) {
      w.add((v) => `(${o.count} < ${v(after[0])} OR (${o.count} = ${v(after[0])} AND ${o.key} COLLATE "C" > ${v(after[1])}))`);
    }
    const [rows, scan] = await Promise.all([
      this.db.query<Array<Record<string, unknown>>>(
        `SELECT ${o.columns} FROM ${o.table} WHERE ${w.sql} ORDER BY ${o.count} DESC, ${o.key} COLLATE "C" LIMIT ${q.limit + 1}`,
        w.params,
      ),
      this.scanRef(p),
    ]);
    const page = toPage(rows, q.limit, scope, (r) => [r[o.count] as number, r[o.key] as string] as CursorKey, (r) => r);
    return { scan, total, ...rename(page, o.name) };
  }

  /** A total, memoised by `scope` (scan id or data version: rows under it never change). */
  private count(scope: string, sql: string, params: unknown[]): Promise<number> {
    return this.totals.get(`${scope}\n${sql}\n${JSON.stringify(params)}`, () => this.loadCount(sql, params));
  }

  private async loadCount(sql: string, params: unknown[]): Promise<number> {
    const [r] = await this.db.query<Array<{ count: string }>>(sql, params);
    return Number(r.count);
  }
}

/** `{ items, next_cursor }` -> `{ [name]: items, next_cursor }` */
function rename<T, N extends string>(page: Page<T>, name: N): Record<N, T[]> & { next_cursor: string | null } {
  return { [name]: page.items, next_cursor: page.next_cursor } as Record<N, T[]> & { next_cursor: string | null };
}
