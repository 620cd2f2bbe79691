import { Gauge, Histogram } from 'prom-client';
import type { MetricsService } from '../../common/metrics/metrics.service';
import type { ScanQueue } from './scan-queue';

/**
 * Scan queue metrics in the app's registry: `scan_queue_jobs{state}` (waiting, active),
 * `scan_queue_wait_seconds` (time from request to a browser slot) and `scan_workers` (processes
 * running scans from the queue). Depth and workers are read from the queue at scrape time.
 */
export class ScanQueueMetrics {
  private queue: ScanQueue | undefined;
  private readonly wait: Histogram;

  constructor(metrics: MetricsService) {
    const queueOf = (): ScanQueue | undefined => this.queue;
    new Gauge({
      name: 'scan_queue_jobs',
      help: 'Accessibility scan jobs by state (waiting for a worker, running)',
      labelNames: ['state'] as const,
      registers: [metrics.registry],
      async collect() {
        const d = await queueOf()
          ?.depth()
          .catch(() => undefined);
        if (!d) return;
        this.set({ state: 'waiting' }, d.waiting);
        this.set({ state: 'active' }, d.active);
      },
    });
    new Gauge({
      name: 'scan_workers',
      help: 'Processes running accessibility scans from the queue',
      registers: [metrics.registry],
      async collect() {
        const n = await queueOf()
          ?.workers()
          .catch(() => undefined);
        if (n !== undefined) this.set(n);
      },
    });
    this.wait = new Histogram({
      name: 'scan_queue_wait_seconds',
      help: 'Time a scan waited for a worker and a browser slot',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [metrics.registry],
    });
  }

  attach(queue: ScanQueue): void {
    this.queue = queue;
  }

  waited(ms: number): void {
    this.wait.observe(Math.max(0, ms) / 1000);
  }
}
