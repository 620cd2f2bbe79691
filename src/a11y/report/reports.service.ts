import { LRUCache } from 'lru-cache';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { Clock } from './clock';
import { BadgeFields, ReportHead, ReportStore } from './report.store';
import type { Report } from './report.types';

/** Report ids: 24 random bytes in base64url (192 bits, 32 URL-safe characters). */
export const newReportId = (): string => randomBytes(24).toString('base64url');
const ID_SHAPE = /^[A-Za-z0-9_-]{32}$/;

export const cacheKeyOf = (normalizedUrl: string, crawl: boolean): string =>
  createHash('sha256')
    .update(`${crawl ? 'crawl' : 'page'} ${normalizedUrl}`)
    .digest('hex');

/** Recent reports kept in memory per instance (immutable, so never stale; only TTLs matter). */
export const MEMORY_CACHE_SIZE = 200;

/** How long the address of a purged report is remembered (for its badge's fallback). */
export const ADDRESS_RECORD_DAYS = 365;

export type { BadgeFields } from './report.store';

/** How often expired reports are deleted. */
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** The answer to an unknown, malformed or expired report id. */
const notFound = (): DomainError =>
  new DomainError(ErrorCode.ReportNotFound, 'No report with this id (reports are kept 30 days).');

/**
 * Stored reports in PostgreSQL ({@link ReportStore}): saved after each browser run, looked up by id (404
 * report_not_found for unknown or expired ids) and by cache key, deleted after
 * REPORT_RETENTION_DAYS by a scheduled job.
 */
@Injectable()
export class ReportsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('A11yReports');
  private timer: NodeJS.Timeout | undefined;
  /** cache key -> newest report of this instance (the oldest stored out first: looked at with `peek`, which keeps the order). */
  private readonly recent = new LRUCache<string, Report>({ max: MEMORY_CACHE_SIZE });

  constructor(
    private readonly store: ReportStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.purgeExpired().catch((e: Error) => this.logger.warn(`Purging expired reports failed: ${e.message}`));
    }, PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Stores a new report made now; fills in id, scannedAt and expiresAt. */
  async save(body: Omit<Report, 'id' | 'scannedAt' | 'expiresAt'>, cacheKey: string): Promise<Report> {
    const now = this.clock.now();
    const expires = new Date(now.getTime() + this.config.REPORT_RETENTION_DAYS * 86400_000);
    const report: Report = {
      id: newReportId(),
      ...body,
      scannedAt: now.toISOString(),
      expiresAt: expires.toISOString(),
    };
    await this.store.insert(report, cacheKey, now, expires);
    this.remember(cacheKey, report);
    return report;
  }

  /** The stored report, or 404 report_not_found (unknown, malformed or expired id). */
  async get(id: string): Promise<Report> {
    const report = ID_SHAPE.test(id) ? await this.store.find(id, this.clock.now()) : undefined;
    if (!report) throw notFound();
    return report;
  }

  /**
   * What the badge shows (id, score, scan time) from the table's columns: the report's jsonb is
   * neither read nor parsed. 404 report_not_found like {@link get}.
   */
  async badgeFields(id: string): Promise<BadgeFields> {
    const badge = ID_SHAPE.test(id) ? await this.store.badge(id, this.clock.now()) : undefined;
    if (!badge) throw notFound();
    return badge;
  }

  /**
   * The badge fields of the newest unexpired report of a cache key (an address and crawl flag),
   * whatever its age; undefined when there is none. Columns only, like {@link badgeFields}.
   */
  async latestBadgeFields(cacheKey: string): Promise<BadgeFields | undefined> {
    return this.store.latestBadge(cacheKey, this.clock.now());
  }

  /** The cache key of a report id, stored or purged (remembered ADDRESS_RECORD_DAYS); undefined when unknown. */
  async cacheKeyOfId(id: string): Promise<string | undefined> {
    if (!ID_SHAPE.test(id)) return undefined;
    return this.store.cacheKeyOfId(id);
  }

  /**
   * What the scan page says of a report (address, crawl, score, scan time) from the table's
   * columns: the report's jsonb is neither read nor parsed. 404 report_not_found like {@link get}.
   */
  async head(id: string): Promise<ReportHead> {
    const head = ID_SHAPE.test(id) ? await this.store.head(id, this.clock.now()) : undefined;
    if (!head) throw notFound();
    return head;
  }

  /** The newest report of this cache key made within SCAN_CACHE_TTL_S, if any. */
  async findFresh(cacheKey: string): Promise<Report | undefined> {
    if (this.config.SCAN_CACHE_TTL_S === 0) return undefined;
    const since = new Date(this.clock.now().getTime() - this.config.SCAN_CACHE_TTL_S * 1000);
    const mine = this.recent.peek(cacheKey);
    if (mine && Date.parse(mine.scannedAt) > since.getTime() && Date.parse(mine.expiresAt) > this.clock.now().getTime())
      return mine;
    const report = await this.store.newest(cacheKey, this.clock.now(), { after: since });
    if (report) this.remember(cacheKey, report);
    return report;
  }

  private remember(cacheKey: string, report: Report): void {
    this.recent.set(cacheKey, report);
  }

  /**
   * Deletes reports past their retention, remembering each one's cache key (in the same statement)
   * for its badge; forgets addresses older than ADDRESS_RECORD_DAYS. Returns how many reports.
   */
  async purgeExpired(now: Date = this.clock.now()): Promise<number> {
    for (const [key, r] of [...this.recent.entries()])
      if (Date.parse(r.expiresAt) <= now.getTime()) this.recent.delete(key);
    return this.store.purge(now, new Date(now.getTime() - ADDRESS_RECORD_DAYS * 86400_000));
  }
}
