import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { A11yReport } from './a11y-report.entity';
import { A11yReportAddress } from './a11y-report-address.entity';
import type { Report } from './report.types';

/** What a badge shows. */
export type BadgeFields = Pick<Report, 'id' | 'score' | 'scannedAt' | 'expiresAt'>;

/** What the scan page says of a report. */
export type ReportHead = Pick<Report, 'id' | 'url' | 'crawl' | 'score' | 'scannedAt' | 'expiresAt'>;

const badgeOf = (row: Pick<A11yReport, 'id' | 'score' | 'createdAt' | 'expiresAt'>): BadgeFields => ({
  id: row.id,
  score: row.score,
  scannedAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/**
 * Every query of the stored accessibility reports (a11y_reports) and of the addresses of purged
 * ones (a11y_report_addresses): one store for the report service and the history of an address.
 * "Unexpired" is relative to the `now` each caller passes (its clock). Badge and head lookups read
 * the table's columns only: the report's jsonb is neither read nor parsed.
 */
@Injectable()
export class ReportStore {
  constructor(@InjectRepository(A11yReport) private readonly repo: Repository<A11yReport>) {}

  private get addresses(): Repository<A11yReportAddress> {
    return this.repo.manager.getRepository(A11yReportAddress);
  }

  async insert(report: Report, cacheKey: string, createdAt: Date, expiresAt: Date): Promise<void> {
    await this.repo.insert({
      id: report.id,
      url: report.url,
      crawl: report.crawl,
      cacheKey,
      score: report.score,
      report,
      createdAt,
      expiresAt,
    });
  }

  /** The unexpired report with this id. */
  async find(id: string, now: Date): Promise<Report | undefined> {
    const row = await this.repo.findOne({
      where: { id, expiresAt: MoreThan(now) },
      select: { id: true, report: true },
    });
    return row?.report;
  }

  async badge(id: string, now: Date): Promise<BadgeFields | undefined> {
    const row = await this.repo.findOne({
      where: { id, expiresAt: MoreThan(now) },
      select: { id: true, score: true, createdAt: true, expiresAt: true },
    });
    return row ? badgeOf(row) : undefined;
  }

  /** The badge fields of the newest unexpired report of a cache key, whatever its age. */
  async latestBadge(cacheKey: string, now: Date): Promise<BadgeFields | undefined> {
    const row = await this.repo.findOne({
      where: { cacheKey, expiresAt: MoreThan(now) },
      order: { createdAt: 'DESC' },
      select: { id: true, score: true, createdAt: true, expiresAt: true },
    });
    return row ? badgeOf(row) : undefined;
  }

  async head(id: string, now: Date): Promise<ReportHead | undefined> {
    const row = await this.repo.findOne({
      where: { id, expiresAt: MoreThan(now) },
      select: { id: true, url: true, crawl: true, score: true, createdAt: true, expiresAt: true },
    });
    return row
      ? {
          id: row.id,
          url: row.url,
          crawl: row.crawl,
          score: row.score,
          scannedAt: row.createdAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
        }
      : undefined;
  }

  /** The cache key of a report id, stored (even expired) or purged and remembered. */
  async cacheKeyOfId(id: string): Promise<string | undefined> {
    const row = await this.repo.findOne({ where: { id }, select: { id: true, cacheKey: true } });
    if (row) return row.cacheKey;
    return (await this.addresses.findOne({ where: { id }, select: { id: true, cacheKey: true } }))?.cacheKey;
  }

  /** The newest unexpired report of a cache key made after `made.after`, or before `made.before` (exclusive). */
  async newest(cacheKey: string, now: Date, made: { after: Date } | { before: Date }): Promise<Report | undefined> {
    const row = await this.repo.findOne({
      where: {
        cacheKey,
        createdAt: 'after' in made ? MoreThan(made.after) : LessThan(made.before),
        expiresAt: MoreThan(now),
      },
      order: { createdAt: 'DESC' },
      select: { id: true, report: true },
    });
    return row?.report;
  }

  /**
   * Deletes reports expired at `now`, remembering each one's cache key (in the same statement),
   * and forgets remembered addresses made at or before `forgetBefore`. Returns how many reports.
   */
  async purge(now: Date, forgetBefore: Date): Promise<number> {
    const rows: { n: number }[] = await this.repo.query(
      `WITH gone AS (DELETE FROM a11y_reports WHERE expires_at <= $1 RETURNING id, cache_key, created_at),
       kept AS (INSERT INTO a11y_report_addresses (id, cache_key, created_at) SELECT id, cache_key, created_at FROM gone ON CONFLICT (id) DO NOTHING)
       SELECT count(*)::int AS n FROM gone`,
      [now],
    );
    await this.addresses.delete({ createdAt: LessThanOrEqual(forgetBefore) });
    return rows[0]?.n ?? 0;
  }
}
