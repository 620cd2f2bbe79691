import { AccountsService } from '../../src/accounts/accounts.service';
import { SitesService } from '../../src/a11y/sites/sites.service';
import type { Site } from '../../src/a11y/sites/site.types';
import type { TestApp } from '../utils/test-app';
import { SitesApp, startSitesApp } from './sites-app';
import { CRAWL_PAGES, scanEnded, SitesFixture } from './sites-fixture';

const gapsOf = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]);

/** Site scans without a sitemap (same-origin crawl), their pace (Crawl-delay, Retry-After) and the page-unreachable alert. */
describe('Site crawl, pace and unreachable pages (e2e)', () => {
  let t: TestApp;
  let site: SitesFixture;
  let sites: SitesService;
  let world: SitesApp;
  const received: { type: string; data: Record<string, unknown> }[] = [];
  let workspaceId = '';
  let crawled: Site;

  beforeAll(async () => {
    world = await startSitesApp('sitecrawl', (body) => received.push(JSON.parse(body) as (typeof received)[number]));
    ({ t, site, sites, workspaceId } = world);
    await t.app.get(AccountsService).createUser('sitecrawl', 'site-crawl@example.com', 'admin');
  }, 120_000);

  afterAll(() => world?.close());

  it('finds the pages of a site without a sitemap by following same-origin links, robots.txt applied', async () => {
    crawled = await sites.create(workspaceId, { name: 'Crawled', start_url: `${site.origin}/c/` });
    site.token = crawled.verification_token;
    expect(await sites.verify(crawled)).toBe(true);
    crawled = await sites.get(workspaceId, crawled.id);
    const listed = await sites.pagesOf(crawled);
    expect(listed.source).toBe('crawl');
    expect([...listed.pages].sort()).toEqual(CRAWL_PAGES.map((p) => `${site.origin}${p}`).sort());
    expect(listed.pages[0]).toBe(`${site.origin}/c/`); // breadth-first from the start URL
    expect(listed.skipped).toEqual([{ url: `${site.origin}/c/private/secret`, reason: 'disallowed by robots.txt' }]);
    expect(site.server.hits.get('/c/private/secret')).toBeUndefined();
    expect(site.server.hits.get('/c/report.pdf')).toBeUndefined();
    expect(site.server.hits.get('/c/old')).toBe(1); // a same-origin redirect is followed as a link

    await sites.runNow(crawled);
    const scan = await scanEnded(sites, crawled.id, 1);
    expect(scan.status).toBe('done');
    expect(scan.summary!.pages).toHaveLength(30);
    expect(scan.summary!.groups[0]).toMatchObject({ rule: 'image-alt', occurrences: 30 });
  }, 240_000);

  it('with patterns and a small budget, keeps only the pages they allow', async () => {
    const s = await sites.create(workspaceId, {
      name: 'Crawled, patterns',
      start_url: `${site.origin}/c/`,
      include_patterns: '/c/1*',
      exclude_patterns: '/c/12',
      page_budget: '4',
    });
    await sites.verify(s);
    const listed = await sites.pagesOf(await sites.get(workspaceId, s.id));
    expect(listed.pages).toHaveLength(4);
    for (const p of listed.pages) expect(new URL(p).pathname).toMatch(/^\/c\/1\d*$/);
    expect(listed.pages).not.toContain(`${site.origin}/c/12`);
  }, 60_000);

  it('raises a11y.page_unreachable when a page that loaded in the previous scan no longer does', async () => {
    site.broken.add('/c/7');
    await sites.runNow(crawled);
    const scan = await scanEnded(sites, crawled.id, 2);
    expect(scan.status).toBe('done');
    expect(scan.summary!.pages.find((p) => p.url === `${site.origin}/c/7`)!.error).toMatch(/HTTP 500/);
    const until = Date.now() + 20_000;
    while (!received.some((r) => r.type === 'a11y.page_unreachable') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    const alert = received.find((r) => r.type === 'a11y.page_unreachable')!;
    expect(alert).toBeDefined();
    expect(JSON.stringify(alert.data)).toContain(`${site.origin}/c/7`);
    expect(received.filter((r) => r.type === 'a11y.page_unreachable')).toHaveLength(1);
  }, 240_000);

  it("keeps robots.txt's Crawl-delay between pages, and waits as long as a 429's Retry-After date asks", async () => {
    site.crawlDelay = 1;
    const s = await sites.create(workspaceId, { name: 'Paced', start_url: `${site.origin}/c/`, page_budget: '3' });
    const from = Date.now();
    await sites.runNow(s);
    expect((await scanEnded(sites, s.id, 1)).status).toBe('done');
    const hits = [...site.times.entries()]
      .filter(([p]) => CRAWL_PAGES.includes(p))
      .flatMap(([, ts]) => ts.filter((x) => x >= from))
      .sort((a, b) => a - b);
    expect(hits.length).toBeGreaterThanOrEqual(6); // three pages read for links, then scanned
    for (const gap of gapsOf(hits)) expect(gap).toBeGreaterThanOrEqual(990);
    site.crawlDelay = 0;

    const busy = await sites.create(workspaceId, {
      name: 'Busy',
      start_url: `${site.origin}/busy-date`,
      urls: '/busy-date',
    });
    await sites.runNow(busy);
    const done = await scanEnded(sites, busy.id, 1);
    expect(done.status).toBe('done');
    expect(done.summary!.pages[0].score).toEqual(expect.any(Number));
    const tries = site.times.get('/busy-date')!;
    expect(tries).toHaveLength(2);
    expect(gapsOf(tries)[0]).toBeGreaterThanOrEqual(1000); // the date was two seconds ahead (HTTP dates count whole seconds)
  }, 120_000);
});
