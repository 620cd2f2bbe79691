import type { Report } from '../report/report.types';
import { BrowserPool } from '../browser/browser-pool';
import { ScanRunner } from '../scan/scan-runner';
import type { ScanOptions } from '../scan/scan-options';
import { QueueDepth, ScanQueue } from './scan-queue';
import { ScanQueueMetrics } from './scan-queue-metrics';

/**
 * Without REDIS_URL: scans run in this process's browser pool (SCAN_CONCURRENCY slots, up to
 * SCAN_QUEUE_LIMIT waiting, then 503), exactly as before the fleet.
 */
export class InProcessScanQueue extends ScanQueue {
  readonly kind = 'in-process';

  constructor(
    private readonly runner: ScanRunner,
    private readonly pool: BrowserPool,
    private readonly metrics: ScanQueueMetrics,
  ) {
    super();
    metrics.attach(this);
  }

  async submit(url: URL, crawl: boolean, _cacheKey?: string, options?: ScanOptions): Promise<Report> {
    const { report, waitedMs } = await this.untilShutdown(this.runner.run(url, crawl, undefined, options));
    this.metrics.waited(waitedMs);
    return report;
  }

  depth(): Promise<QueueDepth> {
    const { active, queued } = this.pool.stats;
    return Promise.resolve({ waiting: queued, active });
  }

  workers(): Promise<number> {
    return Promise.resolve(1);
  }
}
