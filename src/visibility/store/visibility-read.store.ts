import { Injectable } from '@nestjs/common';
import { PoolClient, Query } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../common/config/env';
import type { ScanChanges } from '../derive/changes';
import type { GapRow, ScanSummary, SourceRow, UrlRow } from '../derive/metrics';
import type { AnswersQuery, GapsQuery, PromptsQuery, SourcesQuery, UrlsQuery } from '../dto/query.dto';
import type { AnswerItem } from '../dto/responses';
import type { StoredBrand } from '../entities/vis-project.entity';
import type { CursorKey } from '../pagination';
import { answerFilter, answersSql, answersStatementName } from './answers-sql';
import { GAP_COLUMNS, selectList, SOURCE_COLUMNS, URL_COLUMNS } from './columns';
import { Where } from './where';

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

const SCAN_SELECT = `SELECT id, scan_key, to_char(date, 'YYYY-MM-DD') AS date, platforms, summary, changes FROM vis_scans`;

/** Every read SQL of the visibility API: simple indexed queries over figures stored at ingest. */
@Injectable()
export class VisibilityReadStore {
  constructor(
    private readonly db: DataSource,
    private readonly config: AppConfig,
  ) {}

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

  countAnswers(workspaceId: string, scanId: string, q: AnswersQuery): Promise<number> {
    const w = answerFilter(workspaceId, scanId, q);
    return this.count(`SELECT count(*) FROM vis_answers a WHERE ${w.sql}`, w.params);
  }

  /**
   * The page's rows (picked first, in primary key order) with their prompts and their JSON written at
   * ingest; a row stored without it (imported before the column) gets ANSWER_JSON (answers-sql.ts; pgJsonCompact'ed).
   */
  answers(
    workspaceId: string,
    scanId: string,
    q: AnswersQuery,
    limit: number,
    after: CursorKey | null,
  ): Promise<AnswerRow[]> {
    const { sql, params } = answersSql(workspaceId, scanId, q, limit, after);
    return this.db.query<AnswerRow[]>(sql, params);
  }

  /**
   * The rows of {@link answers}, each handed to `onRow` as the driver reads it instead of all of
   * them kept until the last one came: a row's strings are garbage as soon as `onRow` has written
   * them (500 rows of 1.3 KB no longer outlive a young-generation collection). An error thrown by
   * `onRow` stops the rows and rejects once the query has ended (the connection stays usable).
   */
  async eachAnswer(
    workspaceId: string,
    scanId: string,
    q: AnswersQuery,
    limit: number,
    after: CursorKey | null,
    onRow: (row: AnswerRow) => void,
  ): Promise<void> {
    const { sql, params } = answersSql(workspaceId, scanId, q, limit, after);
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    try {
      await new Promise<void>((resolve, reject) => {
        let failed: Error | null = null;
        // Not on the embedded database: all its connections share one session (pglite-socket), where
        // a name prepared by one connection is unknown to the others' driver and would clash.
        const name = this.config.embedded ? undefined : answersStatementName(sql);
        const query = client.query(new Query({ name, text: sql, values: params }));
        query.on('row', (row: AnswerRow) => {
          if (failed) return;
          try {
            onRow(row);
          } catch (error) {
            failed = error instanceof Error ? error : new Error(String(error));
          }
        });
        query.on('error', reject);
        query.on('end', () => (failed ? reject(failed) : resolve()));
      });
    } finally {
      await runner.release();
    }
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
