import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { Report } from '../report/report.types';
import type { ScanOptions } from '../scan/scan-options';

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
  /**
   * Runs (or joins) the scan of this normalised URL and crawl flag (and a site scan's `options`,
   * whose own cache key `cacheKey` is then); resolves with its stored report.
   */
  abstract submit(url: URL, crawl: boolean, cacheKey: string, options?: ScanOptions): Promise<Report>;
  abstract depth(): Promise<QueueDepth>;
  /** Processes (or this process) that run scans from this queue. */
  abstract workers(): Promise<number>;

  private shutdownNotice: Promise<never> | undefined;
  private announceShutdown: ((e: Error) => void) | undefined;

  /**
   * The process is stopping (SIGTERM) and cuts its connections after `withinMs`: scans still
   * waiting a little before then answer 503 with Retry-After, so their clients get a clear answer
   * instead of a cut connection. With the queue, their jobs stay queued and their reports are
   * cached for the retry.
   */
  shuttingDown(withinMs: number): void {
    const answerAt = Math.max(withinMs - SHUTDOWN_ANSWER_MARGIN_MS, withinMs / 2);
    setTimeout(() => this.announceShutdown?.(shuttingDownError()), answerAt).unref();
  }

  /** `p`, or the shutdown's 503 when the process stops before `p` settles. */
  protected untilShutdown<T>(p: Promise<T>): Promise<T> {
    if (!this.shutdownNotice) {
      this.shutdownNotice = new Promise<never>((_, reject) => (this.announceShutdown = reject));
      this.shutdownNotice.catch(() => undefined);
    }
    return Promise.race([p, this.shutdownNotice]);
  }
}

/** Time before a stopping process cuts its connections at which waiting scans are answered. */
export const SHUTDOWN_ANSWER_MARGIN_MS = 1000;
/** Retry-After of a scan answered because its process is stopping. */
export const SHUTDOWN_RETRY_AFTER_S = 5;

export const shuttingDownError = (): DomainError =>
  new DomainError(
    ErrorCode.ServiceUnavailable,
    'The service is restarting; please try again shortly.',
    { retry_after: SHUTDOWN_RETRY_AFTER_S },
    { 'Retry-After': String(SHUTDOWN_RETRY_AFTER_S) },
  );
