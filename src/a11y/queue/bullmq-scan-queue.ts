import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import type Redis from 'ioredis';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { REDIS_HARD_TIMEOUT_MS, RedisService } from '../../common/redis/redis.service';
import type { Report } from '../report/report.types';
import { ReportsService } from '../report/reports.service';
import { ScanRunner } from '../scan/scan-runner';
import type { ScanOptions } from '../scan/scan-options';
import {
  decodeJobError,
  jobDataOf,
  jobIdOf,
  QUEUE_RETRY_AFTER_S,
  SCAN_QUEUE_NAME,
  scanAnswerWithinMs,
  ScanJobData,
  ScanJobResult,
} from './scan-job';
import { QueueDepth, ScanQueue, shuttingDownError } from './scan-queue';
import { ScanQueueMetrics } from './scan-queue-metrics';
import { settledWithin } from '../../common/async/settled-within';

/** How often a waiting request checks that its job still exists (Redis flushed, job removed). */
export const JOB_CHECK_MS = 1000;
/**
 * Whether the queue has room: jobs waiting (KEYS 1-4: wait, paused, prioritized, delayed) below
 * ARGV[1], counted in one script. Instances adding at the same instant can each see the last free
 * place, so the queue may exceed the limit by at most the number of simultaneous adds; a place
 * reserved before the add would count the job twice until released, and refuse scans wrongly.
 */
const HAS_ROOM = `
local n = redis.call('llen', KEYS[1]) + redis.call('llen', KEYS[2]) + redis.call('zcard', KEYS[3]) + redis.call('zcard', KEYS[4])
if n >= tonumber(ARGV[1]) then return 0 end
return 1`;
/** Job states in which a job still needs a worker. */
const UNFINISHED = new Set(['waiting', 'active', 'prioritized', 'delayed', 'waiting-children']);
/** Checks in a row that must find the job gone before the wait ends with an error (its result may be on the way). */
const LOST_AFTER_CHECKS = 3;
/** The error of a scan whose job vanished from the queue (a site scan tries such a page once more). */
export const SCAN_JOB_LOST = 'The scan job was lost from the queue (Redis was emptied or restarted); please try again.';

/** BullMQ's key prefix under REDIS_KEY_PREFIX, so every queue key is in this deployment's namespace. */
export const bullPrefixOf = (redis: RedisService): string => redis.key('bull');

interface Waiter {
  resolve(r: ScanJobResult): void;
  reject(e: DomainError): void;
}

/**
 * With REDIS_URL: a scan is a BullMQ job (id from the cache key, so identical concurrent scans on
 * any instance share one job), run by any worker of the fleet (SCAN_WORKER_IN_PROCESS, `npm run
 * worker`). The request waits for the job's end through QueueEvents, bounded by
 * {@link scanAnswerWithinMs}, and checks every JOB_CHECK_MS that the job still exists, so a job lost
 * with a flushed Redis ends in a clear error. More than SCAN_QUEUE_LIMIT waiting jobs: 503.
 * Redis unreachable: the scan runs in this process when it has a worker, else 503.
 */
export class BullScanQueue extends ScanQueue implements OnModuleInit, OnApplicationShutdown {
  readonly kind = 'bullmq';
  private readonly logger = new Logger('ScanQueue');
  private queue!: Queue<ScanJobData, ScanJobResult>;
  private events!: QueueEvents;
  private queueConnection!: Redis;
  private eventsConnection!: Redis;
  private readonly waiters = new Map<string, Set<Waiter>>();
  private closed = false;
  private workersCheckedAt = 0;
  private noWorkerSince: number | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly runner: ScanRunner,
    private readonly reports: ReportsService,
    private readonly metrics: ScanQueueMetrics,
  ) {
    super();
    metrics.attach(this);
  }

  async onModuleInit(): Promise<void> {
    const prefix = bullPrefixOf(this.redis);
    this.queueConnection = this.redis.newBlockingConnection();
    this.eventsConnection = this.redis.newBlockingConnection();
    this.queueConnection.on('error', () => undefined); // RedisService reports outages
    this.eventsConnection.on('error', () => undefined);
    this.queue = new Queue(SCAN_QUEUE_NAME, {
      connection: this.queueConnection,
      prefix,
      defaultJobOptions: { attempts: 1, removeOnComplete: true, removeOnFail: true },
    });
    this.queue.on('error', () => undefined);
    this.events = new QueueEvents(SCAN_QUEUE_NAME, { connection: this.eventsConnection, prefix });
    this.events.on('error', () => undefined);
    this.events.on('completed', ({ jobId, returnvalue }) => this.settle(jobId, (w) => w.resolve(returnvalue)));
    this.events.on('failed', ({ jobId, failedReason }) =>
      this.settle(jobId, (w) => w.reject(decodeJobError(failedReason))),
    );
    await within(this.events.waitUntilReady(), Math.max(REDIS_HARD_TIMEOUT_MS, 5000)).catch((e: Error) =>
      this.logger.warn(`The scan queue's event stream is not ready yet (${e.message}); it keeps trying.`),
    );
  }

  private settle(jobId: string, fn: (w: Waiter) => void): void {
    const set = this.waiters.get(jobId);
    if (!set) return;
    this.waiters.delete(jobId);
    for (const w of set) fn(w);
  }

  async submit(url: URL, crawl: boolean, cacheKey: string, options?: ScanOptions): Promise<Report> {
    if (!this.redis.usable) return this.withoutQueue(url, crawl, options);
    const id = jobIdOf(cacheKey);
    const answerBy = Date.now() + scanAnswerWithinMs(this.config);
    let waiter!: Waiter;
    const result = new Promise<ScanJobResult>((resolve, reject) => (waiter = { resolve, reject }));
    result.catch(() => undefined);
    // Registered before the job is added or joined: its end cannot be missed.
    const set = this.waiters.get(id) ?? new Set<Waiter>();
    set.add(waiter);
    this.waiters.set(id, set);
    try {
      await this.enqueue(id, jobDataOf(url, crawl, answerBy, options));
      const done = await this.untilShutdown(this.await(id, result, answerBy));
      this.metrics.waited(done.waitedMs);
      return await this.reports.get(done.reportId);
    } finally {
      const s = this.waiters.get(id);
      s?.delete(waiter);
      if (s?.size === 0) this.waiters.delete(id);
    }
  }

  /** Adds the job, or joins the one of the same id that is queued or running. */
  private async enqueue(id: string, data: ScanJobData): Promise<void> {
    try {
      const state = await within(this.queue.getJobState(id), REDIS_HARD_TIMEOUT_MS);
      if (state === 'completed' || state === 'failed')
        await within(this.queue.remove(id), REDIS_HARD_TIMEOUT_MS); // a finished run is no run to join
      else if (state !== 'unknown') return; // join the run in flight
      const k = this.queue.keys;
      const room = (await within(
        this.queueConnection.eval(
          HAS_ROOM,
          4,
          k.wait,
          k.paused,
          k.prioritized,
          k.delayed,
          this.config.SCAN_QUEUE_LIMIT,
        ),
        REDIS_HARD_TIMEOUT_MS,
      )) as number;
      if (room !== 1) {
        throw new DomainError(
          ErrorCode.ServiceUnavailable,
          'Too many scans are waiting; try again shortly.',
          { retry_after: QUEUE_RETRY_AFTER_S },
          { 'Retry-After': String(QUEUE_RETRY_AFTER_S) },
        );
      }
      await within(this.queue.add('scan', data, { jobId: id }), REDIS_HARD_TIMEOUT_MS);
    } catch (e) {
      if (e instanceof DomainError) throw e;
      throw this.unreachable(e);
    }
  }

  /** The job's result, or its error; a job gone from Redis or past `answerBy` is a clear 502. */
  private async await(id: string, result: Promise<ScanJobResult>, answerBy: number): Promise<ScanJobResult> {
    let gone = 0;
    for (;;) {
      const left = answerBy - Date.now();
      if (left <= 0) {
        throw new DomainError(
          ErrorCode.ScanFailed,
          `The scan did not finish within its time limit (${scanAnswerWithinMs(this.config)} ms, waiting for a worker included); please try again.`,
        );
      }
      const tick = await settledWithin(result, Math.min(left, JOB_CHECK_MS));
      if (tick) return tick.value;
      if (this.closed) throw shuttingDownError();
      const state = await within(this.queue.getJobState(id), REDIS_HARD_TIMEOUT_MS).catch(() => undefined);
      gone = state === 'unknown' ? gone + 1 : 0;
      if (
        state !== undefined &&
        UNFINISHED.has(state) &&
        (await this.noWorkerFor(this.config.SCAN_JOB_LOCK_MS)) &&
        (await this.removeUnclaimed(id))
      ) {
        throw new DomainError(
          ErrorCode.ServiceUnavailable,
          'No scan worker is running; please try again later.',
          { retry_after: QUEUE_RETRY_AFTER_S },
          { 'Retry-After': String(QUEUE_RETRY_AFTER_S) },
        );
      }
      if (gone >= LOST_AFTER_CHECKS) {
        const late = await settledWithin(result, 0);
        if (late) return late.value;
        throw new DomainError(ErrorCode.ScanFailed, SCAN_JOB_LOST);
      }
    }
  }

  /**
   * True when no worker has been connected to the queue for `ms` (checked at most every
   * JOB_CHECK_MS for all waiting requests of this instance). Unknown counts (Redis slow, CLIENT
   * LIST not allowed) never count as none.
   */
  private async noWorkerFor(ms: number): Promise<boolean> {
    const now = Date.now();
    if (now - this.workersCheckedAt >= JOB_CHECK_MS) {
      this.workersCheckedAt = now;
      const n = await this.workers().catch(() => undefined);
      if (n === 0) this.noWorkerSince ??= now;
      else if (n !== undefined) this.noWorkerSince = undefined;
    }
    return this.noWorkerSince !== undefined && now - this.noWorkerSince >= ms;
  }

  /** Removes a job no worker holds (waiting, or active with its lock lapsed); false when one does. */
  private async removeUnclaimed(id: string): Promise<boolean> {
    const removed = await within(this.queue.remove(id), REDIS_HARD_TIMEOUT_MS).catch(() => 0);
    if (removed === 1)
      this.logger.warn(
        `No scan worker has been running for ${this.config.SCAN_JOB_LOCK_MS} ms: scan job ${id} was removed.`,
      );
    return removed === 1;
  }

  /** Redis is unreachable: run here when this process has a worker, else refuse for now. */
  private async withoutQueue(url: URL, crawl: boolean, options?: ScanOptions): Promise<Report> {
    if (!this.config.SCAN_WORKER_IN_PROCESS) throw this.unreachable(new Error('Redis is not reachable'));
    this.logger.warn('Redis is unreachable: this scan runs in this process instead of on the queue.');
    const { report, waitedMs } = await this.runner.run(url, crawl, undefined, options);
    this.metrics.waited(waitedMs);
    return report;
  }

  private unreachable(e: unknown): DomainError {
    this.logger.warn(`The scan queue is unreachable: ${(e as Error).message}`);
    return new DomainError(
      ErrorCode.ServiceUnavailable,
      'The scan queue is unreachable; try again shortly.',
      { retry_after: QUEUE_RETRY_AFTER_S },
      { 'Retry-After': String(QUEUE_RETRY_AFTER_S) },
    );
  }

  async depth(): Promise<QueueDepth> {
    const c = await within(
      this.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active'),
      REDIS_HARD_TIMEOUT_MS,
    );
    return { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0), active: c.active ?? 0 };
  }

  workers(): Promise<number> {
    return within(this.queue.getWorkersCount(), REDIS_HARD_TIMEOUT_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const id of [...this.waiters.keys()]) {
      this.settle(id, (w) => w.reject(shuttingDownError()));
    }
    await Promise.all([this.events?.close().catch(() => undefined), this.queue?.close().catch(() => undefined)]);
    this.queueConnection?.disconnect();
    this.eventsConnection?.disconnect();
  }
}

/** `p`, or a rejection after `ms` (its timer cleared as soon as `p` settles). */
export async function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let answer: { value: T } | undefined;
  try {
    answer = await settledWithin(p, ms);
  } catch (e) {
    throw e instanceof Error ? e : new Error(String(e));
  }
  if (!answer) throw new Error(`no answer from Redis within ${ms} ms`);
  return answer.value;
}
