import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ApiKeysService } from '../common/api-keys/api-keys.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { detectChanges, ScanFacts } from './derive/changes';
import { DerivedScan, deriveScan, Grade, projectDomains } from './derive/metrics';
import { ImportFile, parseImportFile } from './import/import-schema';
import { VisibilityQueryService } from './visibility-query.service';

export interface ImportResult {
  workspace: string;
  scan_id: string;
  date: string;
  /** false: this scan id was already imported with identical content (nothing changed). */
  imported: boolean;
  /** true when this scan is now the workspace's latest (by date). */
  latest: boolean;
  answers: { total: number; successful: number; failed: number };
  mention_rate: number | null;
  grade: Grade | null;
  grade_reason: string | null;
  sources: number;
  urls: number;
  gaps: number;
  duration_ms: number;
}

/** Rows per INSERT statement (bounded parameter size). */
const CHUNK = 1000;

type ColumnType = 'int' | 'text' | 'boolean' | 'jsonb' | 'text[]';
type Columns<T> = Record<string, [ColumnType, (row: T) => unknown]>;

/**
 * INSERT of many rows of one scan in statements of CHUNK rows: one array parameter per column,
 * expanded by unnest(). Array columns travel as jsonb (unnest would flatten a 2-D array).
 */
async function bulkInsert<T>(m: EntityManager, table: string, scanId: string, rows: T[], columns: Columns<T>): Promise<void> {
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

/**
 * Imports one scan: validates the file, derives every figure (pure functions in derive/), and
 * writes the scan, its answers, sources, URLs and gaps, the prompts and the project set-up in one
 * transaction with bulk inserts. The project row is locked for the whole import, so concurrent
 * imports into one workspace run one after the other.
 */
@Injectable()
export class VisibilityIngestService {
  private readonly logger = new Logger('VisibilityIngest');

  constructor(
    private readonly dataSource: DataSource,
    private readonly apiKeys: ApiKeysService,
    private readonly reads: VisibilityQueryService,
  ) {}

  /** Validates and imports a parsed JSON document into the workspace `slug`. */
  async importScan(slug: string, raw: unknown): Promise<ImportResult> {
    const started = performance.now();
    const file = parseImportFile(raw);
    const workspace = await this.apiKeys.findWorkspace(slug);
    const derived = deriveScan(file);
    const hash = createHash('sha256').update(JSON.stringify(file)).digest('hex');
    const { imported, latest } = await this.dataSource.transaction((m) => this.write(m, workspace.id, file, derived, hash));
    this.reads.forget(workspace.id);
    const s = derived.summary;
    const result: ImportResult = {
      workspace: slug,
      scan_id: file.scan.id,
      date: file.scan.date,
      imported,
      latest,
      answers: s.answers,
      mention_rate: s.mention_rate,
      grade: s.grade,
      grade_reason: s.grade_reason,
      sources: s.counts.sources,
      urls: s.counts.urls,
      gaps: s.counts.gaps,
      duration_ms: Math.round(performance.now() - started),
    };
    if (imported) this.logger.log(`Imported scan ${file.scan.id} into ${slug}: ${s.answers.total} answers`);
    return result;
  }

  private async write(
    m: EntityManager,
    workspaceId: string,
    file: ImportFile,
    derived: DerivedScan,
    hash: string,
  ): Promise<{ imported: boolean; latest: boolean }> {
    const domains = projectDomains(file);
    const brand = { name: file.brand.name, aliases: file.brand.aliases, domains: domains.owned };
    const competitors = file.competitors.map((c, i) => ({ name: c.name, aliases: c.aliases, domains: domains.competitors[i].domains }));
    await m.query(
      `INSERT INTO vis_projects (workspace_id, business, brand, competitors) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id) DO NOTHING`,
      [workspaceId, file.business, JSON.stringify(brand), JSON.stringify(competitors)],
    );
    await m.query('SELECT 1 FROM vis_projects WHERE workspace_id = $1 FOR UPDATE', [workspaceId]);

    const existing = await m.query<Array<{ id: string; content_hash: string }>>(
      'SELECT id, content_hash FROM vis_scans WHERE workspace_id = $1 AND scan_key = $2',
      [workspaceId, file.scan.id],
    );
    if (existing.length > 0) {
      if (existing[0].content_hash === hash) {
        const [p] = await m.query<Array<{ latest_scan_id: string | null }>>(
          'SELECT latest_scan_id FROM vis_projects WHERE workspace_id = $1',
          [workspaceId],
        );
        return { imported: false, latest: p.latest_scan_id === existing[0].id };
      }
      throw new DomainError(
        ErrorCode.Conflict,
        `Scan "${file.scan.id}" was already imported with different content; import it under a new scan id.`,
        { field: 'scan.id' },
      );
    }

    const [{ id: scanId }] = await m.query<Array<{ id: string }>>(
      `INSERT INTO vis_scans (workspace_id, scan_key, date, platforms, content_hash, summary)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [workspaceId, file.scan.id, file.scan.date, file.scan.platforms, hash, JSON.stringify(derived.summary)],
    );
    await this.insertRows(m, scanId, derived);

    // Position of the new scan in the workspace's history (date, then scan id).
    const order = await m.query<Array<{ id: string }>>(
      `SELECT id FROM vis_scans WHERE workspace_id = $1 ORDER BY date, scan_key`,
      [workspaceId],
    );
    const at = order.findIndex((r) => r.id === scanId);
    const previous = at > 0 ? order[at - 1].id : null;
    const next = at < order.length - 1 ? order[at + 1].id : null;
    const latest = next === null;
    const facts = await this.facts(m, [scanId, previous, next]);
    await this.storeChanges(m, scanId, detectChanges(previous ? facts.get(previous)! : null, facts.get(scanId)!));
    if (next) await this.storeChanges(m, next, detectChanges(facts.get(scanId)!, facts.get(next)!));

    // Prompts: the latest scan's set-up wins; an older scan only adds prompts not yet known.
    const p = file.prompts;
    await m.query(
      `INSERT INTO vis_prompts (workspace_id, prompt_key, text, tags, intent, country, enabled)
       SELECT $1, k, t, ARRAY(SELECT jsonb_array_elements_text(g)), i, c, e
         FROM unnest($2::text[], $3::text[], $4::jsonb[], $5::text[], $6::text[], $7::boolean[]) AS u(k, t, g, i, c, e)
       ON CONFLICT (workspace_id, prompt_key) DO ${
         latest
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
    if (latest) {
      const f = derived.prompts;
      await m.query('UPDATE vis_prompts SET latest_answers = NULL, latest_mentions = NULL WHERE workspace_id = $1', [workspaceId]);
      await m.query(
        `UPDATE vis_prompts AS p SET latest_answers = u.a, latest_mentions = u.m
           FROM unnest($2::text[], $3::int[], $4::int[]) AS u(k, a, m)
          WHERE p.workspace_id = $1 AND p.prompt_key = u.k`,
        [workspaceId, f.map((x) => x.promptId), f.map((x) => x.answers), f.map((x) => x.mentions)],
      );
      await m.query(
        `UPDATE vis_projects SET business = $2, brand = $3, competitors = $4 WHERE workspace_id = $1`,
        [workspaceId, file.business, JSON.stringify(brand), JSON.stringify(competitors)],
      );
    }
    await m.query(
      `UPDATE vis_projects SET latest_scan_id = $2, scans_total = $3, version = version + 1, updated_at = now()
        WHERE workspace_id = $1`,
      [workspaceId, order[order.length - 1].id, order.length],
    );
    return { imported: true, latest };
  }

  private async insertRows(m: EntityManager, scanId: string, d: DerivedScan): Promise<void> {
    await bulkInsert(m, 'vis_answers', scanId, d.answers, {
      seq: ['int', (a) => a.seq],
      prompt_key: ['text', (a) => a.promptId],
      platform: ['text', (a) => a.platform],
      model: ['text', (a) => a.model],
      status: ['text', (a) => a.status],
      text: ['text', (a) => a.text],
      citations: ['text[]', (a) => a.citations],
      brand_mentioned: ['boolean', (a) => a.brandMentioned],
      brand_position: ['int', (a) => a.brandPosition],
      brand_status: ['text', (a) => a.brandStatus],
      mentions: ['jsonb', (a) => a.mentions],
      competitor_mentions: ['jsonb', (a) => a.competitorMentions],
      cites_owned: ['boolean', (a) => a.citesOwned],
    });
    await bulkInsert(m, 'vis_sources', scanId, d.sources, {
      domain: ['text', (r) => r.domain],
      category: ['text', (r) => r.category],
      citations: ['int', (r) => r.citations],
      answers: ['int', (r) => r.answers],
      prompts: ['int', (r) => r.prompts],
      urls: ['int', (r) => r.urls],
      platforms: ['text[]', (r) => r.platforms],
    });
    await bulkInsert(m, 'vis_urls', scanId, d.urls, {
      url: ['text', (r) => r.url],
      domain: ['text', (r) => r.domain],
      category: ['text', (r) => r.category],
      citations: ['int', (r) => r.citations],
      answers: ['int', (r) => r.answers],
      prompts: ['int', (r) => r.prompts],
      platforms: ['text[]', (r) => r.platforms],
    });
    await bulkInsert(m, 'vis_gaps', scanId, d.gaps, {
      url: ['text', (r) => r.url],
      domain: ['text', (r) => r.domain],
      category: ['text', (r) => r.category],
      answers: ['int', (r) => r.answers],
      competitors: ['text[]', (r) => r.competitors],
      prompts: ['text[]', (r) => r.prompts],
      platforms: ['text[]', (r) => r.platforms],
    });
  }

  /** What change detection needs of each given scan. */
  private async facts(m: EntityManager, ids: Array<string | null>): Promise<Map<string, ScanFacts>> {
    const wanted = ids.filter((x): x is string => x !== null);
    type Row = { id: string; scan_key: string; grade: Grade | null; mention_rate: number | null; mentions: number; answers: number; sources: string[]; gaps: string[] };
    const rows = await m.query<Row[]>(
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
        { scan_id: r.scan_key, grade: r.grade, mention_rate: r.mention_rate, mentions: r.mentions, answers: r.answers, sources: r.sources, gaps: r.gaps },
      ]),
    );
  }

  private async storeChanges(m: EntityManager, scanId: string, changes: unknown): Promise<void> {
    await m.query('UPDATE vis_scans SET changes = $2 WHERE id = $1', [scanId, changes === null ? null : JSON.stringify(changes)]);
  }
}
