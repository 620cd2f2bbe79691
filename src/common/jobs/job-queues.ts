import { CronExpressionParser } from 'cron-parser';

/**
 * Background jobs for every feature (alert deliveries, collection scans, schedules): one seam,
 * two implementations chosen in {@link JobsModule}: BullMQ queues, workers and job schedulers on
 * Redis when REDIS_URL is set (any instance or worker process may run a job; a job survives the
 * loss of the process that added it), and an in-process queue and cron timer otherwise.
 *
 * Semantics shared by both (tested against both in job-queues.spec.ts):
 * - Queue names are short words (`[A-Za-z0-9_-]`, no `:`; BullMQ forbids it).
 * - `add` with a `jobId` that is already waiting, delayed or running adds nothing and returns that
 *   id; once a job has finished (done or finally failed) its id may be used again.
 * - A handler that throws is retried up to `attempts` runs in all (default 1), waiting
 *   `backoffMs * 2^(n-1)` before run n+1 (exponential; default 1000 ms). The last failure is logged.
 * - `schedule` upserts a repeating job: a standard 5-field cron expression (or 6 with seconds),
 *   evaluated in UTC; an invalid expression throws at once. Each run is an ordinary job.
 * - Jobs added before their queue's handler is registered wait for it.
 */
export interface JobOptions {
  jobId?: string;
  delayMs?: number;
  attempts?: number;
  backoffMs?: number;
}

export type JobHandler<T> = (data: T, job: { id: string; attempt: number }) => Promise<void>;

export interface RegisterOptions {
  /** Jobs run at once in this process (default 1). */
  concurrency?: number;
  /**
   * BullMQ: how many times a job whose worker died (stalled) is run again before it fails (default 1). Raise it
   * only for a handler that resumes where the dead run left off. In process: no meaning (the process is gone).
   */
  stalledRuns?: number;
}

export abstract class JobQueues {
  /** Which implementation runs the jobs. */
  abstract readonly kind: 'bullmq' | 'in-process';
  /** Runs `handler` for the queue's jobs in this process, at most `concurrency` (default 1) at a time. */
  abstract register<T>(queue: string, handler: JobHandler<T>, opts?: RegisterOptions): void;
  /** Adds a job; returns its id. Same jobId as an unfinished job: nothing added. */
  abstract add<T>(queue: string, data: T, opts?: JobOptions): Promise<string>;
  /** Creates or replaces the repeating job `schedulerId` of `queue` (cron, UTC). */
  abstract schedule<T>(queue: string, schedulerId: string, cron: string, data: T): Promise<void>;
  /** Removes a repeating job (no error when there is none). */
  abstract unschedule(queue: string, schedulerId: string): Promise<void>;
}

/** Default wait before the second run of a failed job (doubled for each further run). */
export const DEFAULT_JOB_BACKOFF_MS = 1000;

const QUEUE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function checkQueueName(queue: string): void {
  if (!QUEUE_NAME.test(queue)) throw new Error(`Invalid job queue name "${queue}": use letters, digits, _ and - only.`);
}

/** `:` and `%` escaped (BullMQ gives `:` a meaning in job and scheduler ids). */
export const escapeColons = (id: string): string => id.replace(/%/g, '%25').replace(/:/g, '%3A');
export const unescapeColons = (id: string): string => id.replace(/%3A/g, ':').replace(/%25/g, '%');

/** The id of the run of scheduler `schedulerId` due at `at` (ms), as BullMQ names it. */
export const scheduledJobId = (schedulerId: string, at: number): string => `repeat:${escapeColons(schedulerId)}:${at}`;

/** The wait before run `attempt + 1` after run `attempt` failed. */
export function backoffDelayMs(backoffMs: number, attempt: number): number {
  return backoffMs * 2 ** (attempt - 1);
}

/** The next time `cron` (UTC) fires after `from`; throws a readable error for an invalid expression. */
export function nextCronRun(cron: string, from: Date = new Date()): Date {
  let expr;
  try {
    expr = CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: from, strict: false });
  } catch (e) {
    throw new Error(`Invalid cron expression "${cron}": ${(e as Error).message}`);
  }
  return expr.next().toDate();
}
