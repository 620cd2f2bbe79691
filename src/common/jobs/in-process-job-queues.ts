import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  backoffDelayMs,
  checkQueueName,
  DEFAULT_JOB_BACKOFF_MS,
  JobHandler,
  JobOptions,
  JobQueues,
  nextCronRun,
  RegisterOptions,
  scheduledJobId,
} from './job-queues';

/** setTimeout's longest delay; longer waits re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface PendingJob {
  id: string;
  queue: string;
  data: unknown;
  attempt: number;
  attempts: number;
  backoffMs: number;
}

interface QueueState {
  handler?: JobHandler<unknown>;
  concurrency: number;
  running: number;
  ready: PendingJob[];
}

/**
 * Without Redis: jobs live in this process's memory (lost with it: the embedded default is one
 * process) and schedules are timers computed with cron-parser. Same semantics as the BullMQ
 * implementation (see job-queues.ts). At shutdown no job starts any more, timers stop, and running
 * handlers are awaited.
 */
export class InProcessJobQueues extends JobQueues implements OnApplicationShutdown {
  readonly kind = 'in-process';
  private readonly logger = new Logger('Jobs');
  private readonly queues = new Map<string, QueueState>();
  /** Unfinished jobs by queue + id (waiting, delayed, running). */
  private readonly unfinished = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly schedulers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  register<T>(queue: string, handler: JobHandler<T>, opts: RegisterOptions = {}): void {
    checkQueueName(queue);
    const state = this.state(queue);
    if (state.handler) throw new Error(`Job queue "${queue}" already has a handler.`);
    state.handler = handler as JobHandler<unknown>;
    state.concurrency = Math.max(1, opts.concurrency ?? 1);
    this.pump(queue);
  }

  /** Async so that errors become rejections, as in BullMQ. */
  async add<T>(queue: string, data: T, opts: JobOptions = {}): Promise<string> {
    checkQueueName(queue);
    if (this.closed) throw new Error('The job queues are closed (shutting down).');
    const id = opts.jobId ?? randomUUID();
    const key = `${queue}\u0000${id}`;
    if (this.unfinished.has(key)) return id;
    this.unfinished.add(key);
    const job: PendingJob = {
      id,
      queue,
      data: jsonCopy(data), // as BullMQ stores it: a handler never sees the caller's object
      attempt: 1,
      attempts: Math.max(1, opts.attempts ?? 1),
      backoffMs: Math.max(0, opts.backoffMs ?? DEFAULT_JOB_BACKOFF_MS),
    };
    this.after(opts.delayMs ?? 0, () => this.enqueue(job));
    return id;
  }

  async schedule<T>(queue: string, schedulerId: string, cron: string, data: T): Promise<void> {
    checkQueueName(queue);
    nextCronRun(cron); // throws now for an invalid expression
    this.clearScheduler(queue, schedulerId);
    const key = `${queue}\u0000${schedulerId}`;
    const arm = (): void => {
      if (this.closed) return;
      const at = nextCronRun(cron).getTime();
      const fire = (): void => {
        this.schedulers.delete(key);
        if (Date.now() < at) return arm(); // a wait longer than one timer
        void this.add(queue, data, { jobId: scheduledJobId(schedulerId, at) }).catch(() => undefined);
        arm();
      };
      const t = setTimeout(fire, Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now())));
      t.unref();
      this.schedulers.set(key, t);
    };
    arm();
  }

  /** The ids of the queue's schedules armed in this process (they live as long as it does). */
  schedulerIds(queue: string): string[] {
    const prefix = `${queue}\u0000`;
    return [...this.schedulers.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  }

  unschedule(queue: string, schedulerId: string): Promise<void> {
    this.clearScheduler(queue, schedulerId);
    return Promise.resolve();
  }

  private clearScheduler(queue: string, schedulerId: string): void {
    const key = `${queue}\u0000${schedulerId}`;
    const t = this.schedulers.get(key);
    if (t) clearTimeout(t);
    this.schedulers.delete(key);
  }

  private state(queue: string): QueueState {
    let s = this.queues.get(queue);
    if (!s) {
      s = { concurrency: 1, running: 0, ready: [] };
      this.queues.set(queue, s);
    }
    return s;
  }

  private after(ms: number, fn: () => void): void {
    if (ms <= 0) return fn();
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        fn();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    t.unref();
    this.timers.add(t);
  }

  private enqueue(job: PendingJob): void {
    this.state(job.queue).ready.push(job);
    this.pump(job.queue);
  }

  private pump(queue: string): void {
    const s = this.state(queue);
    while (!this.closed && s.handler && s.running < s.concurrency && s.ready.length > 0) {
      const job = s.ready.shift()!;
      s.running++;
      const run = this.run(s.handler, job).finally(() => {
        s.running--;
        this.inFlight.delete(run);
        this.pump(queue);
      });
      this.inFlight.add(run);
    }
  }

  private async run(handler: JobHandler<unknown>, job: PendingJob): Promise<void> {
    const key = `${job.queue}\u0000${job.id}`;
    try {
      await handler(job.data, { id: job.id, attempt: job.attempt });
      this.unfinished.delete(key);
    } catch (e) {
      if (job.attempt < job.attempts && !this.closed) {
        const wait = backoffDelayMs(job.backoffMs, job.attempt);
        job.attempt++;
        this.after(wait, () => this.enqueue(job));
        return;
      }
      this.unfinished.delete(key);
      this.logger.warn(
        `Job ${job.id} of queue ${job.queue} failed after ${job.attempt} run(s): ${(e as Error).message}`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    for (const t of this.schedulers.values()) clearTimeout(t);
    this.timers.clear();
    this.schedulers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}

function jsonCopy(data: unknown): unknown {
  return data === undefined ? undefined : JSON.parse(JSON.stringify(data));
}
