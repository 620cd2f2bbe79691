import { Client } from 'pg';
import { AccountsService } from '../../src/accounts/accounts.service';
import { SITE_SCAN_QUEUE, SitesService } from '../../src/a11y/sites/sites.service';
import { InProcessJobQueues } from '../../src/common/jobs/in-process-job-queues';
import { JobQueues } from '../../src/common/jobs/job-queues';
import { SITE_SCAN_LOCK, SitesStore } from '../../src/a11y/sites/sites.store';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../utils/test-app';
import { FixtureServer, html, send, startFixtureServer } from './fixture-server';
import { scanEnded } from './sites-fixture';

/** Jobs in process (no Redis); shutdown waits 300 ms for the pages in flight, then leaves them. */
const IN_PROCESS = { REDIS_URL: '', SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true', SHUTDOWN_TIMEOUT_MS: '300' };
/** The site's pages, scanned in this order one at a time (robots.txt Crawl-delay: 1). */
const PAGES = ['/', '/a', '/b', '/c', '/d'];

interface Row {
  url: string;
  attempts: number;
  done: boolean;
}

/**
 * Site scans without Redis (jobs in process) across a restart: the app is closed mid-scan and a new
 * one started on the same database resumes the scan from its plan and rows (docs/a11y-monitoring.md,
 * "On worker processes"); a scan is held by the one process that runs it. Needs DATABASE_URL (two
 * apps cannot share the in-memory database of the PGlite runs).
 */
(process.env.DATABASE_URL ? describe : describe.skip)('Site scans in process: resumed after a restart (e2e)', () => {
  let db: TestDatabase;
  let site: FixtureServer;
  /** The first request for /c waits for this (the page in flight when the app closes). */
  let openC: () => void = () => undefined;
  const apps = new Set<TestApp>();
  const start = async () => {
    const t = await createTestApp({ database: db, env: IN_PROCESS });
    apps.add(t);
    return t;
  };
  const stop = async (t: TestApp) => {
    apps.delete(t);
    await t.close();
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const page = (p: string) => html(`<header><img src="/logo.png"></header><main><h1>Page ${p}</h1></main>`, p);
    const held = new Promise<void>((r) => (openC = r));
    let cRequests = 0;
    site = await startFixtureServer({
      ...Object.fromEntries(PAGES.map((p) => [p, (_q, res) => send(res, 200, page(p))] as const)),
      '/c': (_q, res) => {
        if (++cRequests > 1) return send(res, 200, page('/c'));
        void held.then(() => send(res, 200, page('/c')));
      },
      '/robots.txt': (_q, res) => send(res, 200, 'User-agent: *\nCrawl-delay: 1\n', { 'Content-Type': 'text/plain' }),
    });
  });

  afterAll(async () => {
    openC();
    for (const t of apps) await t.close();
    await db?.drop();
    await site?.close();
  });

  /** One query on a connection of the test's own (the apps may be closed). */
  const query = async <T extends object>(sql: string, params: unknown[]): Promise<T[]> => {
    const c = new Client({ connectionString: db.env.DATABASE_URL });
    await c.connect();
    try {
      return (await c.query<T>(sql, params)).rows;
    } finally {
      await c.end();
    }
  };
  const rowsOf = (scanId: string) =>
    query<Row>(
      `SELECT url, attempts, result IS NOT NULL AS done FROM a11y_site_scan_pages WHERE scan_id = $1 ORDER BY idx`,
      [scanId],
    );

  it('a scan is held by the process running it until it lets go or its connection ends (as when its process dies)', async () => {
    const [one, two] = [await start(), await start()];
    const id = '00000000-0000-4000-8000-000000000001';
    const hold = (t: TestApp) => t.app.get(SitesStore).holdScan(id);
    const release = await hold(one);
    expect(release).toBeDefined();
    expect(await hold(two)).toBeUndefined();
    await release!();
    const held = await hold(two);
    expect(held).toBeDefined();
    expect(await hold(one)).toBeUndefined();
    // The holder's connection ends, as a killed process's does: ended from the test's own connection.
    const ended = await query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::int::oid
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [SITE_SCAN_LOCK],
    );
    expect(ended).toEqual([{ ended: true }]);
    const taken = await hold(one);
    expect(taken).toBeDefined();
    await taken!();
    await held!(); // on its ended connection: nothing to release
    await stop(one);
    await stop(two);
  }, 60_000);

  it('closed mid-scan, the next app resumes it (finished pages not requested again, the one in flight once more) and arms its schedule', async () => {
    const first = await start();
    await first.createKey('restart');
    const user = await first.app.get(AccountsService).createUser('restart', 'restart-admin@example.com', 'admin');
    const s = await first.app.get(SitesService).create(user.workspace_id, {
      name: 'Restarted',
      start_url: `${site.origin}/`,
      page_source: 'list',
      urls: PAGES.slice(1).join('\n'),
      schedule: 'daily',
    });
    const schedules = (t: TestApp) => t.app.get<JobQueues, InProcessJobQueues>(JobQueues).schedulerIds(SITE_SCAN_QUEUE);
    expect(schedules(first)).toEqual([`site-${s.id}`]);
    const scan = await first.app.get(SitesService).runNow(s);
    for (const until = Date.now() + 90_000; !site.hits.get('/c');) {
      if (Date.now() > until) throw new Error('the first app did not reach /c in 90 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    await stop(first); // /c is in flight: shutdown waits 300 ms for it, then leaves it
    openC();

    const atClose = await rowsOf(scan.id);
    expect(atClose.map((r) => [new URL(r.url).pathname, r.attempts, r.done])).toEqual([
      ['/', 1, true],
      ['/a', 1, true],
      ['/b', 1, true],
      ['/c', 1, false], // in flight
      ['/d', 0, false], // not started
    ]);
    const [left] = await query<{ status: string }>(`SELECT status FROM a11y_site_scans WHERE id = $1`, [scan.id]);
    expect(left.status).toBe('running'); // not failed: left to resume
    const before = new Map(PAGES.map((p) => [p, site.hits.get(p) ?? 0]));

    const second = await start(); // resumes it at start-up
    expect(schedules(second)).toEqual([`site-${s.id}`]); // the daily schedule, a timer of the process, armed again
    const ended = await scanEnded(second.app.get(SitesService), s.id, 1, 120_000);
    expect(ended.id).toBe(scan.id);
    expect(ended).toMatchObject({ status: 'done', pages_done: PAGES.length, pages_total: PAGES.length });
    expect(ended.summary!.pages.map((p) => new URL(p.url).pathname)).toEqual(PAGES);
    expect(ended.summary!.pages.filter((p) => p.error)).toEqual([]);
    for (const p of ['/', '/a', '/b']) expect(site.hits.get(p)).toBe(before.get(p)); // finished: not requested again
    for (const p of ['/c', '/d']) expect(site.hits.get(p)).toBeGreaterThan(before.get(p)!);
    // The template defect (image-alt) on every page: those finished before the close from their stored reports.
    const logo = ended.summary!.groups.find((g) => g.rule === 'image-alt')!;
    expect(logo.pages.map((u) => new URL(u).pathname).sort()).toEqual([...PAGES].sort());
    expect((await rowsOf(scan.id)).map((r) => r.attempts)).toEqual([1, 1, 1, 2, 1]);
  }, 240_000);
});
