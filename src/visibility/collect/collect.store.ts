import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ScanForAlerts } from './scan-alerts';
import { ACTIVE_STATUSES, CollectedAnswer, RunRow, RunSetup, RunStatus, RunTrigger } from './collect.types';

const RUN = `id, workspace_id, trigger, status, scan_key, to_char(date, 'YYYY-MM-DD') AS date, planned, asked, failed, cost_usd,
  budget_calls, budget_usd, stop_reason, error, result, created_at, started_at, finished_at`;
const ACTIVE = ACTIVE_STATUSES.map((s) => `'${s}'`).join(', ');

/** Every statement of collection runs (vis_collect_runs, vis_collect_answers). */
@Injectable()
export class CollectStore {
  constructor(private readonly db: DataSource) {}

  /**
   * Creates the workspace's run unless one is active (the partial unique index decides, so two
   * clicks on two instances still make one run). Returns the new run's id, or null. Scan ids
   * `beacon-<date>T<hhmmssmmm>-<4 hex>` sort in time order within a day (the history's tie-break).
   */
  async create(r: {
    workspaceId: string;
    trigger: RunTrigger;
    setup: RunSetup;
    planned: number;
    budgetCalls: number;
    budgetUsd: number;
    date: string;
  }): Promise<string | null> {
    const rows = await this.db.query<Array<{ id: string }>>(
      `INSERT INTO vis_collect_runs (workspace_id, trigger, status, scan_key, date, setup, planned, budget_calls, budget_usd)
       VALUES ($1, $2, 'queued', 'beacon-' || $3::text || to_char(now() AT TIME ZONE 'UTC', '"T"HH24MISSMS') || '-' || substr(md5(random()::text), 1, 4),
               $3::date, $4, $5, $6, $7)
       ON CONFLICT (workspace_id) WHERE status IN (${ACTIVE}) DO NOTHING RETURNING id`,
      [r.workspaceId, r.trigger, r.date, JSON.stringify(r.setup), r.planned, r.budgetCalls, r.budgetUsd],
    );
    return rows[0]?.id ?? null;
  }

  async active(workspaceId: string): Promise<RunRow | null> {
    const [r] = await this.db.query<RunRow[]>(
      `SELECT ${RUN} FROM vis_collect_runs WHERE workspace_id = $1 AND status IN (${ACTIVE})`,
      [workspaceId],
    );
    return r ?? null;
  }

  /** Every active run of every workspace (start-up recovery). */
  async allActive(): Promise<Array<{ id: string }>> {
    return this.db.query(`SELECT id FROM vis_collect_runs WHERE status IN (${ACTIVE})`);
  }

  async get(id: string): Promise<RunRow | null> {
    const [r] = await this.db.query<RunRow[]>(`SELECT ${RUN} FROM vis_collect_runs WHERE id = $1`, [id]);
    return r ?? null;
  }

  async setup(id: string): Promise<RunSetup> {
    const [r] = await this.db.query<Array<{ setup: RunSetup }>>('SELECT setup FROM vis_collect_runs WHERE id = $1', [
      id,
    ]);
    return r.setup;
  }

  async list(workspaceId: string, limit: number): Promise<RunRow[]> {
    return this.db.query<RunRow[]>(
      `SELECT ${RUN} FROM vis_collect_runs WHERE workspace_id = $1 ORDER BY created_at DESC LIMIT $2`,
      [workspaceId, limit],
    );
  }

  /**
   * Takes the run for this process: only when nobody's heartbeat is fresher than `staleMs` (a
   * worker that died leaves a stale one). Returns false when another process holds it.
   */
  async claim(id: string, staleMs: number): Promise<boolean> {
    const [rows] = await this.db.query<[unknown[], number]>(
      `UPDATE vis_collect_runs SET status = CASE WHEN status = 'queued' THEN 'running' ELSE status END,
              started_at = coalesce(started_at, now()), heartbeat_at = now()
        WHERE id = $1 AND status IN (${ACTIVE}) AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => $2::float8 / 1000))
        RETURNING id`,
      [id, staleMs],
    );
    return rows.length > 0;
  }

  async heartbeat(id: string): Promise<void> {
    await this.db.query('UPDATE vis_collect_runs SET heartbeat_at = now() WHERE id = $1', [id]);
  }

  /** Lets another process take the run at once (this one stops, e.g. at shutdown). */
  async release(id: string): Promise<void> {
    await this.db.query('UPDATE vis_collect_runs SET heartbeat_at = NULL WHERE id = $1', [id]);
  }

  /** Answers stored so far, in the order they were asked. */
  async answers(runId: string, o: { offset?: number; limit?: number } = {}): Promise<CollectedAnswer[]> {
    return this.db.query<CollectedAnswer[]>(
      `SELECT prompt_key, platform, sample, status, model, surface, text, citations, search_queries, input_tokens, output_tokens, cost_usd, reason
         FROM vis_collect_answers WHERE run_id = $1 ORDER BY asked_at, prompt_key, platform, sample OFFSET $2 LIMIT $3`,
      [runId, o.offset ?? 0, o.limit ?? null],
    );
  }

  /** Stores one answer and counts it in the run's progress, in one statement (a repeat counts nothing). */
  async addAnswer(runId: string, a: CollectedAnswer): Promise<void> {
    await this.db.query(
      `WITH ins AS (
         INSERT INTO vis_collect_answers (run_id, prompt_key, platform, sample, status, model, surface, text, citations, search_queries, input_tokens, output_tokens, cost_usd, reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT DO NOTHING RETURNING status, cost_usd)
       UPDATE vis_collect_runs r SET asked = asked + (SELECT count(*) FROM ins)::int,
              failed = failed + (SELECT count(*) FROM ins WHERE status <> 'ok')::int,
              cost_usd = cost_usd + coalesce((SELECT sum(cost_usd) FROM ins), 0), heartbeat_at = now()
        WHERE r.id = $1`,
      [
        runId,
        a.prompt_key,
        a.platform,
        a.sample,
        a.status,
        a.model,
        a.surface,
        a.text,
        JSON.stringify(a.citations),
        a.search_queries,
        a.input_tokens,
        a.output_tokens,
        a.cost_usd,
        a.reason,
      ],
    );
  }

  async setStatus(
    id: string,
    status: RunStatus,
    o: { stopReason?: string | null; error?: string | null; result?: unknown } = {},
  ): Promise<void> {
    const final = status === 'done' || status === 'failed';
    await this.db.query(
      `UPDATE vis_collect_runs SET status = $2, stop_reason = coalesce($3, stop_reason), error = coalesce($4, error),
              result = coalesce($5::json, result), finished_at = CASE WHEN $6::boolean THEN now() ELSE finished_at END,
              heartbeat_at = CASE WHEN $6::boolean THEN NULL ELSE now() END
        WHERE id = $1`,
      [
        id,
        status,
        o.stopReason ?? null,
        o.error ?? null,
        o.result === undefined ? null : JSON.stringify(o.result),
        final,
      ],
    );
  }

  /** A scan and the one before it in history, with what alert detection needs; null when the scan is not the latest. */
  async scansForAlerts(
    workspaceId: string,
    scanKey: string,
  ): Promise<{ business: string; latest: ScanForAlerts; previous: ScanForAlerts | null } | null> {
    const rows = await this.db.query<Array<ScanForAlerts & { id: string; business: string }>>(
      `SELECT s.id, s.scan_key AS scan_id, to_char(s.date, 'YYYY-MM-DD') AS date, s.summary, p.business,
              ARRAY(SELECT url FROM vis_urls u WHERE u.scan_id = s.id AND u.category = 'owned' ORDER BY url) AS owned_urls
         FROM vis_scans s JOIN vis_projects p ON p.workspace_id = s.workspace_id
        WHERE s.workspace_id = $1 ORDER BY s.date DESC, s.scan_key DESC LIMIT 2`,
      [workspaceId],
    );
    if (!rows.length || rows[0].scan_id !== scanKey) return null;
    const strip = ({ id: _id, business: _b, ...r }: ScanForAlerts & { id: string; business: string }): ScanForAlerts =>
      r;
    return { business: rows[0].business, latest: strip(rows[0]), previous: rows[1] ? strip(rows[1]) : null };
  }

  async workspaceSlug(workspaceId: string): Promise<string> {
    const [w] = await this.db.query<Array<{ slug: string }>>('SELECT slug FROM workspaces WHERE id = $1', [
      workspaceId,
    ]);
    return w.slug;
  }
}
