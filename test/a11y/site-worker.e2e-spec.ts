import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../src/accounts/accounts.service';
import { SITE_SCAN_QUEUE, SitesService } from '../../src/a11y/sites/sites.service';
import type { Site } from '../../src/a11y/sites/site.types';
import { JobQueues } from '../../src/common/jobs/job-queues';
import { AlertsService } from '../../src/common/notify/alerts.service';
import { startReceiver, TestReceiver } from '../utils/receiver';
import { startSmtp, TestSmtp } from '../utils/smtp';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../utils/test-app';
import { Child, childEnv, startWorker, until } from './fleet-processes';
import { CRAWL_PAGES, scanEnded, SITE_PAGES, SitesFixture, startSitesFixture } from './sites-fixture';

/**
 * Site scans on worker processes (src/worker.ts, real child processes) with the API process running
 * no scan jobs (SCAN_WORKER_IN_PROCESS=false): a scheduled scan and its alert by webhook and e-mail,
 * a worker killed mid-scan (resumed where it left off), a site deleted mid-scan. Needs DATABASE_URL and REDIS_URL.
 */
const withFleet = process.env.REDIS_URL && process.env.DATABASE_URL ? describe : describe.skip;

withFleet('Site scans on worker processes (e2e, real processes)', () => {
  let db: TestDatabase;
  let t: TestApp;
  let site: SitesFixture;
  let sites: SitesService;
  let smtp: TestSmtp;
  let receiver: TestReceiver;
  let workers: Child[] = [];
  let redis: Redis;
  let siteQueue: Queue;
  let workerEnv: NodeJS.ProcessEnv;
  const received: { type: string; data: Record<string, unknown> }[] = [];
  let workspaceId = '';
  const prefix = `beacon-test:${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    site = await startSitesFixture();
    smtp = await startSmtp();
    receiver = await startReceiver((r) => received.push(JSON.parse(r.body) as (typeof received)[number]));
    db = await createTestDatabase();
    const common = {
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
      ALERT_RETRY_BACKOFF_MS: '50',
      SMTP_URL: smtp.url,
      SCAN_JOB_LOCK_MS: '3000',
    };
    t = await createTestApp({ database: db, env: { ...common, SCAN_WORKER_IN_PROCESS: 'false' } });
    workerEnv = childEnv({ ...db.env, ...common, SCAN_CONCURRENCY: '2', SHUTDOWN_TIMEOUT_MS: '3000' });
    workers.push(await startWorker(workerEnv));
    await t.createKey('siteworker');
    const a = await t.app.get(AccountsService).createUser('siteworker', 'site-worker@example.com', 'admin');
    workspaceId = a.workspace_id;
    const alerts = t.app.get(AlertsService);
    await alerts.addWebhook(workspaceId, `${receiver.origin}/hook`);
    await alerts.addEmail(workspaceId, 'a11y-team@example.com');
    sites = t.app.get(SitesService);
    redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    siteQueue = new Queue(SITE_SCAN_QUEUE, { connection: redis, prefix: `${prefix}jobs` });
  }, 240_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await siteQueue?.close();
    redis?.disconnect();
    await t?.close();
    await db?.drop();
    await site?.close();
    await smtp?.close();
    await receiver?.close();
  });

  it('runs a scheduled scan on a worker process; its alert arrives by webhook and by e-mail', async () => {
    const s = await sites.create(workspaceId, {
      name: 'Worker site',
      start_url: `${site.origin}/`,
      sitemap_url: `${site.origin}/sitemap.xml`,
    });
    site.token = s.verification_token;
    expect(await sites.verify(s)).toBe(true);
    await sites.runNow(await sites.get(workspaceId, s.id));
    const first = await scanEnded(sites, s.id, 1);
    expect(first).toMatchObject({ status: 'done', trigger: 'manual' });
    expect(first.summary!.pages).toHaveLength(SITE_PAGES.length);

    site.extra = '<p><a href="/p1"></a></p>'; // an empty link on every page: link-name, serious
    // The site's schedule, firing every second instead of daily (the same job the daily cron adds).
    const jobs = t.app.get(JobQueues);
    await jobs.schedule(SITE_SCAN_QUEUE, `site-${s.id}`, '* * * * * *', { siteId: s.id });
    const scheduled = await scanEnded(sites, s.id, 2);
    await jobs.unschedule(SITE_SCAN_QUEUE, `site-${s.id}`);
    expect(scheduled).toMatchObject({ status: 'done', trigger: 'schedule' });
    expect(scheduled.summary!.groups.some((g) => g.rule === 'link-name')).toBe(true);

    const mail = await smtp.waitFor((m) => /new critical or serious accessibility issue/.test(m.subject ?? ''), 30_000);
    expect(mail.text).toContain('link-name');
    await until(() => received.some((r) => r.type === 'a11y.new_issue'), 30_000, 'the webhook alert');
    const hook = received.find((r) => r.type === 'a11y.new_issue')!;
    // The schedule fires every second until it is removed, so a later scheduled scan may be the newest
    // one `scheduled` saw end; the alert is the first scheduled scan's, the one that found the issue new.
    const firstScheduled = (await sites.scansOf(s.id)).filter((x) => x.trigger === 'schedule').at(-1)!;
    expect(firstScheduled).toMatchObject({ status: 'done' });
    expect(hook.data).toMatchObject({ details: { siteId: s.id, scanId: firstScheduled.id } });
    site.extra = '';
  }, 240_000);

  it('workers killed mid-scan, twice: the scan resumes each time, the pages already finished are not requested again, and ends done', async () => {
    let s: Site = await sites.create(workspaceId, { name: 'Killed', start_url: `${site.origin}/c/` });
    site.token = s.verification_token;
    expect(await sites.verify(s)).toBe(true);
    s = await sites.get(workspaceId, s.id);
    const scan = await sites.runNow(s);
    const rows = () =>
      t.dataSource.query<{ path: string; attempts: number; done: boolean }[]>(
        `SELECT url AS path, attempts, result IS NOT NULL AS done FROM a11y_site_scan_pages WHERE scan_id = $1`,
        [scan.id],
      );
    const requests = (path: string) => site.times.get(path)?.length ?? 0;
    /** SIGKILL of the worker (and its Chromium: no chance to hand the job back); what it had finished, and the requests so far. */
    const killWorker = async () => {
      await workers[0].kill();
      const r = (await rows()).map((x) => ({ ...x, path: new URL(x.path).pathname }));
      const finished = r.filter((x) => x.done).map((x) => x.path);
      return { rows: r, finished, seen: new Map(finished.map((p) => [p, requests(p)])) };
    };
    await until(
      async () => ((await sites.scansOf(s.id))[0]?.pages_done ?? 0) >= 2,
      120_000,
      'the scan to be under way',
    );
    const first = await killWorker();
    expect(first.rows).toHaveLength(CRAWL_PAGES.length); // the plan: the crawl's pages, fixed when the scan started
    expect(first.finished.length).toBeGreaterThanOrEqual(2);
    expect(first.finished.length).toBeLessThan(CRAWL_PAGES.length);
    workers = [await startWorker(workerEnv)];
    // The stalled job runs again on the new worker; once the pages lost in flight have their result and two more
    // pages are done, that worker is killed too (no page is then lost twice: each ends scanned).
    await until(
      async () => {
        const r = await rows();
        const done = r.filter((x) => x.done).length;
        return r.every((x) => x.done || x.attempts < 2) && done >= first.finished.length + 2 && done < r.length;
      },
      180_000,
      'the resumed scan to be under way',
    );
    const second = await killWorker();
    workers = [await startWorker(workerEnv)];
    const ended = await scanEnded(sites, s.id, 1, 240_000);
    expect(ended).toMatchObject({ id: scan.id, status: 'done', pages_total: CRAWL_PAGES.length });
    // Every page once, none failed; pages finished before a kill were not requested again (nor crawled again).
    expect(ended.summary!.pages.map((p) => new URL(p.url).pathname).sort()).toEqual([...CRAWL_PAGES].sort());
    expect(ended.summary!.pages.filter((p) => p.error)).toEqual([]);
    for (const k of [first, second])
      for (const [path, n] of k.seen) expect(`${path}: ${requests(path)}`).toBe(`${path}: ${n}`);
    const after = await rows();
    expect(after.every((r) => r.done && r.attempts >= 1 && r.attempts <= 2)).toBe(true);
    // Tried twice: exactly the pages in flight (started, no result) at a kill.
    const inFlight = [first, second].flatMap((k) => k.rows.filter((x) => x.attempts > 0 && !x.done).map((x) => x.path));
    const twice = after.filter((r) => r.attempts === 2).map((r) => new URL(r.path).pathname);
    expect(twice.sort()).toEqual([...new Set(inFlight)].sort());
  }, 480_000);

  it('a site deleted mid-scan: the scan stops, nothing of it is kept, the worker takes the next scan', async () => {
    let s: Site = await sites.create(workspaceId, { name: 'Deleted', start_url: `${site.origin}/c/` });
    await sites.verify(s);
    s = await sites.get(workspaceId, s.id);
    await sites.runNow(s);
    await until(async () => ((await sites.scansOf(s.id))[0]?.pages_done ?? 0) >= 1, 120_000, 'the scan to start');
    await sites.remove(workspaceId, s.id);
    expect(await sites.scansOf(s.id)).toEqual([]);
    await until(async () => (await siteQueue.getActiveCount()) === 0, 60_000, 'the site-scan job to end');
    expect(workers[0].proc.exitCode).toBeNull();
    const next = await sites.create(workspaceId, { name: 'Next', start_url: `${site.origin}/p1`, urls: '/p2' });
    await sites.runNow(next);
    expect((await scanEnded(sites, next.id, 1)).status).toBe('done');
  }, 240_000);
});
