import Redis from 'ioredis';
import request from 'supertest';
import { BrowserPool } from '../../src/a11y/browser/browser-pool';
import { scanHardStopMs } from '../../src/a11y/queue/scan-job';
import { ScanQueue } from '../../src/a11y/queue/scan-queue';
import { AppConfig } from '../../src/common/config/env';
import { createTestApp, TestApp } from '../utils/test-app';
import { FixtureServer, GOOD_PAGE, send, startFixtureServer } from './fixture-server';
import { startOwnRedis, until } from './fleet-processes';

/**
 * Issue 12, faults of the queue itself, on a Redis server of the test's own (FLUSHDB is only ever
 * sent to it): Redis emptied under running scans, a scan no worker takes within its time limit, and
 * a browser that stops answering mid-scan (the runner's hard stop).
 */
describe('Scan queue faults (e2e, own redis-server, real Chromium)', () => {
  let own: { url: string; stop(): Promise<void> };
  let site: FixtureServer;
  let t: TestApp | undefined;
  let clients = 0;
  const seen = new Set<string>();

  beforeAll(async () => {
    own = await startOwnRedis();
    site = await startFixtureServer({
      '/good': (_q, res) => send(res, 200, GOOD_PAGE),
      '/slow': (req, res) => {
        seen.add(req.url ?? '');
        setTimeout(() => send(res, 200, GOOD_PAGE), 3000);
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
    await own?.stop();
  });

  const scan = (app: TestApp, path: string) =>
    request(app.server)
      .post('/api/scan')
      .set('X-Forwarded-For', `198.51.100.${++clients % 250}`)
      .send({ url: `${site.origin}${path}` })
      .then((r) => r);

  it('Redis flushed during scans: those scans end in a clear 502, new scans work', async () => {
    t = await createTestApp({
      env: {
        REDIS_URL: own.url,
        REDIS_KEY_PREFIX: 'fleet-faults:',
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        SCAN_RATE_LIMIT: '1000',
        TRUST_PROXY: '1',
        SCAN_CONCURRENCY: '1',
      },
    });
    expect(t.app.get(ScanQueue).kind).toBe('bullmq');
    const running = scan(t, '/slow?flushed-a');
    await until(() => seen.has('/slow?flushed-a'), 30_000, 'the first scan is in the browser');
    // sent once the first holds the one slot, so it is the one that waits in the queue
    const queued = scan(t, '/slow?flushed-b');
    const queue = t.app.get(ScanQueue);
    await until(async () => (await queue.depth()).waiting === 1, 30_000, 'the second scan waits in the queue');
    const admin = new Redis(own.url);
    await admin.flushdb();
    admin.disconnect();
    for (const res of await Promise.all([running, queued])) {
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ ok: false, error: 'scan_failed' });
      expect(res.body.message).toMatch(/lost from the queue/);
    }
    expect((await scan(t, '/good?after-flush')).status).toBe(200);
    await t.close();
    t = undefined;
  }, 120_000);

  it('a scan no worker finishes within its time limit ends in a clear 502', async () => {
    // an API without a worker of its own and no worker process: the job waits until the request's bound
    t = await createTestApp({
      // SCAN_JOB_LOCK_MS past the request's bound: the "no worker" answer does not come first
      env: {
        REDIS_URL: own.url,
        REDIS_KEY_PREFIX: 'fleet-faults-2:',
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        SCAN_WORKER_IN_PROCESS: 'false',
        SCAN_TOTAL_TIMEOUT_MS: '1000',
        SCAN_JOB_LOCK_MS: '60000',
      },
    });
    const res = await scan(t, '/good?nobody');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ ok: false, error: 'scan_failed' });
    expect(res.body.message).toMatch(/did not finish within its time limit/);
    await t.close();
    t = undefined;
  }, 60_000);

  it('a browser that stops answering mid-scan: the runner stops the scan at its hard limit (502); after it, scans work', async () => {
    t = await createTestApp({
      env: {
        REDIS_URL: own.url,
        REDIS_KEY_PREFIX: 'fleet-faults-3:',
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        SCAN_RATE_LIMIT: '1000',
        TRUST_PROXY: '1',
        SCAN_TOTAL_TIMEOUT_MS: '1000',
        SCAN_PAGE_TIMEOUT_MS: '1000',
      },
    });
    const pending = scan(t, '/slow?frozen');
    await until(() => seen.has('/slow?frozen'), 30_000, 'the page is loading');
    const pid = (await t.app.get(BrowserPool).current())?.process()?.pid;
    expect(pid).toBeDefined();
    // SIGSTOP: the browser process stops answering CDP (the page's own timeouts cannot close it)
    process.kill(pid!, 'SIGSTOP');
    let res: Awaited<typeof pending>;
    try {
      res = await pending;
    } finally {
      process.kill(pid!, 'SIGCONT');
    }
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ ok: false, error: 'scan_failed' });
    expect(res.body.message).toContain(
      `did not finish within its time limit (${scanHardStopMs(t.app.get(AppConfig))} ms) and was stopped`,
    );
    expect((await scan(t, '/good?after-frozen')).status).toBe(200);
  }, 90_000);
});
