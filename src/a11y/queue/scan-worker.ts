import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job, JobJson, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { RedisService } from '../../common/redis/redis.service';
import { ScanAborted, ScanRunner } from '../scan/scan-runner';
import { bullPrefixOf } from './bullmq-scan-queue';
import {
  decodeJobError,
  encodeJobError,
  parseScanJob,
  SCAN_QUEUE_NAME,
  UNREADABLE_PAYLOAD,
  SCAN_RUN_GRACE_MS,
  ScanJobData,
  ScanJobResult,
} from './scan-job';
import { settledWithin } from '../../common/async/settled-within';

/** Injection token: true in the worker process (`npm run worker`), which always runs scan jobs. */
export const SCAN_WORKER_STANDALONE = 'SCAN_WORKER_STANDALONE';

/**
 * Runs scan jobs from the BullMQ queue with this process's browser pool: SCAN_CONCURRENCY at a
 * time. Active in the worker process, and in an API process when SCAN_WORKER_IN_PROCESS is true
 * (both only with REDIS_URL).
 *
 * A worker that dies mid-scan stops renewing its job's lock (SCAN_JOB_LOCK_MS); another worker
 * then runs the job once more (maxStalledCount 1), a second stall fails it. A payload that does
 * not parse fails that job only. Shutdown (SIGTERM): no new jobs; active ones get
 * SHUTDOWN_TIMEOUT_MS to finish, then they are stopped and put back in the queue for another
 * worker; then the browser pool closes (its own shutdown hook).
 */
@Injectable()
export class ScanWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ScanWorker');
  private worker: Worker<ScanJobData, ScanJobResult> | undefined;
  private connection: Redis | undefined;
  private releasing = false;

  constructor(
    private readonly config: AppConfig,
    private readonly redis: RedisService,
    private readonly runner: ScanRunner,
    @Inject(SCAN_WORKER_STANDALONE) private readonly standalone: boolean,
  ) {}

  get enabled(): boolean {
    return this.redis.enabled && (this.standalone || this.config.SCAN_WORKER_IN_PROCESS);
  }

  /** The BullMQ worker (tests, metrics); undefined when this process runs no jobs. */
  get running(): Worker<ScanJobData, ScanJobResult> | undefined {
    return this.worker;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    this.connection = this.redis.newBlockingConnection();
    this.connection.on('error', () => undefined); // RedisService reports outages
    this.worker = new ScanJobWorker(SCAN_QUEUE_NAME, (job, token, signal) => this.process(job, token, signal), {
      connection: this.connection,
      prefix: bullPrefixOf(this.redis),
      concurrency: this.config.SCAN_CONCURRENCY,
      lockDuration: this.config.SCAN_JOB_LOCK_MS,
      stalledInterval: this.config.SCAN_JOB_LOCK_MS,
      maxStalledCount: 1,
      name: `pid-${process.pid}`,
    });
    this.worker.on('error', (e: Error) => this.logger.warn(`Scan worker: ${e.message}`));
    this.worker.on('failed', (job, e: Error) =>
      this.logger.warn(`Scan job ${job?.id ?? '?'} failed: ${decodeJobError(e.message).message}`),
    );
    await this.worker.waitUntilReady();
  }

  private async process(
    job: Job<ScanJobData, ScanJobResult>,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<ScanJobResult> {
    const startedAt = Date.now();
    let request: ReturnType<typeof parseScanJob>;
    try {
      request = parseScanJob(job.data);
    } catch (e) {
      throw new UnrecoverableError(encodeJobError(e));
    }
    // Nobody waits for a result that cannot come before the request gives up.
    if (startedAt > request.answerBy - this.config.SCAN_TOTAL_TIMEOUT_MS - SCAN_RUN_GRACE_MS) {
      throw new UnrecoverableError(
        encodeJobError(
          new DomainError(ErrorCode.ScanFailed, 'The scan waited too long for a free scan worker; please try again.'),
        ),
      );
    }
    try {
      const { report, waitedMs } = await this.runner.run(request.url, request.crawl, signal, request.options);
      return { reportId: report.id, waitedMs: startedAt - job.timestamp + waitedMs };
    } catch (e) {
      if (e instanceof ScanAborted && this.releasing && token) {
        await job.moveToWait(token); // another worker takes it from the start
        throw new WaitingError();
      }
      throw new UnrecoverableError(encodeJobError(e));
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const closing = worker.close(); // takes no new job; waits for the active ones
    if (!(await settledWithin(closing, this.config.SHUTDOWN_TIMEOUT_MS))) {
      this.logger.warn('Shutting down: scans still running are stopped and handed back to the queue.');
      this.releasing = true;
      worker.cancelAllJobs('worker shutting down');
      await settledWithin(closing, SCAN_RUN_GRACE_MS);
    }
    this.connection?.disconnect();
  }
}

/**
 * BullMQ's worker, loading a job whose payload is not JSON as {@link UNREADABLE_PAYLOAD} instead of
 * throwing (BullMQ would leave such a job active until it stalls twice), so the processor fails
 * that one job at once with a clear reason.
 */
class ScanJobWorker extends Worker<ScanJobData, ScanJobResult> {
  protected override createJob(data: JobJson, jobId: string): Job<ScanJobData, ScanJobResult> {
    try {
      JSON.parse(data.data || '{}');
    } catch {
      data = { ...data, data: JSON.stringify(UNREADABLE_PAYLOAD) };
    }
    return super.createJob(data, jobId);
  }
}
