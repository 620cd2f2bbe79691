import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ApiKeysService } from '../common/api-keys/api-keys.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { detectChanges, ScanFacts } from './derive/changes';
import { DerivedScan, deriveScan, Grade, projectDomains } from './derive/metrics';
import { ImportFile, parseImportFile } from './import/import-schema';

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

const chunks = <T>(rows: T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
};

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
  ) {}

  /** Validates and imports a parsed JSON document into the workspace `slug`. */
  async importScan(slug: string, raw: unknown): Promise<ImportResult> {
    const started = performance.now();
    const file = parseImportFile(raw);
    const workspace = await this.apiKeys.findWorkspace(slug);
    const derived = deriveScan(file);
    const hash = createHash('sha256').update(JSON.stringify(file)).digest('hex');
    const { imported, latest } = await this.dataSource.transaction((m) => this.write(m, workspace.id, file, derived, hash));
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

    const existing = await m.query<Array<{ id: string; content_hash: string }>>('SELECT id, content_hash FROM vis_scans WHERE workspace_id = $1 AND scan_key = $2', [
      workspaceId,
      file.scan.id,
    ]);
    if (existing.length > 0) {
      if (existing[0].content_hash === hash) {
        const [p] = await m.query<Array<{
          latest_scan_id: string | null;
        }>>('SELECT latest_scan_id FROM vis_projects WHERE workspace_id = $1', [workspaceId]);
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
           ? 'UPDATE SET text = EXCLUDED.text, tags = EXCLUDED.tags, intent = EXCLUDED.intent, country = EXCLUDED.country, enabled = EXCLUDED.enabled'
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
    for (const rows of chunks(d.answers)) {
      await m.query(
        `INSERT INTO vis_answers (scan_id, seq, prompt_key, platform, model, status, text, citations,
                                  brand_mentioned, brand_position, competitor_mentions, cites_owned)
         SELECT $1, s, k, p, mo, st, tx, ARRAY(SELECT jsonb_array_elements_text(c)), bm, bp, cm, co
           FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[],
                       $9::boolean[], $10::int[], $11::jsonb[], $12::boolean[])
             AS u(s, k, p, mo, st, tx, c, bm, bp, cm, co)`,
        [
          scanId,
          rows.map((a) => a.seq),
          rows.map((a) => a.promptId),
          rows.map((a) => a.platform),
          rows.map((a) => a.model),
          rows.map((a) => a.status),
          rows.map((a) => a.text),
          rows.map((a) => JSON.stringify(a.citations)),
          rows.map((a) => a.brandMentioned),
          rows.map((a) => a.brandPosition),
          rows.map((a) => JSON.stringify(a.competitorMentions)),
          rows.map((a) => a.citesOwned),
        ],
      );
    }
    for (const rows of chunks(d.sources)) {
      await m.query(
        `INSERT INTO vis_sources (scan_id, domain, category, citations, answers, prompts, urls, platforms)
         SELECT $1, d, c, ci, a, p, u, ARRAY(SELECT jsonb_array_elements_text(pl))
           FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::int[], $8::jsonb[]) AS x(d, c, ci, a, p, u, pl)`,
        [
          scanId,
          rows.map((r) => r.domain),
          rows.map((r) => r.category),
          rows.map((r) => r.citations),
          rows.map((r) => r.answers),
          rows.map((r) => r.prompts),
          rows.map((r) => r.urls),
          rows.map((r) => JSON.stringify(r.platforms)),
        ],
      );
    }
    for (const rows of chunks(d.urls)) {
      await m.query(
        `INSERT INTO vis_urls (scan_id, url, domain, category, citations, answers, prompts, platforms)
         SELECT $1, u, d, c, ci, a, p, ARRAY(SELECT jsonb_array_elements_text(pl))
           FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::jsonb[]) AS x(u, d, c, ci, a, p, pl)`,
        [
          scanId,
          rows.map((r) => r.url),
          rows.map((r) => r.domain),
          rows.map((r) => r.category),
          rows.map((r) => r.citations),
          rows.map((r) => r.answers),
          rows.map((r) => r.prompts),
          rows.map((r) => JSON.stringify(r.platforms)),
        ],
      );
    }
    for (const rows of chunks(d.gaps)) {
      await m.query(
        `INSERT INTO vis_gaps (scan_id, url, domain, category, answers, competitors, prompts, platforms)
         SELECT $1, u, d, c, a, ARRAY(SELECT jsonb_array_elements_text(co)), ARRAY(SELECT jsonb_array_elements_text(pr)),
                ARRAY(SELECT jsonb_array_elements_text(pl))
           FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[], $8::jsonb[]) AS x(u, d, c, a, co, pr, pl)`,
        [
          scanId,
          rows.map((r) => r.url),
          rows.map((r) => r.domain),
          rows.map((r) => r.category),
          rows.map((r) => r.answers),
          rows.map((r) => JSON.stringify(r.competitors)),
          rows.map((r) => JSON.stringify(r.prompts)),
          rows.map((r) => JSON.stringify(r.platforms)),
        ],
      );
    }
  }

  /** What change detection needs of each given scan. */
  private async facts(m: EntityManager, ids: Array<string | null>): Promise<Map<string, ScanFacts>> {
    const wanted = ids.filter((x): x is string => x !== null);
    const rows = await m.query<Array<{ id: string; scan_key: string; grade: Grade | null; mention_rate: number | null; sources: string[]; gaps: string[] }>>(
      `SELECT s.id, s.scan_key, s.summary->>'grade' AS grade, (s.summary->>'mention_rate')::float8 AS mention_rate,
              ARRAY(SELECT domain FROM vis_sources WHERE scan_id = s.id) AS sources,
              ARRAY(SELECT url FROM vis_gaps WHERE scan_id = s.id) AS gaps
         FROM vis_scans s WHERE s.id = ANY($1::uuid[])`,
      [wanted],
    );
    return new Map(
      rows.map((r) => [
        r.id,
        { scan_id: r.scan_key, grade: r.grade, mention_rate: r.mention_rate, sources: r.sources, gaps: r.gaps },
      ]),
    );
  }

  private async storeChanges(m: EntityManager, scanId: string, changes: unknown): Promise<void> {
    await m.query('UPDATE vis_scans SET changes = $2 WHERE id = $1', [scanId, changes === null ? null : JSON.stringify(changes)]);
  }
}
