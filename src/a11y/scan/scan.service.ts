import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { cacheKeyOf, ReportsService } from '../report/reports.service';
import type { Report, ScanResponse } from '../report/report.types';
import { parseTargetUrl, Resolver, TargetGuard } from '../../common/egress/target-guard';
import { ScanQueue } from '../queue/scan-queue';
import { scanAnswerWithinMs } from '../queue/scan-job';
import { ScanEgress } from '../security/scan-egress';
import { MAX_CRAWL_PAGES } from './crawl';
import { SCAN_LOCK_STORE, type ScanLockStore } from './lock/scan-lock.store';
import { hasOptions, ScanOptions, scanKeyOf } from './scan-options';

/**
 * Rate-limit units a scan request costs in the `scan` bucket, for POST /api/scan and the website's
 * POST /scan alike: a crawl loads up to MAX_CRAWL_PAGES pages, so it counts as that many scans.
 */
export const scanCost = (crawl: boolean): number => (crawl ? MAX_CRAWL_PAGES : 1);

/** Retry-After of a client's second concurrent scan. */
export const CLIENT_BUSY_RETRY_S = 5;

/**
 * POST /api/scan, API side, one way: parse and normalise -> cache lookup -> one scan at a time per
 * client -> submit to the scan queue (or join the identical scan in flight) -> wait for its report.
 * Concurrent identical scans share one run: in this process by a promise map, across instances by
 * the queue's job id (ScanQueue). The worker side is ScanRunner.
 */
@Injectable()
export class ScanService {
  private readonly inflight = new Map<string, Promise<Report>>();

  constructor(
    private readonly config: AppConfig,
    private readonly queue: ScanQueue,
    private readonly reports: ReportsService,
    @Inject(SCAN_LOCK_STORE) private readonly locks: ScanLockStore,
    private readonly egress: ScanEgress,
  ) {}

  /** DNS resolver of the page-level guard and of the egress proxy (replaceable in tests so they never leave loopback). */
  get resolver(): Resolver {
    return this.egress.resolver;
  }
  set resolver(r: Resolver) {
    this.egress.resolver = r;
  }

  /** A guard for one scan (its DNS verdicts are memoised for the scan only). */
  newGuard(): TargetGuard {
    return this.egress.targetGuard();
  }

  /**
   * `client` (the caller's client subject: IP, IPv6 by network; from the controller): one scan that needs the browser at a time per
   * client, in this instance and, with Redis, across instances; a second is 429 rate_limited.
   * Cached answers are never refused. `fresh` (the website's "Scan again now"): the cache is not
   * looked up, the page is scanned again (an identical scan in flight is still joined). `options`
   * (site scans only; scan-options.ts): viewport, checks beyond axe, cookies; such a scan has its own
   * cache key, so it is never served to a public scan nor joins one.
   */
  async scan(
    rawUrl: unknown,
    crawl: boolean,
    client?: string,
    opts: { fresh?: boolean; options?: ScanOptions } = {},
  ): Promise<ScanResponse> {
    const url = parseTargetUrl(rawUrl);
    const options = hasOptions(opts.options) ? opts.options : undefined;
    const key = options ? scanKeyOf(url.href, crawl, options) : cacheKeyOf(url.href, crawl);
    const hit = opts.fresh ? undefined : await this.reports.findFresh(key);
    if (hit) return { ...hit, cached: true };
    const release = client === undefined ? undefined : await this.claimClient(client);
    try {
      let run = this.inflight.get(key);
      if (!run) {
        run = this.runOnce(url, crawl, key, options).finally(() => this.inflight.delete(key));
        this.inflight.set(key, run);
      }
      return { ...(await run), cached: false };
    } finally {
      await release?.();
    }
  }

  /** Marks `client` as scanning; throws 429 when it already is. Returns the release. */
  private async claimClient(client: string): Promise<() => Promise<void>> {
    const busy = () =>
      new DomainError(
        ErrorCode.RateLimited,
        'A scan from your address is still running: one scan at a time per client. Try again when it has finished.',
        { retry_after: CLIENT_BUSY_RETRY_S },
        { 'Retry-After': String(CLIENT_BUSY_RETRY_S) },
      );
    // The lock outlives a crashed instance by at most the longest wait for a scan.
    const release = await this.locks.acquire(client, scanAnswerWithinMs(this.config));
    if (!release) throw busy();
    return release;
  }

  private runOnce(url: URL, crawl: boolean, key: string, options?: ScanOptions): Promise<Report> {
    return options ? this.queue.submit(url, crawl, key, options) : this.queue.submit(url, crawl, key);
  }
}
