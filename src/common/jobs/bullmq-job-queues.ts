import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { settledWithin } from '../async/settled-within';
import {
  checkQueueName,
  DEFAULT_JOB_BACKOFF_MS,
  escapeColons,
  JobHandler,
  JobOptions,
  JobQueues,
  nextCronRun,
  RegisterOptions,
  unescapeColons,
} from './job-queues';

/** Bound on one queue command (add, schedule): Redis down must not stall the caller. */
export const JOB_COMMAND_TIMEOUT_MS = 5000;
/** Shutdown waits this long for running jobs, then closes their workers anyway (the jobs stall and run again elsewhere). */
export const WORKER_CLOSE_MS = 10_000;
/** Shutdown waits this long for the queues' connection to close cleanly. */
const QUEUE_CLOSE_MS = 2000;

/**
 * BullMQ's job ids may not be integers nor contain ':'; callers' ids may. Ours are escaped and
 * prefixed (`j-`), and read back for the handler; ids BullMQ makes itself (scheduler runs) pass as they are.
 */
export const encodeJobId = (id: string): string => 'j-' + escapeColons(id);
export const decodeJobId = (id: string): string => (id.startsWith('j-') ? unescapeColons(id.slice(2)) : id);

/**
 * With REDIS_URL: one BullMQ Queue per queue name (sharing one connection) under the prefix
 * `REDIS_KEY_PREFIX + 'jobs'`, one Worker per registered handler (its own connection), and
 * repeating jobs as BullMQ job schedulers (`upsertJobScheduler`, cron pattern in UTC), so every
 * instance and worker process shares the jobs and a schedule fires once for the fleet. Finished jobs
 * are removed (their ids free again); a job whose worker died is detected as stalled and run again.
 */
export class BullJobQueues extends JobQueues implements OnApplicationShutdown {
  readonly kind = 'bullmq';
  private readonly logger = new Logger('Jobs');
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Map<string, { worker: Worker; connection: Redis }>();
  private connection: Redis | undefined;
  private closed = false;

  /**
   * @param connect a new Redis connection fit for BullMQ (`maxRetriesPerRequest: null`)
   * @param prefix BullMQ's key prefix
   */
  constructor(
    private readonly connect: () => Redis,
    private readonly prefix: string,
  ) {
    super();
  }

  private queue(name: string): Queue {
    checkQueueName(name);
    if (this.closed) throw new Error('The job queues are closed (shutting down).');
    let q = this.queues.get(name);
    if (!q) {
      if (!this.connection) {
        this.connection = this.connect();
        this.connection.on('error', () => undefined); // RedisService reports outages
      }
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      q.on('error', () => undefined);
      this.queues.set(name, q);
    }
    return q;
  }

  register<T>(queue: string, handler: JobHandler<T>, opts: RegisterOptions = {}): void {
    checkQueueName(queue);
    if (this.workers.has(queue)) throw new Error(`Job queue "${queue}" already has a handler.`);
    const connection = this.connect();
    connection.on('error', () => undefined);
    const worker = new Worker(
      queue,
      async (job: Job) => {
        await handler(job.data as T, { id: decodeJobId(job.id!), attempt: job.attemptsMade + 1 });
      },
      {
        connection,
        prefix: this.prefix,
        concurrency: Math.max(1, opts.concurrency ?? 1),
        maxStalledCount: Math.max(1, opts.stalledRuns ?? 1),
      },
    );
    worker.on('error', () => undefined);
    worker.on('failed', (job, e) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) {
        this.logger.warn(
          `Job ${decodeJobId(job.id!)} of queue ${queue} failed after ${job.attemptsMade} run(s): ${e.message}`,
        );
      }
    });
    this.workers.set(queue, { worker, connection });
  }

  async add<T>(queue: string, data: T, opts: JobOptions = {}): Promise<string> {
    const id = opts.jobId ?? randomUUID();
    const attempts = Math.max(1, opts.attempts ?? 1);
    await within(
      this.queue(queue).add(queue, data, {
        jobId: encodeJobId(id),
        delay: Math.max(0, opts.delayMs ?? 0),
        attempts,
        backoff: { type: 'exponential', delay: Math.max(0, opts.backoffMs ?? DEFAULT_JOB_BACKOFF_MS) },
        removeOnComplete: true,
        removeOnFail: true,
      }),
    );
    return id;
  }

  async schedule<T>(queue: string, schedulerId: string, cron: string, data: T): Promise<void> {
    nextCronRun(cron); // the same validation (and message) as in-process
    await within(
      this.queue(queue).upsertJobScheduler(
        escapeColons(schedulerId),
        { pattern: cron, tz: 'UTC' },
        { name: queue, data, opts: { removeOnComplete: true, removeOnFail: true } },
      ),
    );
  }

  async unschedule(queue: string, schedulerId: string): Promise<void> {
    await within(this.queue(queue).removeJobScheduler(escapeColons(schedulerId)));
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    // Every wait is bounded and every connection is dropped at the end: a hung or lost Redis never
    // holds the shutdown (unfinished jobs stall and run again on another worker).
    await Promise.all(
      [...this.workers.values()].map(async ({ worker, connection }) => {
        if (
          !(await settledWithin(
            worker.close().catch(() => undefined),
            WORKER_CLOSE_MS,
          ))
        )
          void worker.close(true).catch(() => undefined);
        connection.disconnect();
      }),
    );
    await settledWithin(
      Promise.all([...this.queues.values()].map((q) => q.close().catch(() => undefined))),
      QUEUE_CLOSE_MS,
    );
    this.connection?.disconnect();
  }
}

async function within<T>(p: Promise<T>): Promise<T> {
  const answer = await settledWithin(p, JOB_COMMAND_TIMEOUT_MS);
  if (!answer) throw new Error(`no answer from Redis within ${JOB_COMMAND_TIMEOUT_MS} ms`);
  return answer.value;
}
