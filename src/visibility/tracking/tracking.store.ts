import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { columnParams } from '../../common/database/column-params';
import type { BrandSetup } from '../entities/vis-project.entity';
import { projectSetupOf } from '../store/visibility-write.store';
import type { PromptInput, Schedule, TrackedPrompt, TrackingSetup } from './tracking.types';

/** The row of vis_tracking (the settings without the prompt counts). */
export type TrackingRow = TrackingSetup;

const COLUMNS = [
  'business',
  'brand',
  'competitors',
  'platforms',
  'samples',
  'schedule',
  'budget_calls',
  'budget_usd',
] as const;
const ROW = COLUMNS.join(', ');
/** ROW's values after the workspace id ($2 to $9). */
const rowParams = (workspaceId: string, r: TrackingRow): unknown[] => [
  workspaceId,
  ...columnParams(r, COLUMNS, ['brand', 'competitors']),
];

/** Every statement of the tracking set-up (vis_tracking, vis_tracked_prompts). */
@Injectable()
export class TrackingStore {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (tx: TrackingTx) => Promise<T>): Promise<T> {
    return this.db.transaction((m) => work(new TrackingTx(m)));
  }

  read<T>(work: (tx: TrackingTx) => Promise<T>): Promise<T> {
    return work(new TrackingTx(this.db.manager));
  }

  /** Workspaces whose schedule is not manual (the scheduler's start-up sync). */
  async scheduled(): Promise<Array<{ workspace_id: string; schedule: Schedule }>> {
    return this.db.query(`SELECT workspace_id, schedule FROM vis_tracking WHERE schedule <> 'manual'`);
  }
}

export class TrackingTx {
  constructor(private readonly m: EntityManager) {}

  async get(workspaceId: string, lock = false): Promise<TrackingRow | null> {
    const [r] = await this.m.query<TrackingRow[]>(
      `SELECT ${ROW} FROM vis_tracking WHERE workspace_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [workspaceId],
    );
    return r ?? null;
  }

  /** Creates the row (no-op when it exists). */
  async create(workspaceId: string, r: TrackingRow): Promise<void> {
    await this.m.query(
      `INSERT INTO vis_tracking (workspace_id, ${ROW}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (workspace_id) DO NOTHING`,
      rowParams(workspaceId, r),
    );
  }

  async update(workspaceId: string, r: TrackingRow): Promise<void> {
    await this.m.query(
      `UPDATE vis_tracking SET business = $2, brand = $3, competitors = $4, platforms = $5, samples = $6, schedule = $7,
              budget_calls = $8, budget_usd = $9, updated_at = now() WHERE workspace_id = $1`,
      rowParams(workspaceId, r),
    );
  }

  /** The latest import's set-up (seed of a workspace's first tracking row). */
  importedSetup(workspaceId: string): Promise<BrandSetup | null> {
    return projectSetupOf(this.m, workspaceId);
  }

  /** Copies the imported prompts (vis_prompts) into the tracked ones, keeping their ids. */
  async copyImportedPrompts(workspaceId: string): Promise<void> {
    await this.m.query(
      `INSERT INTO vis_tracked_prompts (workspace_id, prompt_key, position, text, tags, intent, country, enabled)
       SELECT workspace_id, prompt_key, row_number() OVER (ORDER BY prompt_key), text, tags, intent, country, enabled
         FROM vis_prompts WHERE workspace_id = $1 ON CONFLICT DO NOTHING`,
      [workspaceId],
    );
  }

  async counts(workspaceId: string): Promise<{ total: number; enabled: number }> {
    const [r] = await this.m.query<Array<{ total: number; enabled: number }>>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE enabled)::int AS enabled FROM vis_tracked_prompts WHERE workspace_id = $1`,
      [workspaceId],
    );
    return r;
  }

  async prompts(workspaceId: string, o: { offset?: number; limit?: number } = {}): Promise<TrackedPrompt[]> {
    return this.m.query<TrackedPrompt[]>(
      `SELECT prompt_key AS id, text, tags, intent, country, enabled FROM vis_tracked_prompts WHERE workspace_id = $1
        ORDER BY position, prompt_key OFFSET $2 LIMIT $3`,
      [workspaceId, o.offset ?? 0, o.limit ?? null],
    );
  }

  async prompt(workspaceId: string, id: string): Promise<TrackedPrompt | null> {
    const [p] = await this.m.query<TrackedPrompt[]>(
      'SELECT prompt_key AS id, text, tags, intent, country, enabled FROM vis_tracked_prompts WHERE workspace_id = $1 AND prompt_key = $2',
      [workspaceId, id],
    );
    return p ?? null;
  }

  /** Texts already tracked (for duplicates), lower-cased with spaces collapsed. */
  async promptTexts(workspaceId: string): Promise<string[]> {
    const rows = await this.m.query<Array<{ t: string }>>(
      `SELECT lower(regexp_replace(text, '\\s+', ' ', 'g')) AS t FROM vis_tracked_prompts WHERE workspace_id = $1`,
      [workspaceId],
    );
    return rows.map((r) => r.t);
  }

  /** Adds prompts after the existing ones with new ids p<n>, in one statement. */
  async addPrompts(workspaceId: string, prompts: PromptInput[]): Promise<string[]> {
    if (!prompts.length) return [];
    // TypeORM answers an UPDATE with [rows, count].
    const [[{ first }]] = await this.m.query<[Array<{ first: number }>, number]>(
      // Past every id in use (imported prompts keep theirs, e.g. p1..p3); never reused after a delete.
      `UPDATE vis_tracking SET updated_at = now(), next_prompt = $2 + greatest(next_prompt,
              (SELECT coalesce(max(substring(prompt_key from 2)::int), 0) + 1 FROM vis_tracked_prompts
                WHERE workspace_id = $1 AND prompt_key ~ '^p[0-9]{1,9}$'))
        WHERE workspace_id = $1 RETURNING next_prompt - $2 AS first`,
      [workspaceId, prompts.length],
    );
    const [{ pos }] = await this.m.query<Array<{ pos: number }>>(
      'SELECT coalesce(max(position), 0)::int AS pos FROM vis_tracked_prompts WHERE workspace_id = $1',
      [workspaceId],
    );
    const ids = prompts.map((_, i) => `p${first + i}`);
    await this.m.query(
      `INSERT INTO vis_tracked_prompts (workspace_id, prompt_key, position, text, tags, intent, country, enabled)
       SELECT $1, k, $2 + o, t, ARRAY(SELECT jsonb_array_elements_text(g)), i, c, e
         FROM unnest($3::text[], $4::text[], $5::jsonb[], $6::text[], $7::text[], $8::boolean[]) WITH ORDINALITY AS u(k, t, g, i, c, e, o)`,
      [
        workspaceId,
        pos,
        ids,
        prompts.map((p) => p.text),
        prompts.map((p) => JSON.stringify(p.tags)),
        prompts.map((p) => p.intent),
        prompts.map((p) => p.country),
        prompts.map((p) => p.enabled),
      ],
    );
    return ids;
  }

  /**
   * The API's prompt list (vis_prompts) mirrors the tracked prompts at once, when the workspace has
   * reports: texts, tags, intent, country and enabled are upserted (figures stay those of the latest
   * scan), deleted prompts leave it, and the data version moves (every ETag changes; other
   * processes see it within ProjectStateCache's TTL).
   */
  async mirrorPrompts(workspaceId: string): Promise<void> {
    const [, projects] = await this.m.query<[unknown[], number]>(
      'UPDATE vis_projects SET version = version + 1, updated_at = now() WHERE workspace_id = $1',
      [workspaceId],
    );
    if (!projects) return;
    await this.m.query(
      `INSERT INTO vis_prompts (workspace_id, prompt_key, text, tags, intent, country, enabled)
       SELECT workspace_id, prompt_key, text, tags, intent, country, enabled FROM vis_tracked_prompts WHERE workspace_id = $1
       ON CONFLICT (workspace_id, prompt_key) DO UPDATE SET text = EXCLUDED.text, tags = EXCLUDED.tags, intent = EXCLUDED.intent,
         country = EXCLUDED.country, enabled = EXCLUDED.enabled`,
      [workspaceId],
    );
    await this.m.query(
      `DELETE FROM vis_prompts p WHERE p.workspace_id = $1
          AND NOT EXISTS (SELECT 1 FROM vis_tracked_prompts t WHERE t.workspace_id = $1 AND t.prompt_key = p.prompt_key)`,
      [workspaceId],
    );
  }

  async updatePrompt(workspaceId: string, id: string, p: PromptInput): Promise<boolean> {
    const [, count] = await this.m.query<[unknown[], number]>(
      `UPDATE vis_tracked_prompts SET text = $3, tags = $4, intent = $5, country = $6, enabled = $7
        WHERE workspace_id = $1 AND prompt_key = $2`,
      [workspaceId, id, p.text, p.tags, p.intent, p.country, p.enabled],
    );
    return count > 0;
  }

  async deletePrompt(workspaceId: string, id: string): Promise<boolean> {
    const [, count] = await this.m.query<[unknown[], number]>(
      'DELETE FROM vis_tracked_prompts WHERE workspace_id = $1 AND prompt_key = $2',
      [workspaceId, id],
    );
    return count > 0;
  }
}
