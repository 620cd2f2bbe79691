import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ScanChanges } from '../derive/changes';
import type { GapRow, ScanSummary, SourceRow, UrlRow } from '../derive/metrics';
import type { AnswersQuery, GapsQuery, PromptsQuery, SourcesQuery, UrlsQuery } from '../dto/query.dto';
import type { AnswerItem } from '../dto/responses';
import type { StoredBrand } from '../entities/vis-project.entity';
import type { CursorKey } from '../pagination';
import { GAP_COLUMNS, selectList, SOURCE_COLUMNS, URL_COLUMNS } from './columns';

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

export interface ScanRow {
  id: string;
  scan_key: string;
  date: string;
  platforms: string[];
  summary: ScanSummary;
  changes: ScanChanges | null;
}

/** A prompt and its latest-scan figures: both set (the latest scan asked it) or both null (setPromptFigures). */
export type PromptRow = {
  prompt_key: string;
  text: string;
  tags: string[];
  intent: string | null;
  country: string | null;
  enabled: boolean;
} & ({ latest_answers: number; latest_mentions: number } | { latest_answers: null; latest_mentions: null });

/** One item of GET /answers, built by Postgres (field order of the API); its type is the API's. */
export type { AnswerItem };
/**
 * An item of GET /answers: its stored JSON after the prompt (`api_tail`, store/answer-json.ts) with
 * the head's fields, or, for a row stored without it, PostgreSQL's json text of the {@link AnswerItem}.
 */
export type AnswerRow = { seq: number; prompt_key: string; prompt: string | null } & (
  { api_tail: string; json: null } | { api_tail: null; json: string }
);

export interface ProjectRow {
  business: string;
  brand: StoredBrand;
  competitors: StoredBrand[];
  scans_total: number;
}

/** A ranked per-scan list: its table, columns, count column and text key. */
interface Ranked {
  table: string;
  columns: object;
  count: string;
  key: string;
}
export const RANKED = {
  sources: { table: 'vis_sources', columns: SOURCE_COLUMNS, count: 'citations', key: 'domain' },
  urls: { table: 'vis_urls', columns: URL_COLUMNS, count: 'citations', key: 'url' },
  gaps: { table: 'vis_gaps', columns: GAP_COLUMNS, count: 'answers', key: 'url' },
} satisfies Record<string, Ranked>;
export type RankedKind = keyof typeof RANKED;
/** The row of each ranked list (its columns in columns.ts are the fields of these types). */
export interface RankedRows {
  sources: SourceRow;
  urls: UrlRow;
  gaps: GapRow;
}

/** An answer of GET /answers as PostgreSQL's json (API field order) from `a` (vis_answers) and `pr` (vis_prompts). */
export const ANSWER_JSON = `json_build_object(
  'index', a.seq, 'prompt_id', a.prompt_key, 'prompt', pr.text, 'platform', a.platform, 'model', a.model,
  'status', a.status, 'text', a.text, 'brand_mentioned', a.brand_mentioned, 'brand_position', a.brand_position,
  'brand_status', a.brand_status,
  'competitors_mentioned', ARRAY(SELECT e->>'name' FROM jsonb_array_elements(a.competitor_mentions) e),
  'competitors_absent', ARRAY(SELECT e->>'name' FROM jsonb_array_elements(a.mentions) e
                               WHERE e->>'kind' = 'competitor' AND e->>'status' = 'absent'),
  'competitor_mentions', a.competitor_mentions, 'citations', a.citations, 'cites_owned', a.cites_owned,
  'mentions', a.mentions)`;

const SCAN_SELECT = `SELECT id, scan_key, to_char(date, 'YYYY-MM-DD') AS date, platforms, summary, changes FROM vis_scans`;

/** Every read SQL of the visibility API: simple indexed queries over figures stored at ingest. */
@Injectable()
export class VisibilityReadStore {
  constructor(private readonly db: DataSource) {}

  async projectPointers(workspaceId: string): Promise<{ latest_scan_id: string | null; version: number } | null> {
    const rows = await this.db.query<Array<{ latest_scan_id: string | null; version: number }>>(
      'SELECT latest_scan_id, version FROM vis_projects WHERE workspace_id = $1',
      [workspaceId],
    );
    return rows[0] ?? null;
  }

  async scanRef(scanId: string): Promise<{ scan_key: string; date: string }> {
    const [r] = await this.db.query<Array<{ scan_key: string; date: string }>>(
      `SELECT scan_key, to_char(date, 'YYYY-MM-DD') AS date FROM vis_scans WHERE id = $1`,
      [scanId],
    );
    return r;
  }

  /** A scan of the workspace by its scan id (the import's `scan.id`), or null. */
  async scanByKey(
    workspaceId: string,
    scanKey: string,
  ): Promise<{ id: string; scan_key: string; date: string } | null> {
    const rows = await this.db.query<Array<{ id: string; scan_key: string; date: string }>>(
      `SELECT id, scan_key, to_char(date, 'YYYY-MM-DD') AS date FROM vis_scans WHERE workspace_id = $1 AND scan_key = $2`,
      [workspaceId, scanKey],
    );
    return rows[0] ?? null;
  }

  async project(workspaceId: string): Promise<ProjectRow> {
    const [p] = await this.db.query<ProjectRow[]>(
      'SELECT business, brand, competitors, scans_total FROM vis_projects WHERE workspace_id = $1',
      [workspaceId],
    );
    return p;
  }

  /** The newest scans first (date, then scan id), after the cursor key [date, scan_key] when given. */
  scans(workspaceId: string, limit: number, after: CursorKey | null = null): Promise<ScanRow[]> {
    const w = new Where().add((v) => `workspace_id = ${v(workspaceId)}`);
    if (after) w.add((v) => `(date, scan_key) < (${v(after[0])}::date, ${v(after[1])})`);
    return this.db.query<ScanRow[]>(
      `${SCAN_SELECT} WHERE ${w.sql} ORDER BY date DESC, scan_key DESC LIMIT ${limit}`,
      w.params,
    );
  }

  countScans(workspaceId: string): Promise<number> {
    return this.count('SELECT count(*) FROM vis_scans WHERE workspace_id = $1', [workspaceId]);
  }

  private promptFilter(workspaceId: string, q: PromptsQuery): Where {
    const w = new Where().add((v) => `workspace_id = ${v(workspaceId)}`);
    if (q.tag !== undefined) w.add((v) => `${v(q.tag)} = ANY(tags)`);
    if (q.enabled !== undefined) w.add((v) => `enabled = ${v(q.enabled === 'true')}`);
    if (q.intent !== undefined) w.add((v) => `intent = ${v(q.intent)}`);
    if (q.country !== undefined) w.add((v) => `country = ${v(q.country!.toUpperCase())}`);
    return w;
  }

  countPrompts(workspaceId: string, q: PromptsQuery): Promise<number> {
    const w = this.promptFilter(workspaceId, q);
    return this.count(`SELECT count(*) FROM vis_prompts WHERE ${w.sql}`, w.params);
  }

  /**
   * Prompts with the latest scan's figures (stored at ingest) or, given `scanId`, that scan's
   * (successful answers and those naming the brand, counted as derive/metrics.ts does).
   */
  prompts(
    workspaceId: string,
    q: PromptsQuery,
    limit: number,
    after: CursorKey | null,
    scanId?: string,
  ): Promise<PromptRow[]> {
    const w = this.promptFilter(workspaceId, q);
    if (after) w.add((v) => `prompt_key > ${v(after[0])}`);
    if (scanId === undefined) {
      return this.db.query<PromptRow[]>(
        `SELECT prompt_key, text, tags, intent, country, enabled, latest_answers, latest_mentions FROM vis_prompts
          WHERE ${w.sql} ORDER BY prompt_key COLLATE "C" LIMIT ${limit}`,
        w.params,
      );
    }
    const s = w.params.push(scanId);
    return this.db.query<PromptRow[]>(
      `SELECT p.prompt_key, p.text, p.tags, p.intent, p.country, p.enabled, f.a AS latest_answers, f.m AS latest_mentions
         FROM (SELECT * FROM vis_prompts WHERE ${w.sql}) p
         LEFT JOIN (SELECT prompt_key, count(*)::int AS a, (count(*) FILTER (WHERE brand_mentioned))::int AS m
                      FROM vis_answers WHERE scan_id = $${s} AND status = 'ok' GROUP BY prompt_key) f ON f.prompt_key = p.prompt_key
        ORDER BY p.prompt_key COLLATE "C" LIMIT ${limit}`,
      w.params,
    );
  }

  private answerFilter(workspaceId: string, scanId: string, q: AnswersQuery): Where {
    const w = new Where().add((v) => `a.scan_id = ${v(scanId)}`);
    if (q.platform !== undefined) w.add((v) => `a.platform = ${v(q.platform)}`);
    if (q.mentioned !== undefined) w.add((v) => `a.brand_mentioned = ${v(q.mentioned === 'true')}`);
    if (q.brand_status !== undefined) w.add((v) => `a.brand_status = ${v(q.brand_status)}`);
    if (q.prompt_id !== undefined) w.add((v) => `a.prompt_key = ${v(q.prompt_id)}`);
    if (q.cited_url !== undefined) w.add((v) => `${v(q.cited_url)} = ANY(a.citations)`);
    if (q.gap_url !== undefined) {
      // As derive/metrics.ts counts a gap's answers.
      w.add(
        (v) =>
          `${v(q.gap_url)} = ANY(a.citations) AND NOT a.brand_mentioned AND jsonb_array_length(a.competitor_mentions) > 0`,
      );
    }
    if (q.cited_domain !== undefined) {
      // The host of each (normalised) citation: the domain itself or one of its subdomains.
      w.add((v) => {
        const d = v(q.cited_domain!.toLowerCase());
        return `EXISTS (SELECT 1 FROM unnest(a.citations) c, lower(substring(c from '^[A-Za-z][A-Za-z0-9+.-]*://([^/:?#]+)')) h
                        WHERE h = ${d} OR right(h, length(${d}) + 1) = '.' || ${d})`;
      });
    }
    if (q.competitor !== undefined) {
      w.add(
        (v) =>
          `EXISTS (SELECT 1 FROM jsonb_array_elements(a.competitor_mentions) e WHERE lower(e->>'name') = lower(${v(q.competitor)}))`,
      );
    }
    if (q.tag !== undefined) {
      w.add(
        (v) =>
          `a.prompt_key IN (SELECT prompt_key FROM vis_prompts WHERE workspace_id = ${v(workspaceId)} AND ${v(q.tag)} = ANY(tags))`,
      );
    }
    return w;
  }

  countAnswers(workspaceId: string, scanId: string, q: AnswersQuery): Promise<number> {
    const w = this.answerFilter(workspaceId, scanId, q);
    return this.count(`SELECT count(*) FROM vis_answers a WHERE ${w.sql}`, w.params);
  }

  /**
   * The page's rows (picked first, in primary key order) with their prompts and their JSON written at
   * ingest; a row stored without it (imported before the column) gets ANSWER_JSON (pgJsonCompact'ed).
   */
  answers(
    workspaceId: string,
    scanId: string,
    q: AnswersQuery,
    limit: number,
    after: CursorKey | null,
  ): Promise<AnswerRow[]> {
    const w = this.answerFilter(workspaceId, scanId, q);
    if (after) w.add((v) => `a.seq > ${v(after[0])}`);
    const ws = w.params.push(workspaceId);
    return this.db.query<AnswerRow[]>(
      `SELECT a.seq, a.prompt_key, pr.text AS prompt, a.api_tail, CASE WHEN a.api_tail IS NULL THEN ${ANSWER_JSON}::text END AS json
         FROM (SELECT * FROM vis_answers a WHERE ${w.sql} ORDER BY a.seq LIMIT ${limit}) a
         LEFT JOIN vis_prompts pr ON pr.workspace_id = $${ws} AND pr.prompt_key = a.prompt_key
        ORDER BY a.seq`,
      w.params,
    );
  }

  private rankedFilter(kind: RankedKind, scanId: string, q: SourcesQuery & Partial<UrlsQuery & GapsQuery>): Where {
    const w = new Where().add((v) => `scan_id = ${v(scanId)}`);
    if (q.category !== undefined) w.add((v) => `category = ${v(q.category)}`);
    if (q.platform !== undefined) w.add((v) => `${v(q.platform)} = ANY(platforms)`);
    if (kind === 'urls' && q.domain !== undefined) w.add((v) => `domain = ${v(q.domain!.toLowerCase())}`);
    if (kind === 'gaps' && q.competitor !== undefined) {
      w.add((v) => `EXISTS (SELECT 1 FROM unnest(competitors) c WHERE lower(c) = lower(${v(q.competitor)}))`);
    }
    return w;
  }

  countRanked(kind: RankedKind, scanId: string, q: SourcesQuery): Promise<number> {
    const w = this.rankedFilter(kind, scanId, q);
    return this.count(`SELECT count(*) FROM ${RANKED[kind].table} WHERE ${w.sql}`, w.params);
  }

  /** Rows of one scan sorted by a count (desc) then a text key (asc, bytewise), after the cursor key [count, key]. */
  ranked<N extends RankedKind>(
    kind: N,
    scanId: string,
    q: SourcesQuery,
    limit: number,
    after: CursorKey | null,
  ): Promise<Array<RankedRows[N]>> {
    const o = RANKED[kind];
    const w = this.rankedFilter(kind, scanId, q);
    if (after) {
      w.add(
        (v) =>
          `(${o.count} < ${v(after[0])} OR (${o.count} = ${v(after[0])} AND ${o.key} COLLATE "C" > ${v(after[1])}))`,
      );
    }
    return this.db.query(
      `SELECT ${selectList(o.columns)} FROM ${o.table} WHERE ${w.sql} ORDER BY ${o.count} DESC, ${o.key} COLLATE "C" LIMIT ${limit}`,
      w.params,
    );
  }

  private async count(sql: string, params: unknown[]): Promise<number> {
    const [r] = await this.db.query<Array<{ count: string }>>(sql, params);
    return Number(r.count);
  }
}
