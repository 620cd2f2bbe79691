import { Job, Queue, QueueEvents } from 'bullmq';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { SCAN_QUEUE_NAME } from '../../src/a11y/queue/scan-job';
import { createTestDatabase, METRICS_AUTH, TEST_METRICS_TOKEN, TestDatabase } from '../utils/test-app';
import { FixtureServer, GOOD_PAGE, send, startFixtureServer } from './fixture-server';
import { Child, childEnv, chromiumPidsUnder, http, startServer, startWorker, until } from './fleet-processes';

/**
 * Issue 12, item 1: two API instances (no in-process worker) and two scan worker processes on one
 * Redis and one PostgreSQL (needs DATABASE_URL and REDIS_URL), real Chromium, pages on loopback.
 */
const withFleet = process.env.REDIS_URL && process.env.DATABASE_URL ? describe : describe.skip;

withFleet('Scan fleet: API instances and worker processes on one BullMQ queue (e2e, real processes)', () => {
  let db: TestDatabase;
  let site: FixtureServer;
  const apis: Child[] = [];
  let workers: Child[] = [];
  let redis: Redis;
  let queue: Queue;
  let events: QueueEvents;
  let eventsConnection: Redis;
  const prefix = `beacon-test:${randomBytes(4).toString('hex')}:`;
  /** Requests per path, to hold a page open (`/slow?ms=`), and the pages' hits. */
  const hits = new Map<string, number>();
  /** Pages held by `/gate` until the test opens them, by query string. */
  const gates = new Map<string, () => void>();
  let clients = 0;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/good': (_q, res) => send(res, 200, GOOD_PAGE),
      // held for a minute the first time (a scan that outlives its worker's shutdown), at once after
      '/hold': (req, res) => {
        const u = new URL(req.url ?? '/', 'http://x');
        hits.set(u.search, (hits.get(u.search) ?? 0) + 1);
        const t = setTimeout(() => send(res, 200, GOOD_PAGE), hits.get(u.search) === 1 ? 60_000 : 0);
        res.on('close', () => clearTimeout(t));
      },
      // held until the test opens it (`gates`), however long that takes on a busy machine
      '/gate': (req, res) => {
        const u = new URL(req.url ?? '/', 'http://x');
        hits.set(u.search, (hits.get(u.search) ?? 0) + 1);
        gates.set(u.search, () => send(res, 200, GOOD_PAGE));
      },
      '/slow': (req, res) => {
        const u = new URL(req.url ?? '/', 'http://x');
        hits.set(u.search, (hits.get(u.search) ?? 0) + 1);
        setTimeout(() => send(res, 200, GOOD_PAGE), Number(u.searchParams.get('ms') ?? 1500));
      },
    });
    db = await createTestDatabase();
    const common = {
      ...db.env,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
      SCAN_RATE_LIMIT: '1000',
      SCAN_CONCURRENCY: '1',
      SCAN_QUEUE_LIMIT: '2',
      SCAN_JOB_LOCK_MS: '3000',
      SCAN_PAGE_TIMEOUT_MS: '20000',
      TRUST_PROXY: '1',
      METRICS_TOKEN: TEST_METRICS_TOKEN,
    };
    const api = { ...common, SCAN_WORKER_IN_PROCESS: 'false', SHUTDOWN_TIMEOUT_MS: '3000' };
    const worker = { ...common, SHUTDOWN_TIMEOUT_MS: '12000' };
    // One API first: it runs the migrations; the others start together.
    apis.push(await startServer(childEnv(api)));
    // three workers: one is killed, one stopped handing its scan to another, the last stopped alone
    const started = await Promise.all([
      startServer(childEnv(api)),
      startWorker(childEnv(worker)),
      startWorker(childEnv(worker)),
      startWorker(childEnv(worker)),
    ]);
    apis.push(started[0]);
    workers = started.slice(1);
    redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    queue = new Queue(SCAN_QUEUE_NAME, { connection: redis, prefix: `${prefix}bull` });
    events = new QueueEvents(SCAN_QUEUE_NAME, {
      connection: (eventsConnection = redis.duplicate()),
      prefix: `${prefix}bull`,
    });
    await events.waitUntilReady();
  }, 240_000);

  afterAll(async () => {
    await events?.close();
    await queue?.close();
    redis?.disconnect();
    eventsConnection?.disconnect();
    for (const c of [...apis, ...workers]) await c.kill();
    await db?.drop();
    await site?.close();
  });

  const scan = (api: Child, path: string) =>
    http(
      api.port!,
      'POST',
      '/api/scan',
      { url: `${site.origin}${path}` },
      { 'X-Forwarded-For': `198.51.100.${++clients % 250}` },
    );
  const metric = async (name: string): Promise<number> => {
    const text = (await http(apis[0].port!, 'GET', '/metrics', undefined, METRICS_AUTH)).body;
    const line = text.split('\n').find((l) => l.startsWith(name));
    return line ? Number(line.split(' ').pop()) : NaN;
  };
  const running = (w: Child) => chromiumPidsUnder(w.tmp).length > 0;

  it('scans from both APIs succeed, identical concurrent scans share one run, jobs spread over both workers', async () => {
    const [a, b] = await Promise.all([scan(apis[0], '/slow?shared'), scan(apis[1], '/slow?shared')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json().id).toBe(b.json().id);
    expect(hits.get('?shared')).toBe(1);
    // distinct pages, each sent once the previous one runs (a job counts against SCAN_QUEUE_LIMIT until
    // a worker takes it): three running at once means three workers (one slot each) took them
    const running3: Promise<{ status: number; json(): Record<string, unknown> }>[] = [];
    for (let i = 0; i < 3; i++) {
      running3.push(scan(apis[i % 2], `/slow?ms=4000&spread-${i}`));
      await until(async () => (await queue.getActiveCount()) === i + 1, 30_000, `scan ${i} running`);
    }
    const many = await Promise.all(running3);
    expect(many.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(workers.filter(running).length).toBeGreaterThanOrEqual(2); // the jobs spread over the workers
    const stored = await http(apis[1].port!, 'GET', `/api/scan/${String(many[0].json().id)}`);
    expect(stored.status).toBe(200);
    expect(await metric('scan_workers')).toBe(3);
    expect(await metric('scan_queue_jobs{state="waiting"}')).toBe(0);
    expect(await metric('scan_queue_wait_seconds_count')).toBeGreaterThan(0);
  }, 120_000);

  it('a full queue answers 503 service_unavailable with Retry-After; the queued scans still finish', async () => {
    // three running (one per worker), two waiting (SCAN_QUEUE_LIMIT), the sixth is refused
    const pending: Promise<{ status: number }>[] = [];
    for (let i = 0; i < 5; i++) {
      pending.push(scan(apis[i % 2], `/slow?ms=4000&full-${i}`));
      await until(
        async () =>
          (await metric('scan_queue_jobs{state="active"}')) + (await metric('scan_queue_jobs{state="waiting"}')) ===
          i + 1,
        30_000,
        `job ${i} queued`,
      );
    }
    const refused = await scan(apis[1], '/good?full-refused');
    expect(refused.status).toBe(503);
    expect(refused.json().error).toBe('service_unavailable');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  }, 120_000);

  it('a job whose payload does not parse fails on its own with a clear reason; the next scan works', async () => {
    const failed = new Promise<string>((resolve) =>
      events.on('failed', ({ jobId, failedReason }) => jobId === 'garbage-1' && resolve(failedReason)),
    );
    await queue.add('scan', { v: 99, url: 42 }, { jobId: 'garbage-1', removeOnFail: true });
    expect(await failed).toMatch(/could not be read \(payload version 99/);
    expect((await scan(apis[0], '/good?after-garbage')).status).toBe(200);
  }, 60_000);

  it('a job whose payload is not JSON at all (raw bytes) fails on its own with a clear reason; the next scan works', async () => {
    const failed = new Promise<string>((resolve) =>
      events.on('failed', ({ jobId, failedReason }) => jobId === 'garbage-raw' && resolve(failedReason)),
    );
    const job = await queue.add('scan', {}, { jobId: 'garbage-raw', delay: 600_000, removeOnFail: true });
    await redis.hset(
      `${prefix}bull:${SCAN_QUEUE_NAME}:garbage-raw`,
      'data',
      Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22]),
    );
    await job.promote();
    expect(await failed).toMatch(/could not be read \(the payload is not JSON\)/);
    expect((await scan(apis[0], '/good?after-raw-garbage')).status).toBe(200);
  }, 60_000);

  it('SIGTERM to an API while its request waits for a queued job: a clear 503 before it exits 0; the job still runs and its report is cached', async () => {
    const busy = workers.map((_, i) => scan(apis[0], `/slow?ms=4000&busy-${i}`));
    await until(async () => (await queue.getActiveCount()) === workers.length, 30_000, 'every worker is busy');
    const stopping = apis[1];
    const waiting = scan(stopping, '/good?api-stop');
    await until(async () => (await queue.getWaitingCount()) === 1, 30_000, 'the scan is queued');
    stopping.proc.kill('SIGTERM');
    const res = await waiting;
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({ ok: false, error: 'service_unavailable' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await stopping.exited).toBe(0);
    apis.splice(1, 1);
    expect((await Promise.all(busy)).map((r) => r.status)).toEqual(workers.map(() => 200));
    await until(
      async () => (await queue.getWaitingCount()) + (await queue.getActiveCount()) === 0,
      60_000,
      'the queued job ran',
    );
    const retry = await scan(apis[0], '/good?api-stop');
    expect(retry.status).toBe(200);
    expect(retry.json().cached).toBe(true);
  }, 120_000);

  it('kill -9 of a worker mid-scan: the job runs once more on the other worker (or fails with 502); no Chromium left behind', async () => {
    const pending = scan(apis[0], '/slow?ms=5000&killed');
    let job: Job | undefined;
    await until(
      async () =>
        (job = (await queue.getActive())[0]) !== undefined && !!job.processedBy && hits.get('?ms=5000&killed') === 1,
      30_000,
      'the page is loading',
    );
    const victim = workers.find((w) => job!.processedBy === `pid-${w.proc.pid}`)!;
    expect(victim).toBeDefined();
    victim.proc.kill('SIGKILL');
    await victim.exited;
    const res = await pending;
    expect([200, 502]).toContain(res.status);
    if (res.status === 502) expect(res.json().error).toBe('scan_failed');
    else expect(hits.get('?ms=5000&killed')).toBe(2); // started again from the beginning
    await until(() => chromiumPidsUnder(victim.tmp).length === 0, 15_000, "the killed worker's Chromium exits");
    workers = workers.filter((w) => w !== victim);
  }, 120_000);

  it('SIGTERM to a worker whose scan outlives SHUTDOWN_TIMEOUT_MS: it takes no new job, hands the scan back, exits 0; the other worker runs both', async () => {
    const handedBack = scan(apis[0], '/hold?handback');
    await until(async () => hits.get('?handback') === 1, 30_000, 'the held page is loading');
    const job = (await queue.getActive())[0];
    const victim = workers.find((w) => job?.processedBy === `pid-${w.proc.pid}`)!;
    expect(victim).toBeDefined();
    const other = scan(apis[0], '/slow?ms=3000&hb-busy');
    await until(async () => (await queue.getActiveCount()) === 2, 30_000, 'both workers are busy');
    const queued = scan(apis[0], '/good?hb-queued');
    await until(async () => (await queue.getWaitingCount()) === 1, 30_000, 'a scan is queued');
    victim.proc.kill('SIGTERM');
    expect((await Promise.all([handedBack, other, queued])).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(hits.get('?handback')).toBe(2); // started again from the beginning on the other worker
    expect(await victim.exited).toBe(0);
    expect(chromiumPidsUnder(victim.tmp)).toEqual([]);
    workers = workers.filter((w) => w !== victim);
  }, 120_000);

  it('SIGTERM to the last worker: its active scan finishes; the queued scans end in 503 "no scan worker" and leave the queue; it exits 0', async () => {
    expect(workers).toHaveLength(1);
    const [last] = workers;
    // The page is held until both scans are queued and the worker has its SIGTERM; only then does
    // it load, so the whole of the worker's SHUTDOWN_TIMEOUT_MS is left for the scan to finish (a
    // page held a fixed time left it only what the machine's load had not used up).
    const active = scan(apis[0], '/gate?last-active');
    await until(async () => hits.get('?last-active') === 1, 30_000, 'the held page is loading');
    const queued = [scan(apis[0], '/good?last-q1'), scan(apis[0], '/good?last-q2')];
    await until(async () => (await queue.getWaitingCount()) === 2, 30_000, 'two scans are queued');
    last.proc.kill('SIGTERM');
    gates.get('?last-active')!();
    expect((await active).status).toBe(200);
    for (const res of await Promise.all(queued)) {
      expect(res.status).toBe(503);
      expect(res.json()).toMatchObject({ ok: false, error: 'service_unavailable' });
      expect(String(res.json().message)).toMatch(/no scan worker is running/i);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
      prioritized: 0,
    });
    expect(await last.exited).toBe(0);
    expect(chromiumPidsUnder(last.tmp)).toEqual([]);
  }, 120_000);
});
