import { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import request from 'supertest';
import { demoImports } from '../../src/visibility/demo/demo-data';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { freePort, startRedis, stopRedis } from '../utils/own-redis';
import { createTestApp, METRICS_AUTH, TestApp } from '../utils/test-app';

const quantile = (ms: number[], q: number): number => [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * q) - 1];
const p99 = (ms: number[]): number => quantile(ms, 0.99);
const median = (ms: number[]): number => quantile(ms, 0.5);

describe("Redis outage (e2e, a Redis server of the test's own)", () => {
  let redis: ChildProcess;
  let port: number;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}`, VISIBILITY_RATE_LIMIT: '100000' } });
    const created = await t.createKey();
    key = created.key;
    for (const f of demoImports({ scans: 2, prompts: 21, seed: 3, scanPrefix: 'r' }))
      await t.app.get(VisibilityIngestService).importScan(created.workspace, f);
  });
  afterAll(async () => {
    await t?.close();
    if (redis) await stopRedis(redis);
  });

  const visibility = () => request(t.server).get('/api/v1/visibility').set('Authorization', `Bearer ${key}`);

  it('while Redis is down: no 500, no stall (as fast as with Redis up, no request waits out a Redis command), limits per instance; then it resumes', async () => {
    const up = await visibility().expect(200);
    const status = up.status;
    const shared = new Redis({ port, host: '127.0.0.1' });
    expect(await shared.keys('*rl*')).not.toHaveLength(0); // counters live in Redis while it is up
    shared.disconnect();

    // The same requests with Redis up: on a loaded machine both numbers rise together.
    const baseline: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = process.hrtime.bigint();
      await visibility().expect(200);
      baseline.push(Number(process.hrtime.bigint() - started) / 1e6);
    }

    await stopRedis(redis);
    const times: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = process.hrtime.bigint();
      const res = await visibility();
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      expect(res.status).toBe(status);
      remaining.push(Number(res.headers['ratelimit-remaining']));
    }
    // Still rate limited, now by this instance's memory: the count goes on going down.
    expect(remaining[199]).toBeLessThan(remaining[0]);
    const burst = await Promise.all(Array.from({ length: 20 }, () => visibility()));
    expect(burst.map((r) => r.status)).toEqual(Array(20).fill(status));
    process.stdout.write(
      `visibility p99: ${p99(baseline).toFixed(1)} ms with Redis, ${p99(times).toFixed(1)} ms during the outage\n`,
    );
    // No stall: a request that waited on Redis would take REDIS_COMMAND_TIMEOUT_MS (250 ms) more,
    // and a stall waits on every request, not on one or two. The p99 is under 100 ms on a quiet
    // machine (printed above; docs/operations.md), but a p99 of 200 requests is their second
    // slowest, which a busy machine's spike moves on its own (CI: 218 ms against 48 ms with Redis
    // up, measured a second earlier). So: the typical request is as fast as with Redis up, and at
    // most a few (5 %) took as long as a command's timeout.
    expect(median(times)).toBeLessThan(Math.max(50, 2 * median(baseline) + 20));
    expect(times.filter((ms) => ms >= t.config.REDIS_COMMAND_TIMEOUT_MS).length).toBeLessThanOrEqual(10);

    const ready = await request(t.server).get('/readyz').expect(200);
    expect(ready.body).toMatchObject({ status: 'degraded', database: 'up', redis: 'down' });
    const metrics = (await request(t.server).get('/metrics').set(METRICS_AUTH)).text;
    expect(metrics).toMatch(/^redis_up 0$/m);
    expect(Number(/^redis_fallbacks_total\{use="rate_limit"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(200);

    // Redis comes back on the same port: the app reconnects by itself and uses it again.
    redis = await startRedis(port);
    const deadline = Date.now() + 10_000;
    while ((await request(t.server).get('/readyz')).body.redis !== 'up') {
      if (Date.now() > deadline) throw new Error('the app did not reconnect to Redis');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await visibility()).status).toBe(status);
    const back = new Redis({ port, host: '127.0.0.1' });
    expect(await back.keys('*rl*')).not.toHaveLength(0);
    back.disconnect();
    expect((await request(t.server).get('/metrics').set(METRICS_AUTH)).text).toMatch(/^redis_up 1$/m);
  }, 120_000);

  it('a Redis that hangs (SIGSTOP) costs a request at most REDIS_COMMAND_TIMEOUT_MS, then is skipped', async () => {
    await visibility().expect(200);
    redis.kill('SIGSTOP');
    try {
      const times: number[] = [];
      const until = Date.now() + 2500; // spans more than one retry of the hung server
      while (Date.now() < until) {
        const started = Date.now();
        await visibility().expect(200);
        times.push(Date.now() - started);
      }
      const limit = t.config.REDIS_COMMAND_TIMEOUT_MS;
      // Bounded by the timeout: a request waiting on the hung server would wait out the whole 2.5 s window.
      // The margin above the limit is for a busy machine (789 ms seen at 250 ms under CI load).
      expect(Math.max(...times)).toBeLessThan(limit + 1500);
      expect(times.filter((ms) => ms >= limit).length).toBeLessThanOrEqual(4); // one per retry, not one per request
    } finally {
      redis.kill('SIGCONT');
    }
    const deadline = Date.now() + 10_000;
    while (!/^redis_up 1$/m.test((await request(t.server).get('/metrics').set(METRICS_AUTH)).text)) {
      await visibility().expect(200); // a successful command marks Redis up again
      if (Date.now() > deadline) throw new Error('Redis was not used again after it resumed');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);
});
