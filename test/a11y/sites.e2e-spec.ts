import { SITE_SCAN_QUEUE, SitesService } from '../../src/a11y/sites/sites.service';
import { SITE_SCANS_SHOWN, SitesStore } from '../../src/a11y/sites/sites.store';
import { JobQueues } from '../../src/common/jobs/job-queues';
import type { TestApp } from '../utils/test-app';
import { signedInUser } from '../utils/web-users';
import { WebClient } from '../web/web-client';
import { SitesApp, startSitesApp } from './sites-app';
import { scanEnded, SITE_PAGES, SitesFixture } from './sites-fixture';

/** Accessibility monitoring end to end: a loopback site of six pages sharing a template defect, found through a sitemap index. */
describe('Accessibility sites (e2e)', () => {
  let t: TestApp;
  let site: SitesFixture;
  let admin: WebClient;
  let member: WebClient;
  let sites: SitesService;
  let world: SitesApp;
  const received: string[] = [];
  let siteId = '';
  let workspaceId = '';

  beforeAll(async () => {
    world = await startSitesApp('sites', (body) => received.push(body));
    ({ t, site, sites, workspaceId } = world);
    admin = (await signedInUser(t, 'sites', 'sites-admin@example.com', 'admin')).client;
    member = (await signedInUser(t, 'sites', 'sites-member@example.com', 'member')).client;
  }, 120_000);

  afterAll(() => world?.close());

  it("scans the sitemap's pages, groups the template defect once with its occurrences and puts it first in the fix plan", async () => {
    await admin.get('/dashboard/sites');
    const bad = await admin.post('/dashboard/sites', {
      start_url: `${site.origin}/`,
      sitemap_url: 'https://elsewhere.example/sitemap.xml',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/href="#sitemap_url"[\s\S]*is not on http:\/\/127\.0\.0\.1/);
    const added = await admin.post('/dashboard/sites', {
      name: 'Fixture site',
      start_url: `${site.origin}/`,
      sitemap_url: `${site.origin}/sitemap.xml`,
      excluded_selectors: '#chat | vendor widget',
    });
    expect(added.status).toBe(303);
    const path = added.location!.replace(/\?.*$/, '');
    const id = path.split('/').pop()!;
    const shown = await admin.get(added.location!);
    expect(shown.text).toContain('Not proved yet');
    // Members read, admins act.
    expect((await member.get(path)).status).toBe(200);
    expect((await member.post(`${path}/run`)).status).toBe(403);
    // Ownership: the file carries the token.
    const token = /<code id="token">([0-9a-f]+)<\/code>/.exec(shown.text)![1];
    expect((await admin.post(`${path}/verify`)).location).toBe(`${path}?notice=not-verified`);
    site.token = `beacon ${token}\n`;
    await admin.get(path);
    expect((await admin.post(`${path}/verify`)).location).toBe(`${path}?notice=verified`);

    await admin.get(path);
    expect((await admin.post(`${path}/run`)).status).toBe(303);
    const scan = await scanEnded(sites, id, 1);
    expect(scan.status).toBe('done');
    const sum = scan.summary!;
    expect(sum.pages.map((p) => new URL(p.url).pathname).sort()).toEqual([...SITE_PAGES].sort());
    expect(sum.skipped).toEqual(
      expect.arrayContaining([{ url: `${site.origin}/private`, reason: 'disallowed by robots.txt' }]),
    );
    const first = sum.groups[0];
    expect(first).toMatchObject({ rule: 'image-alt', impact: 'critical', occurrences: 6 });
    expect(first.pages).toHaveLength(6);
    expect(sum.groups.filter((g) => g.rule === 'image-alt')).toHaveLength(1);
    const own = sum.groups.find((g) => g.rule === 'button-name')!;
    expect(own.pages).toEqual([`${site.origin}/p3`]);
    expect(first.points).toBeGreaterThan(own.points);
    // Fixing the template defect on every page recovers its whole cost of each page's score.
    expect(sum.score + Math.round(first.points)).toBeLessThanOrEqual(100);

    const page = await admin.get(path);
    expect(page.text).toMatch(
      /<caption>Issues grouped across pages, most points first<\/caption>[\s\S]*?<tr role="row"><th scope="row" role="rowheader"><a href="[^"]+">image-alt<\/a>/,
    );
    expect(page.text).toContain('<svg class="chart"');
    expect(page.text).toContain('<caption>Score of each scan</caption>');
    expect(received).toEqual([]); // the first scan has nothing to compare with
    siteId = id;
    // Admins edit the settings; a bad value comes back with the form and the field named.
    const refused = await admin.post(path, { start_url: `${site.origin}/`, page_budget: '5000' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/href="#page_budget"[\s\S]*1 to 1000[\s\S]*value="5000"/);
    expect((await member.post(path, { start_url: `${site.origin}/` })).status).toBe(403);
    await admin.get(path);
    const saved = await admin.post(path, {
      name: 'Fixture site',
      start_url: `${site.origin}/`,
      sitemap_url: `${site.origin}/sitemap.xml`,
      ignore_rules: 'region',
      schedule: 'weekly',
    });
    expect(saved.location).toBe(`${path}?notice=saved`);
    const edited = await sites.get(workspaceId, id);
    expect(edited).toMatchObject({ ignore_rules: ['region'], schedule: 'weekly', verified_by: 'file' });
  }, 90_000);

  it("alerts on a new serious issue and on a score drop at the next scan, through the workspace's webhook", async () => {
    site.extra = '<p><a href="/p1"></a></p>'; // an empty link on every page: link-name, serious
    const path = `/dashboard/sites/${siteId}`;
    await admin.get(path);
    await admin.post(`${path}/run`);
    const scan = await scanEnded(sites, siteId, 2);
    expect(scan.status).toBe('done');
    const until = Date.now() + 20_000;
    while (received.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const alerts = received.map((b) => JSON.stringify(JSON.parse(b)));
    expect(alerts.some((a) => a.includes('a11y.new_issue') && a.includes('link-name'))).toBe(true);
    expect(alerts.some((a) => a.includes('a11y.score_drop'))).toBe(true);
    expect(alerts).toHaveLength(2);
    expect(scan.summary!.pages.find((p) => p.url === `${site.origin}/p3`)!.diff).toEqual({
      new: 1,
      fixed: 0,
      unchanged: 2,
    });
    const page = await admin.get(path);
    expect(page.text).toMatch(
      /<caption>Score of each scan<\/caption>[\s\S]*<td class="num">\d+<\/td>[\s\S]*<td class="num">\d+<\/td>/,
    );
  }, 90_000);

  it("the removal's confirmation counts every scan of the site, not only the newest the site's page lists", async () => {
    const many = await sites.create(workspaceId, { name: 'Many scans', start_url: `${site.origin}/many/` });
    const store = t.app.get(SitesStore);
    const total = SITE_SCANS_SHOWN + 2;
    for (let i = 0; i < total; i++) {
      const scan = await store.createScan(many.id, 'manual');
      await store.fail(scan!.id, 'made by the test');
    }
    expect(await sites.scanCount(many.id)).toBe(total);
    const ask = await admin.get(`/dashboard/sites/${many.id}/remove`);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain(`Its settings and ${total} scans go with it`);
    const none = await sites.create(workspaceId, { name: 'No scans', start_url: `${site.origin}/none/` });
    expect((await admin.get(`/dashboard/sites/${none.id}/remove`)).text).toContain(
      'Its settings and its scans (none yet) go with it',
    );
  });

  it('runs one scan at a time per site (scheduled runs while a scan is active, and Run now again, add none) and backs off on 429', async () => {
    const created = await sites.create(workspaceId, {
      name: 'One page',
      start_url: `${site.origin}/busy`,
      schedule: 'daily',
    });
    const first = await sites.runNow(created);
    const jobs = t.app.get(JobQueues);
    await Promise.all([
      jobs.add(SITE_SCAN_QUEUE, { siteId: created.id }, { jobId: 'tick-1' }),
      jobs.add(SITE_SCAN_QUEUE, { siteId: created.id }, { jobId: 'tick-2' }),
    ]);
    expect((await sites.runNow(created)).id).toBe(first.id);
    const done = await scanEnded(sites, created.id, 1);
    expect(done).toMatchObject({ id: first.id, status: 'done', trigger: 'manual', pages_done: 1 });
    expect((await sites.scansOf(created.id)).map((s) => s.id)).toEqual([first.id]);
    // The page answered 429 first: the scan backed off and scanned it again.
    expect(site.server.hits.get('/busy')).toBe(2);
    expect(done.summary!.pages[0]).toMatchObject({ url: `${site.origin}/busy`, score: expect.any(Number) });
  }, 60_000);
});
