import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { columnParams } from '../../common/database/column-params';
import type {
  Site,
  SiteChecksInput,
  SiteInput,
  SiteLogin,
  SiteScan,
  SiteScanPageRow,
  SiteScanPlan,
  SiteScanStatus,
  SiteScanSummary,
  SitePageResult,
} from './site.types';

const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));
const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));

const site = (r: Site): Site => ({ ...r, created_at: iso(r.created_at), verified_at: isoOrNull(r.verified_at) });
const scan = (r: SiteScan): SiteScan => ({
  ...r,
  created_at: iso(r.created_at),
  finished_at: isoOrNull(r.finished_at),
  updated_at: iso(r.updated_at),
});

/**
 * A queued or running scan without progress for this long is taken as lost (its process ended) and
 * marked failed when the site's active scan is looked up, so "Run now" and the schedule work again.
 * Longer than a page scan can take (SCAN_TOTAL_TIMEOUT_MS and the queue wait) by far.
 */
export const SITE_SCAN_STALE_MS = 30 * 60_000;

/** A site's settings in the column order of INSERT and UPDATE ($2 to $14). */
const INPUT_COLUMNS = [
  'name',
  'start_url',
  'sitemap_url',
  'urls',
  'include_patterns',
  'exclude_patterns',
  'page_budget',
  'respect_robots',
  'ignore_rules',
  'excluded_selectors',
  'schedule',
  'alert_drop',
  'page_source',
] as const satisfies ReadonlyArray<keyof SiteInput>;
/** The jsonb ones. */
const JSONB_INPUTS = ['urls', 'include_patterns', 'exclude_patterns', 'ignore_rules', 'excluded_selectors'] as const;
const inputParams = (s: SiteInput): unknown[] => columnParams(s, INPUT_COLUMNS, JSONB_INPUTS);

/** Scans listed on a site's page (the trend). */
export const SITE_SCANS_SHOWN = 30;

/** Arbitrary, fixed: the first key of the advisory locks that hold a site scan for its process (holdScan). */
export const SITE_SCAN_LOCK = 724_311_003;

/** All SQL of accessibility monitoring (tables of migration A11ySites1795740000000). */
@Injectable()
export class SitesStore {
  constructor(private readonly db: DataSource) {}

  async create(workspaceId: string, s: SiteInput, token: string): Promise<Site> {
    const rows = await this.db.query<Site[]>(
      `INSERT INTO a11y_sites (workspace_id, name, start_url, sitemap_url, urls, include_patterns, exclude_patterns, page_budget, respect_robots, ignore_rules, excluded_selectors, schedule, alert_drop, page_source, verification_token)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8, $9, $10::jsonb, $11::jsonb, $12, $13, $14, $15) RETURNING *`,
      [workspaceId, ...inputParams(s), token],
    );
    return site(rows[0]);
  }

  /** New settings; `keepProof` false clears the ownership proof (the origin changed). */
  async update(id: string, s: SiteInput, keepProof: boolean): Promise<Site | undefined> {
    const rows = await this.db.query<Site[]>(
      `WITH u AS (UPDATE a11y_sites SET name = $2, start_url = $3, sitemap_url = $4, urls = $5::jsonb, include_patterns = $6::jsonb, exclude_patterns = $7::jsonb, page_budget = $8, respect_robots = $9,
         ignore_rules = $10::jsonb, excluded_selectors = $11::jsonb, schedule = $12, alert_drop = $13, page_source = $14,
         verified_at = CASE WHEN $15::boolean THEN verified_at END, verified_by = CASE WHEN $15::boolean THEN verified_by END
       WHERE id = $1 RETURNING *) SELECT * FROM u`,
      [id, ...inputParams(s), keepProof],
    );
    return rows[0] ? site(rows[0]) : undefined;
  }

  async list(workspaceId: string): Promise<Site[]> {
    const rows = await this.db.query<Site[]>(
      `SELECT * FROM a11y_sites WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    );
    return rows.map(site);
  }

  /** The site, in this workspace only (`workspaceId` undefined: any, for jobs). */
  async get(id: string, workspaceId?: string): Promise<Site | undefined> {
    const rows = await this.db.query<Site[]>(
      `SELECT * FROM a11y_sites WHERE id = $1 AND ($2::uuid IS NULL OR workspace_id = $2::uuid)`,
      [id, workspaceId ?? null],
    );
    return rows[0] ? site(rows[0]) : undefined;
  }

  async delete(id: string, workspaceId: string): Promise<boolean> {
    // Through a CTE: TypeORM answers a bare DELETE or UPDATE with [rows, count], not the rows.
    const rows = await this.db.query<{ id: string }[]>(
      `WITH d AS (DELETE FROM a11y_sites WHERE id = $1 AND workspace_id = $2 RETURNING id) SELECT id FROM d`,
      [id, workspaceId],
    );
    return rows.length > 0;
  }

  async markVerified(id: string, by: 'file' | 'dns'): Promise<void> {
    await this.db.query(`UPDATE a11y_sites SET verified_at = now(), verified_by = $2 WHERE id = $1`, [id, by]);
  }

  /** A new queued scan; undefined when the site already has one queued or running (a unique index decides, across processes). */
  async createScan(siteId: string, trigger: SiteScan['trigger']): Promise<SiteScan | undefined> {
    const rows = await this.db.query<SiteScan[]>(
      `INSERT INTO a11y_site_scans (site_id, trigger) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING *`,
      [siteId, trigger],
    );
    return rows[0] ? scan(rows[0]) : undefined;
  }

  async getScan(id: string): Promise<SiteScan | undefined> {
    const rows = await this.db.query<SiteScan[]>(`SELECT * FROM a11y_site_scans WHERE id = $1`, [id]);
    return rows[0] ? scan(rows[0]) : undefined;
  }

  /** The site's scan that is queued or running, if any. */
  async activeScan(siteId: string): Promise<SiteScan | undefined> {
    await this.db.query(
      `UPDATE a11y_site_scans SET status = 'failed', error = $3, finished_at = now() WHERE site_id = $1 AND status IN ('queued', 'running') AND updated_at < now() - ($2::int * interval '1 millisecond')`,
      [siteId, SITE_SCAN_STALE_MS, 'The scan stopped making progress (its process ended): run it again.'],
    );
    const rows = await this.db.query<SiteScan[]>(
      `SELECT * FROM a11y_site_scans WHERE site_id = $1 AND status IN ('queued', 'running') ORDER BY created_at DESC LIMIT 1`,
      [siteId],
    );
    return rows[0] ? scan(rows[0]) : undefined;
  }

  /** Every site with a daily or weekly schedule (armed again at start-up when jobs run in process). */
  async scheduledSites(): Promise<Pick<Site, 'id' | 'schedule'>[]> {
    return this.db.query<Pick<Site, 'id' | 'schedule'>[]>(
      `SELECT id, schedule FROM a11y_sites WHERE schedule <> 'off' ORDER BY created_at, id`,
    );
  }

  /** Every scan left queued or running, oldest first (resumed at start-up when jobs run in process). */
  async unfinishedScans(): Promise<Pick<SiteScan, 'id' | 'site_id'>[]> {
    return this.db.query<Pick<SiteScan, 'id' | 'site_id'>[]>(
      `SELECT id, site_id FROM a11y_site_scans WHERE status IN ('queued', 'running') ORDER BY created_at, id`,
    );
  }

  /**
   * Holds the scan for this process while it runs: a PostgreSQL session advisory lock on a connection of
   * its own, which ends with the process however it ends (its connection closes), so another process may
   * then take the scan. Answers the release, or undefined when another process holds the scan.
   */
  async holdScan(id: string): Promise<(() => Promise<void>) | undefined> {
    const runner = this.db.createQueryRunner();
    await runner.connect();
    let held = false;
    try {
      const rows = (await runner.query(`SELECT pg_try_advisory_lock($1::int, hashtext($2::text)) AS held`, [
        SITE_SCAN_LOCK,
        id,
      ])) as { held: boolean }[];
      held = rows[0]?.held === true;
    } finally {
      if (!held) await runner.release();
    }
    if (!held) return undefined;
    return async () => {
      await runner
        .query(`SELECT pg_advisory_unlock($1::int, hashtext($2::text))`, [SITE_SCAN_LOCK, id])
        .catch(() => undefined);
      await runner.release();
    };
  }

  /** Newest first. */
  async scans(siteId: string, limit = SITE_SCANS_SHOWN): Promise<SiteScan[]> {
    const rows = await this.db.query<SiteScan[]>(
      `SELECT * FROM a11y_site_scans WHERE site_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
      [siteId, limit],
    );
    return rows.map(scan);
  }

  /** How many scans the site has, whatever their status (the removal's confirmation says it). */
  async scanCount(siteId: string): Promise<number> {
    const rows = await this.db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM a11y_site_scans WHERE site_id = $1`,
      [siteId],
    );
    return rows[0].n;
  }

  /** The newest finished scan before `scanId`. */
  async previousDone(siteId: string, scanId: string): Promise<SiteScan | undefined> {
    const rows = await this.db.query<SiteScan[]>(
      `SELECT * FROM a11y_site_scans WHERE site_id = $1 AND id <> $2 AND status = 'done' ORDER BY finished_at DESC LIMIT 1`,
      [siteId, scanId],
    );
    return rows[0] ? scan(rows[0]) : undefined;
  }

  /** The newest scan of the site that finished before `finishedAt` (what a scan's per-page diff compared with). */
  async doneBefore(siteId: string, finishedAt: string): Promise<SiteScan | undefined> {
    const rows = await this.db.query<SiteScan[]>(
      `SELECT * FROM a11y_site_scans WHERE site_id = $1 AND status = 'done' AND finished_at < $2 ORDER BY finished_at DESC LIMIT 1`,
      [siteId, finishedAt],
    );
    return rows[0] ? scan(rows[0]) : undefined;
  }

  async progress(id: string, status: SiteScanStatus, done: number, total: number): Promise<void> {
    await this.db.query(
      `UPDATE a11y_site_scans SET status = $2, pages_done = $3, pages_total = $4, updated_at = now() WHERE id = $1`,
      [id, status, done, total],
    );
  }

  async finish(id: string, summary: SiteScanSummary): Promise<void> {
    await this.db.query(
      `UPDATE a11y_site_scans SET status = 'done', score = $2, summary = $3::jsonb, pages_done = $4, finished_at = now() WHERE id = $1`,
      [id, summary.score, JSON.stringify(summary), new Set(summary.pages.map((p) => p.url)).size],
    );
  }

  /**
   * Fixes the scan's plan and its rows (one per page and viewport) the first time it runs; answers the
   * plan as stored (the one fixed earlier when the scan runs again, migration A11ySiteScanPages1795752000000).
   */
  async savePlan(id: string, plan: SiteScanPlan): Promise<SiteScanPlan> {
    return this.db.transaction(async (m) => {
      const set = await m.query<{ plan: SiteScanPlan }[]>(
        `UPDATE a11y_site_scans SET plan = $2::jsonb WHERE id = $1 AND plan IS NULL RETURNING plan`,
        [id, JSON.stringify(plan)],
      );
      if (!set[0]) {
        const rows = await m.query<{ plan: SiteScanPlan }[]>(`SELECT plan FROM a11y_site_scans WHERE id = $1`, [id]);
        return rows[0]?.plan ?? plan;
      }
      const idx = plan.pages.flatMap((_, i) => plan.viewports.map(() => i));
      await m.query(
        `INSERT INTO a11y_site_scan_pages (scan_id, idx, viewport, url)
         SELECT $1, i, v, ($4::text[])[i + 1] FROM unnest($2::int[], $3::text[]) AS t(i, v) ON CONFLICT DO NOTHING`,
        [id, idx, plan.pages.flatMap(() => plan.viewports), plan.pages],
      );
      return plan;
    });
  }

  /** The scan's rows, in page order then in the plan's viewport order. */
  async pageRows(id: string, viewports: readonly string[]): Promise<SiteScanPageRow[]> {
    return this.db.query<SiteScanPageRow[]>(
      `SELECT idx, viewport, url, attempts, result FROM a11y_site_scan_pages WHERE scan_id = $1 ORDER BY idx, array_position($2::text[], viewport::text)`,
      [id, viewports],
    );
  }

  /** A row's scan starts: counted before the page is requested, so a row started twice without a result was lost twice. */
  async startRow(id: string, idx: number, viewport: string): Promise<void> {
    await this.db.query(
      `UPDATE a11y_site_scan_pages SET attempts = attempts + 1 WHERE scan_id = $1 AND idx = $2 AND viewport = $3`,
      [id, idx, viewport],
    );
  }

  /** A row's result, kept as soon as it is known: a scan run again does not visit it again. */
  async finishRow(id: string, idx: number, viewport: string, result: SitePageResult): Promise<void> {
    await this.db.query(
      `UPDATE a11y_site_scan_pages SET result = $4::jsonb, finished_at = now() WHERE scan_id = $1 AND idx = $2 AND viewport = $3`,
      [id, idx, viewport, JSON.stringify(result)],
    );
  }

  async fail(id: string, error: string): Promise<void> {
    await this.db.query(`UPDATE a11y_site_scans SET status = 'failed', error = $2, finished_at = now() WHERE id = $1`, [
      id,
      error,
    ]);
  }

  /** The viewports and checks beyond axe (migration A11ySiteChecks1795748200000). */
  async setChecks(id: string, c: SiteChecksInput): Promise<void> {
    await this.db.query(
      `UPDATE a11y_sites SET viewports = $2::jsonb, reflow_check = $3, keyboard_walk = $4 WHERE id = $1`,
      [id, JSON.stringify(c.viewports), c.reflow_check, c.keyboard_walk],
    );
  }

  /** The login steps (field values already sealed), or null to remove them. */
  async setLogin(id: string, login: SiteLogin | null): Promise<void> {
    await this.db.query(`UPDATE a11y_sites SET login = $2::jsonb WHERE id = $1`, [
      id,
      login ? JSON.stringify(login) : null,
    ]);
  }
}
