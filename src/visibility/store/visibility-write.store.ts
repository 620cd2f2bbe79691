import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { ScanChanges, ScanFacts } from '../derive/changes';
import type { DerivedScan, PromptFigures, ScanSummary } from '../derive/metrics';
import type { ImportFile } from '../import/import-schema';
import type { BrandSetup, StoredBrand } from '../entities/vis-project.entity';
import { ANSWER_COLUMNS, Columns, GAP_COLUMNS, SOURCE_COLUMNS, URL_COLUMNS } from './columns';

/** Rows per INSERT statement (bounded parameter size). */
const CHUNK = 1000;

/**
 * INSERT of many rows of one scan in statements of CHUNK rows: one array parameter per column,
 * expanded by unnest(). Array columns travel as jsonb (unnest would flatten a 2-D array).
 */
async function bulkInsert<T>(
  m: EntityManager,
  table: string,
  scanId: string,
  rows: T[],
  columns: Columns<T>,
): Promise<void> {
  const names = Object.keys(columns);
  const params = names.map((_, i) => {
    const type = columns[names[i]][0];
    return `$${i + 2}::${type === 'text[]' ? 'jsonb' : type}[]`;
  });
  const values = names.map((n, i) =>
    columns[n][0] === 'text[]' ? `ARRAY(SELECT jsonb_array_elements_text(c${i}))` : `c${i}`,
  );
  const sql = `INSERT INTO ${table} (scan_id, ${names.join(', ')})
    SELECT $1, ${values.join(', ')} FROM unnest(${params.join(', ')}) AS u(${names.map((_, i) => `c${i}`).join(', ')})`;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const arrays = names.map((n) => {
      const [type, get] = columns[n];
      return chunk.map((r) => (type === 'jsonb' || type === 'text[]' ? JSON.stringify(get(r)) : get(r)));
    });
    await m.query(sql, [scanId, ...arrays]);
  }
}

/** A stored answer as the re-derivation reads it back. */
export interface StoredAnswerRow {
  seq: number;
  prompt_key: string;
  platform: string;
  model: string | null;
  status: string;
  text: string;
  citations: string[];
  cites_owned: boolean;
}

/**
 * Every write of the visibility module (import, re-derivation), one method per statement, all
 * inside a transaction given by the caller (`transaction`).
 */
/** A workspace's latest imported set-up (vis_projects), or null before its first import; the tracking store seeds from it too. */
export async function projectSetupOf(m: EntityManager, workspaceId: string): Promise<BrandSetup | null> {
  const [p] = await m.query<BrandSetup[]>(
    'SELECT business, brand, competitors FROM vis_projects WHERE workspace_id = $1',
    [workspaceId],
  );
  return p ?? null;
}

@Injectable()
export class VisibilityWriteStore {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (tx: VisibilityWriteTx) => Promise<T>): Promise<T> {
    return this.db.transaction((m) => work(new VisibilityWriteTx(m)));
  }
}

/** The statements of one transaction. */
export class VisibilityWriteTx {
  constructor(private readonly m: EntityManager) {}

  /** Creates the project row if missing, then locks it: writers into one workspace run one after the other. */
  async lockProject(
    workspaceId: string,
    business: string,
    brand: StoredBrand,
    competitors: StoredBrand[],
  ): Promise<void> {
    await this.m.query(
      `INSERT INTO vis_projects (workspace_id, business, brand, competitors) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id) DO NOTHING`,
      [workspaceId, business, JSON.stringify(brand), JSON.stringify(competitors)],
    );
    await this.m.query('SELECT 1 FROM vis_projects WHERE workspace_id = $1 FOR UPDATE', [workspaceId]);
  }

  async findScan(workspaceId: string, scanKey: string): Promise<{ id: string; content_hash: string } | null> {
    const rows = await this.m.query<Array<{ id: string; content_hash: string }>>(
      'SELECT id, content_hash FROM vis_scans WHERE workspace_id = $1 AND scan_key = $2',
      [workspaceId, scanKey],
    );
    return rows[0] ?? null;
  }

  async latestScanId(workspaceId: string): Promise<string | null> {
    const [p] = await this.m.query<Array<{ latest_scan_id: string | null }>>(
      'SELECT latest_scan_id FROM vis_projects WHERE workspace_id = $1',
      [workspaceId],
    );
    return p?.latest_scan_id ?? null;
  }

  async insertScan(workspaceId: string, file: ImportFile, hash: string, summary: ScanSummary): Promise<string> {
    const [{ id }] = await this.m.query<Array<{ id: string }>>(
      `INSERT INTO vis_scans (workspace_id, scan_key, date, platforms, content_hash, summary)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [workspaceId, file.scan.id, file.scan.date, file.scan.platforms, hash, JSON.stringify(summary)],
    );
    return id;
  }

  async insertRows(scanId: string, d: Pick<DerivedScan, 'answers' | 'sources' | 'urls' | 'gaps'>): Promise<void> {
    await bulkInsert(this.m, 'vis_answers', scanId, d.answers, ANSWER_COLUMNS);
    await bulkInsert(this.m, 'vis_sources', scanId, d.sources, SOURCE_COLUMNS);
    await bulkInsert(this.m, 'vis_urls', scanId, d.urls, URL_COLUMNS);
    await bulkInsert(this.m, 'vis_gaps', scanId, d.gaps, GAP_COLUMNS);
  }

  /** Replaces a scan's answers and gaps (re-derivation; sources and URLs do not depend on mentions). */
  async replaceAnswersAndGaps(
    scanId: string,
    d: Pick<DerivedScan, 'answers' | 'gaps'>,
    summary: ScanSummary,
  ): Promise<void> {
    await this.m.query('DELETE FROM vis_answers WHERE scan_id = $1', [scanId]);
    await this.m.query('DELETE FROM vis_gaps WHERE scan_id = $1', [scanId]);
    await bulkInsert(this.m, 'vis_answers', scanId, d.answers, ANSWER_COLUMNS);
    await bulkInsert(this.m, 'vis_gaps', scanId, d.gaps, GAP_COLUMNS);
    await this.m.query('UPDATE vis_scans SET summary = $2 WHERE id = $1', [scanId, JSON.stringify(summary)]);
  }

  /** The workspace's scans in history order (date, then scan id). */
  async scanOrder(workspaceId: string): Promise<Array<{ id: string; scan_key: string; date: string }>> {
    return this.m.query(
      `SELECT id, scan_key, to_char(date, 'YYYY-MM-DD') AS date FROM vis_scans WHERE workspace_id = $1 ORDER BY date, scan_key`,
      [workspaceId],
    );
  }

  /** What change detection needs of each given scan. */
  async facts(ids: Array<string | null>): Promise<Map<string, ScanFacts>> {
    const wanted = ids.filter((x): x is string => x !== null);
    type Row = Omit<ScanFacts, 'scan_id'> & { id: string; scan_key: string };
    const rows = await this.m.query<Row[]>(
      `SELECT s.id, s.scan_key, s.summary->>'grade' AS grade, (s.summary->>'mention_rate')::float8 AS mention_rate,
              (s.summary->>'mentions')::int AS mentions, (s.summary->'answers'->>'successful')::int AS answers,
              ARRAY(SELECT domain FROM vis_sources WHERE scan_id = s.id) AS sources,
              ARRAY(SELECT url FROM vis_gaps WHERE scan_id = s.id) AS gaps
         FROM vis_scans s WHERE s.id = ANY($1::uuid[])`,
      [wanted],
    );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          scan_id: r.scan_key,
          grade: r.grade,
          mention_rate: r.mention_rate,
          mentions: r.mentions,
          answers: r.answers,
          sources: r.sources,
          gaps: r.gaps,
        },
      ]),
    );
  }

  async storeChanges(scanId: string, changes: ScanChanges | null): Promise<void> {
    await this.m.query('UPDATE vis_scans SET changes = $2 WHERE id = $1', [
      scanId,
      changes === null ? null : JSON.stringify(changes),
    ]);
  }

  /** Prompts: the latest scan's set-up wins (`overwrite`); an older scan only adds prompts not yet known. */
  async upsertPrompts(workspaceId: string, prompts: ImportFile['prompts'], overwrite: boolean): Promise<void> {
    const p = prompts;
    await this.m.query(
      `INSERT INTO vis_prompts (workspace_id, prompt_key, text, tags, intent, country, enabled)
       SELECT $1, k, t, ARRAY(SELECT jsonb_array_elements_text(g)), i, c, e
         FROM unnest($2::text[], $3::text[], $4::jsonb[], $5::text[], $6::text[], $7::boolean[]) AS u(k, t, g, i, c, e)
       ON CONFLICT (workspace_id, prompt_key) DO ${
         overwrite
           ? `UPDATE SET text = EXCLUDED.text, tags = EXCLUDED.tags, intent = EXCLUDED.intent,
                         country = EXCLUDED.country, enabled = EXCLUDED.enabled`
           : 'NOTHING'
       }`,
      [
        workspaceId,
        p.map((x) => x.id),
        p.map((x) => x.text),
        p.map((x) => JSON.stringify(x.tags)),
        p.map((x) => x.intent),
        p.map((x) => x.country),
        p.map((x) => x.enabled),
      ],
    );
  }

  /** The latest scan's figures per prompt (prompts it did not ask get null). */
  async setPromptFigures(workspaceId: string, f: PromptFigures[]): Promise<void> {
    await this.m.query('UPDATE vis_prompts SET latest_answers = NULL, latest_mentions = NULL WHERE workspace_id = $1', [
      workspaceId,
    ]);
    await this.m.query(
      `UPDATE vis_prompts AS p SET latest_answers = u.a, latest_mentions = u.m
         FROM unnest($2::text[], $3::int[], $4::int[]) AS u(k, a, m)
        WHERE p.workspace_id = $1 AND p.prompt_key = u.k`,
      [workspaceId, f.map((x) => x.promptId), f.map((x) => x.answers), f.map((x) => x.mentions)],
    );
  }

  async updateProjectSetup(
    workspaceId: string,
    business: string,
    brand: StoredBrand,
    competitors: StoredBrand[],
  ): Promise<void> {
    await this.m.query(`UPDATE vis_projects SET business = $2, brand = $3, competitors = $4 WHERE workspace_id = $1`, [
      workspaceId,
      business,
      JSON.stringify(brand),
      JSON.stringify(competitors),
    ]);
  }

  /** New latest scan and count, and a new data version (every ETag of the workspace changes). */
  async updateProjectPointers(workspaceId: string, latestScanId: string, scansTotal: number): Promise<void> {
    await this.m.query(
      `UPDATE vis_projects SET latest_scan_id = $2, scans_total = $3, version = version + 1, updated_at = now()
        WHERE workspace_id = $1`,
      [workspaceId, latestScanId, scansTotal],
    );
  }

  /** The project's current set-up (re-derivation classifies with it). */
  projectSetup(workspaceId: string): Promise<BrandSetup | null> {
    return projectSetupOf(this.m, workspaceId);
  }

  /** A stored scan's answers, URLs (with their categories) and platforms, for re-derivation. */
  async scanForRederive(scanId: string): Promise<{
    platforms: string[];
    summary: ScanSummary;
    answers: StoredAnswerRow[];
    urls: Array<{ url: string; domain: string; category: string }>;
  }> {
    const [scan] = await this.m.query<Array<{ platforms: string[]; summary: ScanSummary }>>(
      'SELECT platforms, summary FROM vis_scans WHERE id = $1',
      [scanId],
    );
    const answers = await this.m.query<StoredAnswerRow[]>(
      'SELECT seq, prompt_key, platform, model, status, text, citations, cites_owned FROM vis_answers WHERE scan_id = $1 ORDER BY seq',
      [scanId],
    );
    const urls = await this.m.query<Array<{ url: string; domain: string; category: string }>>(
      'SELECT url, domain, category FROM vis_urls WHERE scan_id = $1',
      [scanId],
    );
    return { ...scan, answers, urls };
  }
}
