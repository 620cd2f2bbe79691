import type { Page } from 'puppeteer-core';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { useBrowserApp } from '../utils/browser-app';
import { withoutDns } from './scan-app';
import { FixtureServer, html, send, startFixtureServer } from './fixture-server';

const DOT = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/**
 * The scan page in real Chromium: a rescan of a page fixed since its last scan (within the cache's
 * hour) says the result is cached, when it was made, and "Scan again now" lands on the new report
 * with its diff; an address typed without a scheme is accepted by the form.
 */
describe('Scan page in Chromium: cached results and "Scan again now" (e2e)', () => {
  const app = useBrowserApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true', SCAN_RATE_LIMIT: '100' } });
  let site: FixtureServer;
  let fixed = false;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/shop': (_q, res) =>
        send(
          res,
          200,
          html(
            `<main><h1>Shop</h1><img id="logo" src="${DOT}"${fixed ? ' alt="Shop logo"' : ''}><img id="banner" src="${DOT}"><p>Welcome.</p></main>`,
            'Shop',
          ),
        ),
    });
    withoutDns(app.t);
  });

  afterAll(async () => {
    await site?.close();
  });

  const fresh = async (): Promise<Page> => (await app.browser.createBrowserContext()).newPage();
  const bodyText = (page: Page): Promise<string> =>
    (page.evaluate('document.body.innerText') as Promise<string>).then((s) => s.replace(/\s+/g, ' '));

  async function scanFromForm(page: Page, url: string): Promise<number> {
    await page.goto(`${app.origin}/scan`);
    await page.type('#url', url);
    const [r] = await Promise.all([
      page.waitForNavigation({ timeout: 90_000 }),
      page.click('form.stack button[type=submit]'),
    ]);
    return r!.status();
  }

  it('says a rescan within the hour is the earlier result, with its date, and "Scan again now" shows the new report and what was fixed', async () => {
    const page = await fresh();
    const url = `${site.origin}/shop`;
    expect(await scanFromForm(page, url)).toBe(200);
    expect(page.url()).toMatch(new RegExp(`^${app.origin}/r/[A-Za-z0-9_-]{32}$`));
    const firstReport = page.url();

    fixed = true; // the site's owner fixes one of the two images

    expect(await scanFromForm(page, url)).toBe(200);
    const firstId = firstReport.slice(firstReport.lastIndexOf('/') + 1);
    expect(page.url()).toBe(`${app.origin}/scan?report=${firstId}`);
    const notice = (await page.$eval('#cached', (e) => (e as unknown as { innerText: string }).innerText)).replace(
      /\s+/g,
      ' ',
    );
    expect(notice).toContain('This is the result of an earlier scan');
    expect(notice).toMatch(
      new RegExp(
        `${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was scanned (less than a minute|\\d+ minutes?) ago, on \\w+day \\d{1,2} \\w+ \\d{4} at \\d\\d:\\d\\d UTC`,
      ),
    );
    expect(await page.$eval('#cached a', (a) => (a as unknown as { href: string }).href)).toBe(firstReport);
    expect(site.hits.get('/shop')).toBe(1); // the cached answer did not load the page again

    const [r] = await Promise.all([
      page.waitForNavigation({ timeout: 90_000 }),
      page.click('#cached button[type=submit]'),
    ]);
    expect(r!.status()).toBe(200);
    expect(page.url()).toMatch(new RegExp(`^${app.origin}/r/[A-Za-z0-9_-]{32}$`));
    expect(page.url()).not.toBe(firstReport);
    expect(site.hits.get('/shop')).toBe(2);
    const report = await bodyText(page);
    expect(report).toMatch(
      /Compared with the scan of .* \(score \d+, now \d+: .*\): 0 new failing elements, 1 fixed element, 1 element still failing\./,
    );
    await page.browserContext().close();
  }, 300_000);

  it('accepts an address typed without http:// (the field is not a type=url field that refuses it) and says https:// was assumed', async () => {
    const page = await fresh();
    await page.goto(`${app.origin}/scan`);
    const typed = `127.0.0.1:${site.port}/shop`;
    await page.type('#url', typed);
    expect(await page.$eval('#url', (e) => (e as unknown as { checkValidity(): boolean }).checkValidity())).toBe(true);
    expect(await bodyText(page)).toContain('Without http:// or https://, Beacon uses https://.');
    const [r] = await Promise.all([
      page.waitForNavigation({ timeout: 90_000 }),
      page.click('form.stack button[type=submit]'),
    ]);
    expect(r!.status()).toBe(422); // the fixture has no https
    const summary = (
      await page.$eval('.error-summary', (e) => (e as unknown as { innerText: string }).innerText)
    ).replace(/\s+/g, ' ');
    expect(summary).toContain(`Beacon tried https://${typed}`);
    expect(summary).not.toMatch(/ERR_[A-Z_]+/);
    expect(await page.$eval('#url', (e) => (e as unknown as { value: string }).value)).toBe(typed);
    await page.browserContext().close();
  }, 120_000);

  it("scores 100 with Beacon's own scan on the cached-result page", async () => {
    const scans = app.t.app.get(ScanService);
    const made = await scans.scan(`${site.origin}/shop`, false);
    const report = await scans.scan(`${app.origin}/scan?report=${made.id}`, false);
    expect(report.pages[0].violations.map((v) => v.id)).toEqual([]);
    expect(report.score).toBe(100);
  }, 120_000);
});
