import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { RedisService } from '../../common/redis/redis.service';
import { cacheKeyOf, ReportsService } from '../report/reports.service';
import type { Report, ScanResponse } from '../report/report.types';
import { parseTargetUrl, Resolver, TargetGuard } from '../../common/egress/target-guard';
import { ScanQueue } from '../queue/scan-queue';
import { scanAnswerWithinMs } from '../queue/scan-job';
import { ScanEgress } from '../security/scan-egress';
import { MAX_CRAWL_PAGES } from './crawl';

/** Releases a Redis lock only if it still holds our token. */
const RELEASE_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
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
  /** Clients (IPs) with a scan in progress in this instance. */
  private readonly runningClients = new Set<string>();

  constructor(
    private readonly config: AppConfig,
    private readonly queue: ScanQueue,
    private readonly reports: ReportsService,
    private readonly redis: RedisService,
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
   * looked up, the page is scanned again (an identical scan in flight is still joined).
   */
  async scan(rawUrl: unknown, crawl: boolean, client?: string, opts: { fresh?: boolean } = {}): Promise<ScanResponse> {
    const url = parseTargetUrl(rawUrl);
    const key = cacheKeyOf(url.href, crawl);
    const hit = opts.fresh ? undefined : await this.reports.findFresh(key);
    if (hit) return { ...hit, cached: true };
    const release = client === undefined ? undefined : await this.claimClient(client);
    try {
      let run = this.inflight.get(key);
      if (!run) {
        run = this.runOnce(url, crawl, key).finally(() => this.inflight.delete(key));
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
    if (this.runningClients.has(client)) throw busy();
    this.runningClients.add(client);
    const redis = this.redis.client;
    if (!redis) return async () => void this.runningClients.delete(client);
    const lock = this.redis.key('a11y', 'client', client);
    const token = randomBytes(12).toString('hex');
    // The lock outlives a crashed instance by at most the longest wait for a scan.
    const got = await redis.set(lock, token, 'PX', scanAnswerWithinMs(this.config), 'NX').catch(() => 'OK');
    if (got !== 'OK') {
      this.runningClients.delete(client);
      throw busy();
    }
    return async () => {
      this.runningClients.delete(client);
      await redis.eval(RELEASE_LOCK, 1, lock, token).catch(() => undefined);
    };
  }

  private runOnce(url: URL, crawl: boolean, key: string): Promise<Report> {
    return this.queue.submit(url, crawl, key);
  }
}
