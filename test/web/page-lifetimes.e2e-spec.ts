import { createHash } from 'node:crypto';
import type { Browser, Page } from 'puppeteer-core';
import request from 'supertest';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { AccountsService } from '../../src/accounts/accounts.service';
import { CSS, FAVICON, JS } from '../../src/common/html/assets';
import { html, send, startFixtureServer, FixtureServer } from '../a11y/fixture-server';
import { launchChromium } from '../utils/chromium';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebClient } from './web-client';

/** The name a file of src/common/html/assets had in another build: same file, another content hash. */
const olderName = (path: string): string =>
  path.replace(/-[0-9a-f]{12}\./, `-${createHash('sha256').update(`older ${path}`).digest('hex').slice(0, 12)}.`);

/** Computed styles that show the stylesheet applied (the page's frame, its headings, the score). */
const LOOK = `[...document.querySelectorAll('header.site, main, h1, .score')].map((e) => {
  const s = getComputedStyle(e);
  return [e.tagName, s.display, s.padding, s.borderBottom, s.fontFamily, s.color, s.backgroundColor].join(' | ');
})`;

/**
 * Pages that outlive the moment they were made: a report page cached (an hour) from before a
 * deploy still links the older build's stylesheet, script and icon, and keeps its look; a notice
 * carried in the address after a redirect (`?notice=`) is shown once, not again on a reload.
 */
describe('Pages that outlive their moment (Chromium e2e)', () => {
  let t: TestApp;
  let site: FixtureServer;
  let browser: Browser;
  let origin: string;
  let reportId: string;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/': (_q, res) => send(res, 200, html('<main><h1>Fixture</h1><p>Hello.</p></main>', 'Fixture')),
    });
    t = await createTestApp({
      env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true', SCAN_RATE_LIMIT: '100', REPORT_RATE_LIMIT: '1000' },
    });
    t.app.get(ScanService).resolver = () =>
      Promise.reject(Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' }));
    origin = WebClient.of(t.server).origin;
    browser = await launchChromium(t);
    reportId = (
      (
        await request(t.server)
          .post('/api/scan')
          .send({ url: `${site.origin}/` })
          .expect(200)
      ).body as { id: string }
    ).id;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await site?.close();
  });

  it("answers another build's asset names with this build's files, cached briefly; other names are 404", async () => {
    for (const a of [CSS, JS, FAVICON]) {
      const current = await fetch(`${origin}${a.path}`);
      expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const older = await fetch(`${origin}${olderName(a.path)}`);
      expect(older.status).toBe(200);
      expect(older.headers.get('content-type')).toBe(a.type);
      expect(older.headers.get('cache-control')).toBe('public, max-age=300');
      expect(Buffer.from(await older.arrayBuffer()).equals(a.body)).toBe(true);
    }
    for (const name of ['web-0123.css', 'web-0123456789ab.png', 'other-0123456789ab.css', 'web-0123456789AB.css'])
      expect({ name, status: (await fetch(`${origin}/assets/${name}`)).status }).toEqual({ name, status: 404 });
  });

  it('a report page rendered before a rebuild (older asset names, cached an hour) keeps its look', async () => {
    const res = await fetch(`${origin}/r/${reportId}`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const now = await res.text();
    expect(now).toContain(CSS.path);
    // The same page as the build before rendered it: its stylesheet, script and icon under their older names.
    let before = now;
    for (const a of [CSS, JS, FAVICON]) before = before.split(a.path).join(olderName(a.path));
    expect(before).not.toContain(CSS.path);
    const headers = Object.fromEntries(
      [...res.headers].filter(([k]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(k)),
    );

    const current = await (await browser.createBrowserContext()).newPage();
    await current.goto(`${origin}/r/${reportId}`);
    const look = (await current.evaluate(LOOK)) as string[];
    expect(look.length).toBeGreaterThanOrEqual(3);

    // A browser (or CDN) that kept the older page: it is served from its cache, its assets from the new build.
    const cached = await (await browser.createBrowserContext()).newPage();
    const assets: Array<[string, number]> = [];
    await cached.setRequestInterception(true);
    cached.on('request', (r) => {
      if (r.isNavigationRequest()) void r.respond({ status: 200, headers, body: before });
      else void r.continue();
    });
    cached.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/assets/')) assets.push([new URL(r.url()).pathname, r.status()]);
    });
    await cached.goto(`${origin}/r/${reportId}`, { waitUntil: 'load' });
    expect(assets).toEqual(
      expect.arrayContaining([
        [olderName(CSS.path), 200],
        [olderName(JS.path), 200],
      ]),
    );
    expect(await cached.evaluate(LOOK)).toEqual(look);
    await current.browserContext().close();
    await cached.browserContext().close();
  }, 60_000);

  it('a notice in the address (?notice=) is shown once: the address drops it, a reload does not show it again', async () => {
    await t.createKey('notices');
    const accounts = t.app.get(AccountsService);
    const user = await accounts.createUser('notices', 'notice-admin@example.com', 'admin');
    const client = WebClient.of(t.server);
    await client.signIn(user.email, user.one_time_password, 'a long enough password');
    const page: Page = await (await browser.createBrowserContext()).newPage();
    await page.setCookie(...[...client.cookies].map(([name, value]) => ({ name, value, url: origin })));
    const path = '/dashboard/settings/alerts';
    const said = async (): Promise<boolean> =>
      ((await page.evaluate('document.querySelector("main").textContent')) as string).includes(
        'A test alert is on its way',
      );
    await page.goto(`${origin}${path}?notice=test-sent`);
    expect(await said()).toBe(true);
    expect(page.url()).toBe(`${origin}${path}`);
    await page.reload();
    expect(await said()).toBe(false);
    // Other parameters of the address stay.
    await page.goto(`${origin}${path}?notice=test-sent&x=1#log`);
    expect(page.url()).toBe(`${origin}${path}?x=1#log`);
    await page.browserContext().close();
  }, 60_000);
});
