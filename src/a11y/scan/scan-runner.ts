import { Injectable } from '@nestjs/common';
import type { BrowserContext } from 'puppeteer-core';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { BrowserPool } from '../browser/browser-pool';
import { renderMeta } from '../readiness/render-meta';
import { totals } from '../report/from-axe';
import { cacheKeyOf, ReportsService } from '../report/reports.service';
import { fitReport } from '../report/report-size';
import type { Report } from '../report/report.types';
import { pageCostsOf, siteBreakdown } from '../scoring/breakdown';
import { siteScore } from '../scoring/score';
import { ScanEgress } from '../security/scan-egress';
import { AXE_TAGS } from './axe-runner';
import { Scanner } from './scanner';
import { type ScanOptions, scanKeyOf, viewportOf } from './scan-options';
import { SCAN_HARD_STOP_GRACE_MS, scanHardStopMs } from '../queue/scan-job';

export { SCAN_HARD_STOP_GRACE_MS };

/** Thrown when a run was stopped by its caller's signal (e.g. a worker shutting down). */
export class ScanAborted extends Error {
  constructor() {
    super('scan stopped by its worker');
    this.name = 'ScanAborted';
  }
}

/**
 * One scan, worker side, one way: guard -> browser context (a pool slot) -> axe on each page ->
 * report (capped) -> stored. Used by the in-process queue and by the BullMQ worker alike. A run
 * that outlives its time limit (SCAN_TOTAL_TIMEOUT_MS and a grace) is stopped by closing its
 * browser context, as is a run whose `signal` fires.
 */
@Injectable()
export class ScanRunner {
  constructor(
    private readonly config: AppConfig,
    private readonly pool: BrowserPool,
    private readonly scanner: Scanner,
    private readonly reports: ReportsService,
    private readonly egress: ScanEgress,
  ) {
    // The next scan's first tab is opened between scans, in the pool's spare context.
    pool.prepareSpare = (context) => scanner.prepareTab(context);
  }

  /**
   * Runs the scan and stores its report; `waitedMs` is the time spent waiting for a browser slot.
   * `options` (a site scan's, scan-options.ts): stored under the options' own cache key.
   */
  async run(
    url: URL,
    crawl: boolean,
    signal?: AbortSignal,
    options?: ScanOptions,
  ): Promise<{ report: Report; waitedMs: number }> {
    const guard = this.egress.targetGuard();
    await guard.assertAllowed(url); // before the browser is involved at all
    const queuedAt = Date.now();
    let waitedMs = 0;
    let t0 = 0;
    // The hard stop races the pool from outside: a browser that stopped answering cannot hold the
    // scan past its limit, even where closing its context would wait on it too.
    let stop!: (e: Error) => void;
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    stopped.catch(() => undefined);
    let context: BrowserContext | undefined;
    const scanning = this.pool.withContext(async (ctx, browser) => {
      context = ctx;
      t0 = Date.now();
      waitedMs = t0 - queuedAt;
      const limitMs = scanHardStopMs(this.config);
      const onAbort = () => stop(new ScanAborted());
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(
        () =>
          stop(
            new DomainError(
              ErrorCode.ScanFailed,
              `The scan did not finish within its time limit (${limitMs} ms) and was stopped.`,
            ),
          ),
        limitMs,
      );
      try {
        return {
          site: await this.scanner.scanSite(ctx, url, crawl, guard, t0 + this.config.SCAN_TOTAL_TIMEOUT_MS, options),
          browser,
        };
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    });
    let ran: Awaited<typeof scanning>;
    try {
      ran = await Promise.race([scanning, stopped]);
    } catch (e) {
      // stopped (or failed): closing the context ends the pages' work; not awaited, as a browser
      // that stopped answering would hold it. The scan's own rejection is dropped.
      scanning.catch(() => undefined);
      void context?.close().catch(() => undefined);
      throw e;
    }
    const { site, browser } = ran;
    await site.pictures; // finished while the context closed
    const fitted = fitReport(site.pages, this.config.SCAN_REPORT_MAX_BYTES);
    const score = siteScore(site.pages.map((p) => p.score));
    const report = await this.reports.save(
      {
        url: url.href,
        crawl,
        score,
        ...totals(fitted.pages),
        scoreBreakdown: siteBreakdown(site.pages.map(pageCostsOf), score),
        pages: fitted.pages,
        meta: {
          engine: 'axe-core',
          axeVersion: site.axeVersion,
          browser,
          tags: AXE_TAGS,
          viewport: viewportOf(options),
          userAgent: site.userAgent,
          skipped: site.skipped,
          timings: { totalMs: Date.now() - queuedAt },
          ...renderMeta(site.pages),
          ...(fitted.truncated ? { truncated: fitted.truncated } : {}),
        },
      },
      options ? scanKeyOf(url.href, crawl, options) : cacheKeyOf(url.href, crawl),
    );
    return { report, waitedMs };
  }
}
