import { AccountsService } from '../../src/accounts/accounts.service';
import { SitesService } from '../../src/a11y/sites/sites.service';
import type { Site } from '../../src/a11y/sites/site.types';
import type { TestApp } from '../utils/test-app';
import { FixtureServer, send, startFixtureServer } from './fixture-server';
import { SitesApp, startSitesApp } from './sites-app';
import { CRAWL_PAGES, scanEnded, SitesFixture } from './sites-fixture';

/** A page of the duplicates site: its own title and text, and a `<link rel=canonical>` when given. */
const dupPage = (title: string, body: string, canonical?: string): string =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${canonical ? `<link href="${canonical}" rel="canonical">` : ''}</head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/**
 * A site that reaches its pages by more than one address: /d/ and /d/index.html (the same HTML),
 * /d/a and /d/a?ref=nav (the same HTML), /d/alias (its canonical is /d/b, which nothing links),
 * /d/loop1 and /d/loop2 (each naming the other as canonical), /d/old (a redirect to /d/a).
 */
async function startDuplicatesSite(): Promise<FixtureServer> {
  const home = dupPage(
    'Home',
    '<a href="/d/index.html">Home again</a> <a href="/d/a">A</a> <a href="/d/a?ref=nav">A from the menu</a> <a href="/d/alias">Alias</a> <a href="/d/loop1">Loop</a> <a href="/d/old">Old A</a>',
  );
  let visits = 0;
  return startFixtureServer({
    '/d/': (_q, res) => send(res, 200, home),
    '/d/index.html': (_q, res) => send(res, 200, home),
    '/d/a': (_q, res) => send(res, 200, dupPage('A', '<p>Page A.</p>')),
    '/d/alias': (_q, res) => send(res, 200, dupPage('B', `<p>Visit ${++visits}.</p>`, '/d/b')),
    '/d/b': (_q, res) => send(res, 200, dupPage('B', '<p>Page B.</p>', '/d/b')),
    '/d/loop1': (_q, res) => send(res, 200, dupPage('Loop 1', '<p>One.</p>', '/d/loop2')),
    '/d/loop2': (_q, res) => send(res, 200, dupPage('Loop 2', '<p>Two.</p>', 'loop1')),
    '/d/old': (_q, res) => send(res, 301, '', { Location: '/d/a' }),
  });
}

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

  describe('the same page reached by two addresses', () => {
    let dup: FixtureServer;
    beforeAll(async () => {
      dup = await startDuplicatesSite();
    });
    afterAll(() => dup?.close());

    it('the crawl keeps one page per duplicate: identical HTML, rel=canonical (a loop keeps one), a redirect', async () => {
      const s = await sites.create(workspaceId, { name: 'Duplicates', start_url: `${dup.origin}/d/` });
      const listed = await sites.pagesOf(s);
      const at = (p: string) => `${dup.origin}${p}`;
      expect(listed.pages).toEqual([at('/d/'), at('/d/a'), at('/d/b'), at('/d/loop2')]);
      expect(listed.skipped).toEqual(
        expect.arrayContaining([
          { url: at('/d/index.html'), reason: `the same page as ${at('/d/')} (identical content)` },
          { url: at('/d/a?ref=nav'), reason: `the same page as ${at('/d/a')} (identical content)` },
          { url: at('/d/alias'), reason: `its canonical address is ${at('/d/b')}` },
          { url: at('/d/loop1'), reason: `its canonical address is ${at('/d/loop2')}` },
        ]),
      );
      expect(listed.skipped).toHaveLength(4);
      expect(dup.hits.get('/d/b')).toBe(1); // read because /d/alias names it
    }, 60_000);

    it("a list naming a folder and its index file scans the folder once; the list's pages only", async () => {
      const s = await sites.create(workspaceId, {
        name: 'Duplicates, listed',
        start_url: `${dup.origin}/d/`,
        page_source: 'list',
        urls: '/d/index.html\n/d/a',
      });
      expect(s.page_source).toBe('list');
      const listed = await sites.pagesOf(s);
      expect(listed.source).toBe('list');
      expect(listed.pages).toEqual([`${dup.origin}/d/`, `${dup.origin}/d/a`]);
      expect(listed.skipped).toEqual([
        { url: `${dup.origin}/d/index.html`, reason: `the same page as ${dup.origin}/d/` },
      ]);
    }, 60_000);
  });

  it('a site with a sitemap can choose the crawl instead: the sitemap is kept but not read', async () => {
    const s = await sites.create(workspaceId, {
      name: 'Sitemap, crawled',
      start_url: `${site.origin}/c/`,
      sitemap_url: `${site.origin}/sitemap.xml`,
      page_source: 'crawl',
      page_budget: '5',
    });
    expect(s).toMatchObject({ page_source: 'crawl', sitemap_url: `${site.origin}/sitemap.xml` });
    const before = site.server.hits.get('/sitemap.xml') ?? 0;
    const listed = await sites.pagesOf(s);
    expect(listed.source).toBe('crawl');
    expect(listed.pages).toEqual(CRAWL_PAGES.slice(0, 5).map((p) => `${site.origin}${p}`));
    expect(site.server.hits.get('/sitemap.xml') ?? 0).toBe(before);
    const updated = await sites.update(s, {
      start_url: s.start_url,
      sitemap_url: s.sitemap_url!,
      page_source: 'sitemap',
    });
    expect((await sites.pagesOf(updated)).pages).toContain(`${site.origin}/p1`);
  }, 60_000);
});
