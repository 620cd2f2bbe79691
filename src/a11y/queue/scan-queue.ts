import type { Report } from '../report/report.types';

/** Jobs waiting for a worker and jobs running, as /metrics and tests see them. */
export interface QueueDepth {
  waiting: number;
  active: number;
}

/**
 * Where a scan request goes once it missed the cache: the in-process queue (no REDIS_URL: this
 * process's browser pool, as before the fleet) or the BullMQ queue on Redis (any worker of the
 * fleet). Chosen once in A11yModule's factory; ScanService does not know which.
 */
export abstract class ScanQueue {
  /** 'in-process' or 'bullmq'. */
  abstract readonly kind: string;
  /** Runs (or joins) the scan of this normalised URL and crawl flag; resolves with its stored report. */
  abstract submit(url: URL, crawl: boolean, cacheKey: string): Promise<Report>;
  abstract depth(): Promise<QueueDepth>;
  /** Processes (or this process) that run scans from this queue. */
  abstract workers(): Promise<number>;
}
