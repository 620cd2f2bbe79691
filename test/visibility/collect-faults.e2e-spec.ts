import { CollectService } from '../../src/visibility/collect/collect.service';
import { CollectStore } from '../../src/visibility/collect/collect.store';
import type { CollectedAnswer, RunRow, RunSetup } from '../../src/visibility/collect/collect.types';
import { TrackingService } from '../../src/visibility/tracking/tracking.service';
import { Child, childEnv, startOwnRedis, startServer, until } from '../a11y/fleet-processes';
import * as anthropic from '../ai/fixtures/anthropic';
import * as openai from '../ai/fixtures/openai';
import * as perplexity from '../ai/fixtures/perplexity';
import { platformEnv, ProviderServer } from '../ai/provider-servers';
import { TcpProxy } from '../utils/tcp-proxy';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../utils/test-app';
import { trackedWorkspace } from './tracked-workspace';

/**
 * Issue 22, "Bad input and faults" of a collection scan on BullMQ: the process running a scan
 * killed mid-scan (a real server process, SIGKILL), Redis lost mid-scan, a key revoked mid-scan.
 * Redis is the test's own redis-server, reached through the test's own TCP proxy (cut and restored
 * here; the shared servers are never touched). The platforms are a loopback server answering with
 * the vendors' documented bodies (test/ai/fixtures) after a simulated latency, so a scan is
 * caught half-way on a condition (answers stored), never on a sleep.
 */
const LATENCY_MS = 300;
const PLATFORMS = ['openai', 'perplexity', 'anthropic'] as const;
const PROMPTS = 8;
const SAMPLES = 2;
const PLANNED = PROMPTS * PLATFORMS.length * SAMPLES;

const providerEnv = (server: ProviderServer): Record<string, string> => ({
  ...platformEnv(server.url),
  AI_CONCURRENCY: '1',
  AI_MAX_RETRIES: '0',
});

/** Each vendor's documented answer, by path, after the simulated latency. */
function answerByPath(server: ProviderServer): void {
  server.handler = (req) =>
    req.path.startsWith('/openai/')
      ? { json: openai.responseWithWebSearch, hangMs: LATENCY_MS }
      : req.path.startsWith('/perplexity/')
        ? { json: perplexity.sonarAnswer, hangMs: LATENCY_MS }
        : req.path.startsWith('/anthropic/')
          ? { json: anthropic.webSearchAnswer, hangMs: LATENCY_MS }
          : undefined;
}

/** A workspace tracking PROMPTS prompts on the three platforms, SAMPLES samples each. */
function setUp(t: TestApp, slug: string): Promise<string> {
  return trackedWorkspace(t, slug, {
    platforms: PLATFORMS,
    samples: SAMPLES,
    prompts: Array.from({ length: PROMPTS }, (_, i) => `best project tracker ${i + 1}`),
    budget_calls: 10_000,
    budget_usd: 100,
  });
}

const key = (a: CollectedAnswer) => `${a.prompt_key}/${a.platform}/${a.sample}`;

async function waitFinished(store: CollectStore, id: string, ms: number): Promise<RunRow> {
  let run: RunRow | null = null;
  await until(
    async () => {
      run = await store.get(id);
      return run?.status === 'done' || run?.status === 'failed';
    },
    ms,
    `scan ${id} finished`,
  );
  return run!;
}

/** Whole or nothing: every planned call once in the answers, and one imported scan with all of them. */
async function expectImportedWhole(t: TestApp, run: RunRow): Promise<CollectedAnswer[]> {
  expect(run).toMatchObject({ status: 'done', planned: PLANNED, asked: PLANNED, error: null, stop_reason: null });
  const answers = await t.app.get(CollectStore).answers(run.id);
  expect(answers).toHaveLength(PLANNED);
  expect(new Set(answers.map(key)).size).toBe(PLANNED);
  expect(run.result!.answers.total).toBe(PLANNED);
  const scans = await t.dataSource.query<Array<{ answers: string }>>(
    `SELECT (SELECT count(*) FROM vis_answers a WHERE a.scan_id = s.id) AS answers FROM vis_scans s WHERE s.scan_key = $1`,
    [run.scan_key],
  );
  expect(scans.map((s) => Number(s.answers))).toEqual([PLANNED]);
  return answers;
}

const withPostgres = process.env.DATABASE_URL ? describe : describe.skip;

withPostgres('Collection scan faults: the process running it killed (e2e, real server processes, own Redis)', () => {
  let own: { url: string; stop(): Promise<void> };
  let proxy: TcpProxy;
  let platforms: ProviderServer;
  let db: TestDatabase;
  let t: TestApp | undefined;
  const children: Child[] = [];

  beforeAll(async () => {
    own = await startOwnRedis();
    proxy = await TcpProxy.start(Number(new URL(own.url).port));
    platforms = await ProviderServer.start();
    answerByPath(platforms);
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const c of children) await c.kill();
    await t?.close();
    await db?.drop();
    await platforms?.close();
    await proxy?.close();
    await own?.stop();
  });

  it('a server killed mid-scan: another process resumes the scan, asks only what is missing, imports it whole once', async () => {
    // This jest process sets up the workspace (its own jobs are in another Redis namespace); the
    // scan runs in child servers sharing the database and the own Redis (through the proxy).
    t = await createTestApp({ database: db, env: providerEnv(platforms) });
    const workspaceId = await setUp(t, 'faults-kill');
    const tracking = t.app.get(TrackingService);
    const store = t.app.get(CollectStore);
    const s = await tracking.settings(workspaceId);
    const setup: RunSetup = {
      business: s.business,
      brand: s.brand,
      competitors: s.competitors,
      prompts: await tracking.allPrompts(workspaceId),
      platforms: [...PLATFORMS],
      samples: SAMPLES,
    };
    // A queued run (as "Run now" leaves it): the first server queues it at start-up and runs it.
    const id = (await store.create({
      workspaceId,
      trigger: 'manual',
      setup,
      planned: PLANNED,
      budgetCalls: 10_000,
      budgetUsd: 100,
      date: new Date().toISOString().slice(0, 10),
    }))!;
    const env = childEnv({
      ...db.env,
      ...providerEnv(platforms),
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: 'vis-faults-kill:',
      SCAN_WORKER_IN_PROCESS: 'false',
    });
    const first = await startServer(env);
    children.push(first);
    await until(async () => (await store.get(id))!.asked >= 6, 60_000, 'the first server has stored 6 answers');
    first.proc.kill('SIGKILL');
    await first.exited;
    const atKill = await store.answers(id);
    const requestsAtKill = platforms.requests.length;
    expect(atKill.length).toBeLessThan(PLANNED);
    expect((await store.get(id))!.status).toBe('running');

    // Another process: it finds the job its dead owner held (BullMQ's stalled-job check), waits for
    // the dead heartbeat to go stale, claims the run and asks the rest.
    children.push(await startServer(env));
    const run = await waitFinished(store, id, 200_000);
    const answers = await expectImportedWhole(t, run);
    // What was stored before the crash is kept as it was (not asked again).
    const kept = new Map(answers.map((a) => [key(a), a]));
    for (const a of atKill) expect(kept.get(key(a))).toEqual(a);
    // Only what was missing was asked: every call without a stored answer once (the ones in flight at
    // the kill among them), plus at most one request per platform the dead process sent as it died.
    const missing = PLANNED - atKill.length;
    const askedAfter = platforms.requests.length - requestsAtKill;
    expect(askedAfter).toBeGreaterThanOrEqual(missing);
    expect(askedAfter).toBeLessThanOrEqual(missing + PLATFORMS.length);
  }, 300_000);
});

describe('Collection scan faults: Redis lost, a key revoked, the US$ budget (e2e, own Redis through a TCP proxy)', () => {
  let own: { url: string; stop(): Promise<void> };
  let proxy: TcpProxy;
  let platforms: ProviderServer;
  let t: TestApp;
  let workspaceId: string;

  beforeAll(async () => {
    own = await startOwnRedis();
    proxy = await TcpProxy.start(Number(new URL(own.url).port));
    platforms = await ProviderServer.start();
    t = await createTestApp({
      env: {
        ...providerEnv(platforms),
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        REDIS_KEY_PREFIX: 'vis-faults-lost:',
      },
    });
    workspaceId = await setUp(t, 'faults-redis');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await platforms?.close();
    await proxy?.close();
    await own?.stop();
  });
  beforeEach(() => {
    platforms.reset();
    answerByPath(platforms);
  });

  it('Redis lost mid-scan: the scan goes on without it, and once Redis is back it is imported whole, no call asked twice', async () => {
    const store = t.app.get(CollectStore);
    const { run } = await t.app.get(CollectService).start(workspaceId, 'manual');
    await until(async () => (await store.get(run.id))!.asked >= 6, 60_000, 'six answers stored');
    await proxy.refuse();
    try {
      expect((await store.get(run.id))!.asked).toBeLessThan(PLANNED);
      // The asking needs the database and the platforms, not Redis: every call is asked meanwhile.
      await until(
        async () => (await store.get(run.id))!.asked === PLANNED,
        60_000,
        'every call asked while Redis is unreachable',
      );
    } finally {
      await proxy.restore();
    }
    const done = await waitFinished(store, run.id, 120_000);
    await expectImportedWhole(t, done);
    expect(platforms.requests).toHaveLength(PLANNED);
    // Redis back: the next Run now is queued and runs.
    const next = await t.app.get(CollectService).start(workspaceId, 'manual');
    expect(next.created).toBe(true);
    expect((await waitFinished(store, next.run.id, 120_000)).status).toBe('done');
  }, 240_000);

  it('a key revoked mid-scan: the calls before stand, the rest of that platform is recorded as failed, the others finish', async () => {
    let openaiCalls = 0;
    const others = (req: Parameters<NonNullable<ProviderServer['handler']>>[0]) =>
      req.path.startsWith('/perplexity/')
        ? { json: perplexity.sonarAnswer, hangMs: LATENCY_MS }
        : { json: anthropic.webSearchAnswer, hangMs: LATENCY_MS };
    platforms.handler = (req) => {
      if (!req.path.startsWith('/openai/')) return others(req);
      return ++openaiCalls <= 3
        ? { json: openai.responseWithWebSearch, hangMs: LATENCY_MS }
        : { status: 401, json: openai.invalidApiKey, hangMs: LATENCY_MS };
    };
    const store = t.app.get(CollectStore);
    const { run } = await t.app.get(CollectService).start(workspaceId, 'manual');
    const done = await waitFinished(store, run.id, 120_000);
    expect(done).toMatchObject({ status: 'done', asked: PLANNED, stop_reason: null });
    const answers = await store.answers(run.id);
    const mine = answers.filter((a) => a.platform === 'openai');
    expect(mine.filter((a) => a.status === 'ok')).toHaveLength(3);
    const refused = mine.filter((a) => a.status !== 'ok');
    expect(new Set(refused.map((a) => a.status))).toEqual(new Set(['ai_unauthorized']));
    // Calls in flight when the key was refused were answered 401 too; the rest were not made.
    const made = platforms.requests.filter((r) => r.path.startsWith('/openai/')).length;
    expect(refused.filter((a) => a.reason!.startsWith('Not asked: '))).toHaveLength(PROMPTS * SAMPLES - made);
    expect(made).toBeLessThan(PROMPTS * SAMPLES);
    expect(answers.filter((a) => a.platform !== 'openai').every((a) => a.status === 'ok')).toBe(true);
    expect(done.failed).toBe(refused.length);
    expect(done.result!.answers.total).toBe(PLANNED);
  }, 120_000);

  it("the US$ budget counts each answer at its model's prices plus the search fees, and stops the scan cleanly", async () => {
    const tracking = t.app.get(TrackingService);
    await tracking.update(workspaceId, { platforms: ['openai'], budget_usd: 0.05 });
    try {
      const store = t.app.get(CollectStore);
      const { run } = await t.app.get(CollectService).start(workspaceId, 'manual');
      const done = await waitFinished(store, run.id, 120_000);
      // gpt-5-mini: 328 input and 356 output tokens at US$ 0.25 / 2 per million, and two searches at
      // US$ 10 per 1,000: US$ 0.020794 a call, so the budget is reached after the third (one call
      // in flight at a time: AI_CONCURRENCY=1, one platform).
      const perCall = (328 * 0.25 + 356 * 2) / 1e6 + 2 * 0.01;
      const answers = await store.answers(run.id);
      expect(answers.map((a) => a.cost_usd)).toEqual([perCall, perCall, perCall].map((c) => expect.closeTo(c, 9)));
      expect(answers.every((a) => a.status === 'ok' && a.reason === null)).toBe(true);
      expect(done).toMatchObject({ status: 'done', asked: 3, planned: PROMPTS * SAMPLES });
      expect(done.cost_usd).toBeCloseTo(3 * perCall, 9);
      expect(done.stop_reason).toBe(
        `Stopped at the budget of US$ 0.05 (estimated US$ 0.06 spent): ${PROMPTS * SAMPLES - 3} calls not made.`,
      );
      expect(done.result!.answers.total).toBe(3);
    } finally {
      await tracking.update(workspaceId, { platforms: [...PLATFORMS], budget_usd: 100 });
    }
  }, 120_000);
});
