import puppeteer, { Browser } from 'puppeteer-core';
import request from 'supertest';
import { CHROMIUM_ARGS } from '../../src/a11y/browser/browser-pool';
import { Clock } from '../../src/a11y/report/clock';
import { cacheKeyOf, ReportsService } from '../../src/a11y/report/reports.service';
import type { TestApp } from '../utils/test-app';
import { createScanTestApp } from './scan-app';
import { text as asText } from '../utils/body-parsers';
import { WebClient } from '../web/web-client';
import { html, send, startFixtureServer, FixtureServer } from './fixture-server';

const DOT = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
/** The public address the app is configured with: not the host name the tests (and visitors) use. */
const PUBLIC = 'https://beacon.example';

/** Two pages with the same failing rules (an image without alt, an empty button), linked to each other: a crawl. */
const sitePage = (n: number, other: string): string =>
  html(
    `<main><h1>Page ${n}</h1><p>Text of page ${n}. <a href="${other}">The other page</a></p>
    <img src="${DOT}" style="width:60px;height:30px;background:#0000ff"><button style="width:40px;height:20px"></button></main>`,
    `Page ${n}`,
  );

describe('The shared report page, its exports and the stable badge (e2e, real Chromium)', () => {
  let t: TestApp;
  let site: FixtureServer;
  let browser: Browser;
  let origin: string;
  let readmeBadge = '';
  let crawl: { id: string; url: string; pages: { violations: { id: string; nodes: { screenshot?: string }[] }[] }[] };

  beforeAll(async () => {
    site = await startFixtureServer({
      '/': (_q, res) => send(res, 200, sitePage(1, '/two')),
      '/two': (_q, res) => send(res, 200, sitePage(2, '/')),
      // another site's page embedding the badge as an image (a README); not linked, so not crawled
      '/readme': (_q, res) =>
        send(res, 200, html(`<main><h1>Readme</h1><img id="b" alt="badge" src="${readmeBadge}"></main>`, 'Readme')),
    });
    t = await createScanTestApp({
      SCAN_RATE_LIMIT: '1000',
      REPORT_RATE_LIMIT: '1000',
      SCAN_PAGE_TIMEOUT_MS: '15000',
      PUBLIC_BASE_URL: PUBLIC,
    });
    origin = WebClient.of(t.server).origin;
    browser = await puppeteer.launch({
      executablePath: t.config.CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      protocolTimeout: 40_000,
    });
    crawl = (
      await request(t.server)
        .post('/api/scan')
        .send({ url: `${site.origin}/`, crawl: true })
        .expect(200)
    ).body;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await site?.close();
  });

  const text = (path: string) => request(t.server).get(path).buffer(true).parse(asText);

  it('a crawl report has two pages sharing rules, and its page repeats no element id', async () => {
    expect(crawl.pages).toHaveLength(2);
    for (const p of crawl.pages)
      expect(p.violations.map((v) => v.id)).toEqual(expect.arrayContaining(['image-alt', 'button-name']));
    const page = (await text(`/r/${crawl.id}`).expect(200)).body as string;
    const ids = [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(5);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    // every aria-labelledby and skip link points at an element of the page
    for (const m of page.matchAll(/aria-labelledby="([^"]+)"|href="#([^"]+)"/g)) expect(ids).toContain(m[1] ?? m[2]);
  });

  it('in Chromium under a host name other than PUBLIC_BASE_URL, every picture loads; the page has the site header, a skip link and "Scan again"', async () => {
    const shots = crawl.pages
      .flatMap((p) => p.violations.flatMap((v) => v.nodes.map((n) => n.screenshot)))
      .filter(Boolean);
    expect(shots.length).toBeGreaterThan(0);
    expect(shots[0]).toMatch(new RegExp(`^${PUBLIC}/api/screenshots/`)); // the JSON keeps absolute addresses
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    try {
      const blocked: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
      });
      await page.goto(`${origin}/r/${crawl.id}`, { waitUntil: 'load' });
      // the full-page screenshots are in <details>: opened, every picture is there
      await page.$$eval('details', (ds) => ds.forEach((d) => ((d as unknown as { open: boolean }).open = true)));
      await page.waitForFunction("[...document.querySelectorAll('main img')].every((i) => i.complete)");
      const images = await page.$$eval('main img', (imgs) =>
        imgs.map((i) => ({
          src: i.getAttribute('src'),
          loaded: (i as unknown as { naturalWidth: number }).naturalWidth > 0,
        })),
      );
      expect(images.length).toBe(shots.length + 2 + 1); // the crops, two full pages, the badge
      expect(images.filter((i) => !i.loaded)).toEqual([]);
      expect(images.filter((i) => i.src!.startsWith('http'))).toEqual([]);
      expect(blocked).toEqual([]);
      // the website's layout: skip link first, the site navigation, main landmark
      expect(await page.$eval('body > a:first-child', (a) => [a.className, a.getAttribute('href')])).toEqual([
        'skip',
        '#main',
      ]);
      expect(
        await page.$eval('header.site nav[aria-label=Main] a[aria-current=page]', (a) => a.getAttribute('href')),
      ).toBe('/scan');
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe(
        'Skip to the content',
      );
      // "Scan this address again" opens the scan form prefilled with the address and the crawl flag
      await Promise.all([page.waitForNavigation(), page.click('main a.button[href^="/scan?"]')]);
      expect(new URL(page.url()).pathname).toBe('/scan');
      expect(await page.$eval('#url', (i) => (i as unknown as { value: string }).value)).toBe(`${site.origin}/`);
      expect(await page.$eval('#crawl', (i) => (i as unknown as { checked: boolean }).checked)).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("Beacon's own scanner finds no violation on the crawl report page", async () => {
    const r = (
      await request(t.server)
        .post('/api/scan')
        .send({ url: `${origin}/r/${crawl.id}` })
        .expect(200)
    ).body;
    expect(r.pages[0].violations).toEqual([]);
    expect(r.score).toBe(100);
  }, 120_000);

  it('the page and every export say nosniff and refuse framing; the badge stays an image', async () => {
    const paths = [
      `/r/${crawl.id}`,
      `/api/report.pdf?id=${crawl.id}`,
      `/api/badge/${crawl.id}`,
      `/api/scan/${crawl.id}/junit.xml`,
      `/api/scan/${crawl.id}/sarif`,
      `/api/scan/${crawl.id}/diff`,
      `/r/${'A'.repeat(32)}`,
    ];
    for (const path of paths) {
      const res = await request(t.server).get(path);
      expect([path, res.headers['x-content-type-options']]).toEqual([path, 'nosniff']);
      expect([path, res.headers['content-security-policy']]).toEqual([
        path,
        expect.stringContaining("frame-ancestors 'none'"),
      ]);
    }
    const page = await request(t.server).get(`/r/${crawl.id}`);
    expect(page.headers['content-security-policy']).toContain("img-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    // the badge as an <img> on another site's page still shows
    readmeBadge = `${origin}/api/badge/${crawl.id}`;
    const context = await browser.createBrowserContext();
    const other = await context.newPage();
    try {
      await other.goto(`${site.origin}/readme`);
      await other.waitForFunction("document.getElementById('b').complete");
      expect(await other.$eval('#b', (i) => (i as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(
        100,
      );
    } finally {
      await context.close();
    }
  }, 60_000);

  it('the report page offers Markdown and HTML snippets of the stable badge, with copy buttons that work', async () => {
    const stableBadge = `${PUBLIC}/api/badge?url=${encodeURIComponent(`${site.origin}/`)}&crawl=true`;
    const stableReport = `${PUBLIC}/r?url=${encodeURIComponent(`${site.origin}/`)}&crawl=true`;
    const context = await browser.createBrowserContext();
    await context.overridePermissions(origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    const page = await context.newPage();
    try {
      await page.goto(`${origin}/r/${crawl.id}`);
      expect(await page.$eval('#embed-markdown', (c) => c.textContent)).toBe(
        `[![Accessibility score (automated)](${stableBadge})](${stableReport})`,
      );
      expect(await page.$eval('#embed-html', (c) => c.textContent)).toBe(
        `<a href="${stableReport}"><img src="${stableBadge}" alt="Accessibility score (automated)"></a>`,
      );
      await page.click('button[data-copy=embed-html]');
      await page.waitForFunction("document.getElementById('embed-html-status').textContent !== ''");
      expect(await page.$eval('#embed-html-status', (s) => s.textContent)).toBe('Copied to the clipboard.');
      expect(await page.evaluate('navigator.clipboard.readText()')).toContain(stableBadge);
    } finally {
      await context.close();
    }
  }, 60_000);

  describe('a badge outlives its report', () => {
    const address = 'https://badge.example/';
    const key = cacheKeyOf(address, false);
    const day = 86400_000;
    const insert = (id: string, score: number, createdAt: Date) =>
      t.dataSource.query(
        `INSERT INTO a11y_reports (id, url, crawl, cache_key, score, report, created_at, expires_at) VALUES ($1, $2, false, $3, $4, '{}', $5, $6)`,
        [id, address, key, score, createdAt, new Date(createdAt.getTime() + 30 * day)],
      );
    const badge = async (path: string) => {
      const res = await text(path);
      expect([path, res.status, res.headers['content-type']]).toEqual([
        path,
        200,
        expect.stringMatching(/^image\/svg\+xml/),
      ]);
      return res;
    };
    const OLD = 'O'.repeat(32);
    const NEW = 'N'.repeat(32);

    it('the address badge and /r?url= follow the latest report; an expired id shows the latest of its address, also after the purge; then "report expired"', async () => {
      const clock = t.app.get(Clock);
      const reports = t.app.get(ReportsService);
      const real = clock.now;
      const now = Date.now();
      await insert(OLD, 41, new Date(now - 40 * day)); // expired 10 days ago
      await insert(NEW, 77, new Date(now - 5 * day));
      try {
        // never scanned: an SVG, not a JSON 404
        expect((await badge('/api/badge?url=https%3A%2F%2Fnever.example%2F')).body).toContain('not scanned');
        expect((await badge(`/api/badge/${'Z'.repeat(32)}`)).body).toContain('not scanned');
        expect((await badge('/api/badge/nonsense')).body).toContain('not scanned');
        // the stable badge of the address is its latest report's
        const stable = await badge(`/api/badge?url=${encodeURIComponent(address)}`);
        expect(stable.body).toContain('77/100');
        expect(stable.headers['cache-control']).toBe('public, max-age=300');
        expect((await badge(`/api/badge?url=${encodeURIComponent('https://BADGE.example:443/#x')}`)).body).toContain(
          '77/100',
        ); // normalised like scans
        expect((await badge(`/api/badge?url=${encodeURIComponent(address)}&crawl=true`)).body).toContain('not scanned'); // crawls are badged apart
        const latest = await request(t.server)
          .get(`/r?url=${encodeURIComponent(address)}`)
          .expect(302);
        expect(latest.headers.location).toBe(`/r/${NEW}`);
        const none = await request(t.server).get('/r?url=https%3A%2F%2Fnever.example%2F').expect(404);
        expect(none.text).toContain('No current report of this address');
        // an expired, not yet purged id: its address's latest report
        expect((await badge(`/api/badge/${OLD}`)).body).toContain('77/100');
        // purged: its address is remembered
        expect(await reports.purgeExpired()).toBe(1);
        expect(
          (await t.dataSource.query('SELECT count(*)::int AS n FROM a11y_reports WHERE id = $1', [OLD]))[0].n,
        ).toBe(0);
        expect((await badge(`/api/badge/${OLD}`)).body).toContain('77/100');
        // the live report's own badge is its own, cached as long as reports are
        expect((await badge(`/api/badge/${NEW}`)).headers['cache-control']).toBe('public, max-age=3600');
        // every report of the address expired and purged: "report expired", and the stable badge says so too
        clock.now = () => new Date(now + 26 * day);
        expect(await reports.purgeExpired()).toBeGreaterThanOrEqual(1);
        const expired = await badge(`/api/badge/${OLD}`);
        expect(expired.body).toContain('report expired');
        expect(expired.body).toMatch(/role="img" aria-label="No current accessibility report/);
        expect((await badge(`/api/badge/${NEW}`)).body).toContain('report expired');
        expect((await badge(`/api/badge?url=${encodeURIComponent(address)}`)).body).toContain('not scanned');
      } finally {
        clock.now = real;
        await t.dataSource.query('DELETE FROM a11y_reports WHERE id = ANY($1)', [[OLD, NEW]]);
      }
    });
  });
});
