import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { BullJobQueues, decodeJobId, encodeJobId } from './bullmq-job-queues';
import { InProcessJobQueues } from './in-process-job-queues';
import { JobQueues, nextCronRun } from './job-queues';

/** The same behaviour from both implementations: in-process always, BullMQ on the REDIS_URL of the run. */
type Closable = JobQueues & { onApplicationShutdown(): Promise<void> };
const implementations: [string, () => Closable][] = [['in-process', () => new InProcessJobQueues()]];
if (process.env.REDIS_URL) {
  const url = process.env.REDIS_URL;
  implementations.push([
    'bullmq',
    () =>
      new BullJobQueues(
        () => new Redis(url, { maxRetriesPerRequest: null }),
        `beacon-test:${randomBytes(4).toString('hex')}:jobs`,
      ),
  ]);
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(implementations)('JobQueues (%s)', (_name, create) => {
  let jobs: Closable;
  beforeEach(() => {
    jobs = create();
  });
  afterEach(async () => {
    await jobs.onApplicationShutdown();
  });

  it('runs a job added before its handler, with its data and id (colons kept)', async () => {
    const seen: { data: unknown; id: string; attempt: number }[] = [];
    const id = await jobs.add('alpha', { n: 1, at: 'x' }, { jobId: 'ws:1:drop' });
    expect(id).toBe('ws:1:drop');
    jobs.register<{ n: number }>('alpha', async (data, job) => {
      seen.push({ data, ...job });
    });
    await until(() => seen.length === 1);
    expect(seen[0]).toEqual({ data: { n: 1, at: 'x' }, id: 'ws:1:drop', attempt: 1 });
    const generated = await jobs.add('alpha', { n: 2 });
    await until(() => seen.length === 2);
    expect(seen[1].id).toBe(generated);
  });

  it('adds nothing for the id of an unfinished job, and accepts it again once finished', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const runs: number[] = [];
    jobs.register<{ n: number }>('beta', async (data) => {
      runs.push(data.n);
      await gate;
    });
    await jobs.add('beta', { n: 1 }, { jobId: 'same' });
    await until(() => runs.length === 1);
    await jobs.add('beta', { n: 2 }, { jobId: 'same' }); // running: ignored
    release();
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toEqual([1]);
    await jobs.add('beta', { n: 3 }, { jobId: 'same' });
    await until(() => runs.length === 2);
    expect(runs).toEqual([1, 3]);
  });

  it('retries a failing handler with exponential backoff, up to attempts', async () => {
    const at: { attempt: number; t: number }[] = [];
    jobs.register('gamma', async (_d, job) => {
      at.push({ attempt: job.attempt, t: Date.now() });
      if (job.attempt < 3) throw new Error('endpoint answered 500');
    });
    await jobs.add('gamma', {}, { attempts: 3, backoffMs: 100 });
    await until(() => at.length === 3);
    expect(at.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(at[1].t - at[0].t).toBeGreaterThanOrEqual(95);
    expect(at[2].t - at[1].t).toBeGreaterThanOrEqual(195);
    // a job that always fails stops after its attempts
    const failing: number[] = [];
    jobs.register('delta', async (_d, job) => {
      failing.push(job.attempt);
      throw new Error('always');
    });
    await jobs.add('delta', {}, { attempts: 2, backoffMs: 10 });
    await until(() => failing.length === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(failing).toEqual([1, 2]);
  });

  it('delays a job and bounds concurrency', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    jobs.register(
      'epsilon',
      async () => {
        started.push(Date.now());
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 50));
        running--;
      },
      { concurrency: 2 },
    );
    const t0 = Date.now();
    await jobs.add('epsilon', {}, { delayMs: 300 });
    await until(() => started.length === 1);
    expect(started[0] - t0).toBeGreaterThanOrEqual(290);
    await Promise.all([1, 2, 3, 4].map(() => jobs.add('epsilon', {})));
    await until(() => started.length === 5 && running === 0);
    expect(most).toBe(2);
  });

  it('runs a schedule (cron, UTC) until unscheduled; refuses an invalid expression', async () => {
    const runs: { data: unknown; id: string }[] = [];
    jobs.register('zeta', async (data, job) => {
      runs.push({ data, id: job.id });
    });
    await jobs.schedule('zeta', 'ws:9', '* * * * * *', { v: 1 }); // every second
    await jobs.schedule('zeta', 'ws:9', '* * * * * *', { v: 2 }); // upsert: replaces
    await until(() => runs.some((r) => (r.data as { v: number }).v === 2), 5000);
    // The first schedule may have run once, if a second's boundary fell between the two calls (a busy
    // machine); from the replacement on, only the new data runs.
    const first = runs.findIndex((r) => (r.data as { v: number }).v === 2);
    expect(first).toBeLessThanOrEqual(1);
    expect(runs.slice(0, first).map((r) => r.data)).toEqual(first === 0 ? [] : [{ v: 1 }]);
    expect(runs.slice(first).map((r) => r.data)).toEqual(runs.slice(first).map(() => ({ v: 2 })));
    expect(runs[first].id).toMatch(/^repeat:ws%3A9:\d+$/);
    await jobs.unschedule('zeta', 'ws:9');
    const n = runs.length;
    await new Promise((r) => setTimeout(r, 1300));
    expect(runs.length).toBeLessThanOrEqual(n + 1); // one run may have been due as it was removed
    await expect(jobs.schedule('zeta', 'bad', 'every tuesday', {})).rejects.toThrow(/Invalid cron expression/);
  });

  it('refuses a queue name BullMQ cannot hold and a second handler', () => {
    expect(() => jobs.register('a:b', async () => undefined)).toThrow(/Invalid job queue name/);
    jobs.register('eta', async () => undefined);
    expect(() => jobs.register('eta', async () => undefined)).toThrow(/already has a handler/);
  });
});

describe('job ids and cron', () => {
  it('escapes ids for BullMQ and reads them back', () => {
    for (const id of ['123', 'a:b:c', '%3A:', 'plain']) {
      expect(encodeJobId(id)).not.toMatch(/:/);
      expect(decodeJobId(encodeJobId(id))).toBe(id);
    }
  });

  it('computes the next run in UTC', () => {
    expect(nextCronRun('0 6 * * 1', new Date('2026-11-26T12:00:00Z')).toISOString()).toBe('2026-11-30T06:00:00.000Z');
  });
});
