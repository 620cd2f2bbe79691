import { Injectable } from '@nestjs/common';
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
import { AXE_TAGS, Scanner, VIEWPORT } from './scanner';

/** Extra time past SCAN_TOTAL_TIMEOUT_MS before a scan that is still running is stopped. */
export const SCAN_HARD_STOP_GRACE_MS = 10000;

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
  ) {}

  /** Runs the scan and stores its report; `waitedMs` is the time spent waiting for a browser slot. */
  async run(url: URL, crawl: boolean, signal?: AbortSignal): Promise<{ report: Report; waitedMs: number }> {
    const guard = this.egress.targetGuard();
    await guard.assertAllowed(url); // before the browser is involved at all
    const queuedAt = Date.now();
    let waitedMs = 0;
    let t0 = 0;
    const { site, browser } = await this.pool.withContext(async (context, browser) => {
      t0 = Date.now();
      waitedMs = t0 - queuedAt;
      const limitMs = this.config.SCAN_TOTAL_TIMEOUT_MS + SCAN_HARD_STOP_GRACE_MS;
      let stop: ((e: Error) => void) | undefined;
      const stopped = new Promise<never>((_, reject) => (stop = reject));
      const onAbort = () => stop!(new ScanAborted());
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(
        () => stop!(new DomainError(ErrorCode.ScanFailed, `The scan did not finish within its time limit (${limitMs} ms) and was stopped.`)),
        limitMs,
      );
      const scanning = this.scanner.scanSite(context, url, crawl, guard, t0 + this.config.SCAN_TOTAL_TIMEOUT_MS);
      try {
        return { site: await Promise.race([scanning, stopped]), browser };
      } catch (e) {
        // stopped: closing the context ends the pages' work; the scan's own rejection is dropped
        scanning.catch(() => undefined);
        await context.close().catch(() => undefined);
        throw e;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    });
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
          viewport: VIEWPORT,
          userAgent: site.userAgent,
          skipped: site.skipped,
          timings: { totalMs: Date.now() - queuedAt },
          ...renderMeta(site.pages),
          ...(fitted.truncated ? { truncated: fitted.truncated } : {}),
        },
      },
      cacheKeyOf(url.href, crawl),
    );
    return { report, waitedMs };
  }
}
