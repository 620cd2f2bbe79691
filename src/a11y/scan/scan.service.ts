import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/env';
import { BrowserPool } from '../browser/browser-pool';
import { cacheKeyOf, ReportsService } from '../report/reports.service';
import type { Report, ScanResponse } from '../report/report.types';
import { siteScore } from '../scoring/score';
import { totals } from '../report/from-axe';
import { parseTargetUrl, Resolver, systemResolver, TargetGuard } from '../security/target-guard';
import { AXE_TAGS, Scanner, VIEWPORT } from './scanner';

/**
 * POST /api/scan: validates the target, answers from the cache when a report of the same
 * normalised URL and crawl flag is fresh, shares one browser run between concurrent identical
 * scans, and stores the new report.
 */
@Injectable()
export class ScanService {
  private readonly inflight = new Map<string, Promise<Report>>();
  /** DNS resolver of the SSRF guard (replaceable in tests so they never leave loopback). */
  resolver: Resolver = systemResolver;

  constructor(
    private readonly config: AppConfig,
    private readonly pool: BrowserPool,
    private readonly scanner: Scanner,
    private readonly reports: ReportsService,
  ) {}

  /** A guard for one scan (its DNS verdicts are memoised for the scan only). */
  newGuard(): TargetGuard {
    return new TargetGuard({ allowLoopback: this.config.SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE }, this.resolver);
  }

  async scan(rawUrl: unknown, crawl: boolean): Promise<ScanResponse> {
    const url = parseTargetUrl(rawUrl);
    const key = cacheKeyOf(url.href, crawl);
    const hit = await this.reports.findFresh(key);
    if (hit) return { ...hit, cached: true };
    let run = this.inflight.get(key);
    if (!run) {
      run = this.run(url, crawl, key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, run);
    }
    return { ...(await run), cached: false };
  }

  private async run(url: URL, crawl: boolean, key: string): Promise<Report> {
    const guard = this.newGuard();
    await guard.assertAllowed(url); // before the browser is involved at all
    const t0 = Date.now();
    const { site, browser } = await this.pool.withContext(async (context, browser) => ({
      site: await this.scanner.scanSite(context, url, crawl, guard),
      browser,
    }));
    return this.reports.save(
      {
        url: url.href,
        crawl,
        score: siteScore(site.pages.map((p) => p.score)),
        ...totals(site.pages),
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
        },
      },
      key,
    );
  }
}
