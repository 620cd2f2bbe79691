import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../../common/config/env';
import { RedisService } from '../../common/redis/redis.service';
import { BrowserPool } from '../browser/browser-pool';
import { cacheKeyOf, ReportsService } from '../report/reports.service';
import type { Report, ScanResponse } from '../report/report.types';
import { siteScore } from '../scoring/score';
import { pageCostsOf, siteBreakdown } from '../scoring/breakdown';
import { renderMeta } from '../readiness/render-meta';
import { totals } from '../report/from-axe';
import { parseTargetUrl, Resolver, TargetGuard } from '../../common/egress/target-guard';
import { ScanEgress } from '../security/scan-egress';
import { MAX_CRAWL_PAGES } from './crawl';
import { AXE_TAGS, Scanner, VIEWPORT } from './scanner';

/** Releases a Redis lock only if it still holds our token. */
const RELEASE_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
/** How often an instance waiting for another instance's run looks for its report. */
export const SHARED_RUN_POLL_MS = 250;

/**
 * POST /api/scan: validates the target, answers from the cache when a report of the same
 * normalised URL and crawl flag is fresh, shares one browser run between concurrent identical
 * scans (in process by a promise map; across instances by a Redis lock when REDIS_URL is set),
 * and stores the new report.
 */
@Injectable()
export class ScanService {
  private readonly inflight = new Map<string, Promise<Report>>();

  constructor(
    private readonly config: AppConfig,
    private readonly pool: BrowserPool,
    private readonly scanner: Scanner,
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

  async scan(rawUrl: unknown, crawl: boolean): Promise<ScanResponse> {
    const url = parseTargetUrl(rawUrl);
    const key = cacheKeyOf(url.href, crawl);
    const hit = await this.reports.findFresh(key);
    if (hit) return { ...hit, cached: true };
    let run = this.inflight.get(key);
    if (!run) {
      run = this.runShared(url, crawl, key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, run);
    }
    return { ...(await run), cached: false };
  }

  /**
   * With Redis, one instance at a time runs the browser for a cache key; the others wait for its
   * report to appear in the shared database (or for its lock to go away, e.g. after an error, and
   * then run themselves). Without Redis, or when Redis fails, each instance runs on its own.
   */
  private async runShared(url: URL, crawl: boolean, key: string): Promise<Report> {
    const redis = this.redis.client;
    if (!redis || this.config.SCAN_CACHE_TTL_S === 0) return this.run(url, crawl, key);
    const lock = this.redis.key('a11y', 'scan', key);
    const token = randomBytes(12).toString('hex');
    const ttlMs = this.config.SCAN_PAGE_TIMEOUT_MS * (crawl ? MAX_CRAWL_PAGES : 1) + 15000;
    const got = await redis.set(lock, token, 'PX', ttlMs, 'NX').catch(() => 'OK');
    if (got === 'OK') {
      try {
        return await this.run(url, crawl, key);
      } finally {
        await redis.eval(RELEASE_LOCK, 1, lock, token).catch(() => undefined);
      }
    }
    const deadline = Date.now() + ttlMs;
    while (Date.now() < deadline) {
      await sleep(SHARED_RUN_POLL_MS);
      const hit = await this.reports.findFresh(key);
      if (hit) return hit;
      if (!(await redis.exists(lock).catch(() => 0))) return (await this.reports.findFresh(key)) ?? this.run(url, crawl, key);
    }
    return this.run(url, crawl, key);
  }

  private async run(url: URL, crawl: boolean, key: string): Promise<Report> {
    const guard = this.newGuard();
    await guard.assertAllowed(url); // before the browser is involved at all
    const t0 = Date.now();
    const { site, browser } = await this.pool.withContext(async (context, browser) => ({
      site: await this.scanner.scanSite(context, url, crawl, guard),
      browser,
    }));
    const score = siteScore(site.pages.map((p) => p.score));
    return this.reports.save(
      {
        url: url.href,
        crawl,
        score,
        ...totals(site.pages),
        scoreBreakdown: siteBreakdown(site.pages.map(pageCostsOf), score),
        pages: site.pages,
        meta: {
          engine: 'axe-core',
          axeVersion: site.axeVersion,
          browser,
          tags: AXE_TAGS,
          viewport: VIEWPORT,
          userAgent: site.userAgent,
          skipped: site.skipped,
          timings: { totalMs: Date.now() - t0 },
          ...renderMeta(site.pages),
        },
      },
      key,
    );
  }
}
