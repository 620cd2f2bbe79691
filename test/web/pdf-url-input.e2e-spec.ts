import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'puppeteer-core';
import { textPdf } from '../pdf-tools/helpers';
import { useBrowserApp } from '../utils/browser-app';
import { WebClient } from './web-client';

/**
 * `?url=` on the tool pages (issue 23: the browser extension opens `/pdf/<tool>?url=<pdf link>`),
 * in real Chromium against the full app and a loopback site (the unsafe test setting lets the
 * egress guard fetch from it): the address is the page's input, the tool runs on it from the
 * keyboard; a link that is not a PDF's is said to be so, before the run and after it.
 */
describe('Tool pages with a PDF link filled in (?url=, Chromium e2e)', () => {
  const app = useBrowserApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true', PDF_DAILY_LIMIT: '50' } });
  let site: Server;
  let files: string;

  beforeAll(async () => {
    const pdf = Buffer.from(await textPdf(3, { name: 'linked' }));
    site = createServer((req, res) => {
      if (req.url === '/docs/linked.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Not a PDF</title><p>Hello');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    files = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => site?.close(r));
  });

  /** Runs the page's tool from the keyboard: focus the run button, press Enter, wait for the result or the error. */
  async function runByKeyboard(page: Page): Promise<void> {
    await page.focus('#run-form button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#result, .error-summary', { timeout: 60_000 });
  }

  it('fills the address into the tool page and runs the tool on it', async () => {
    const page = await (await app.browser.createBrowserContext()).newPage();
    const link = `${files}/docs/linked.pdf`;
    await page.goto(`${app.origin}/pdf/read-pdf?url=${encodeURIComponent(link)}`);
    expect(await page.$eval('#url', (el) => (el as unknown as { value: string }).value)).toBe(link);
    expect(await page.$('#url-note')).toBeNull();
    // Nothing run yet: no "Start again"; after the run there is one, as after an upload.
    const again = 'a[href="/pdf/read-pdf"]';
    expect(await page.$(`#run-form ${again}`)).toBeNull();
    await runByKeyboard(page);
    expect(await page.$eval(`#run-form ${again}`, (a) => a.textContent)).toBe('Start again with another file');
    expect(await page.$('.error-summary')).toBeNull();
    const text = await page.$eval('#result-text', (el) => el.textContent ?? '');
    expect(text).toContain('Page 2 of linked');
    // The address stays in the field for the next run.
    expect(await page.$eval('#url', (el) => (el as unknown as { value: string }).value)).toBe(link);

    // The short address the extension may use (`/pdf/split?url=`) keeps the query on its redirect.
    await page.goto(`${app.origin}/pdf/split?url=${encodeURIComponent(link)}`);
    expect(new URL(page.url()).pathname).toBe('/pdf/split-pdf');
    expect(await page.$eval('#url', (el) => (el as unknown as { value: string }).value)).toBe(link);
  });

  it('says when the link is not a PDF: before the run (not .pdf, not http) and after it (what came back)', async () => {
    const page = await (await app.browser.createBrowserContext()).newPage();
    const html = `${files}/about/page.html`;
    await page.goto(`${app.origin}/pdf/compress-pdf?url=${encodeURIComponent(html)}`);
    expect(await page.$eval('#url-note', (el) => el.textContent)).toBe(
      'This address does not end in .pdf: if it does not lead to a PDF file, the tool will say so when you run it.',
    );
    expect(await page.$eval('#url', (el) => el.getAttribute('aria-describedby'))).toBe('url-hint url-note');
    await runByKeyboard(page);
    expect(await page.$eval('.error-summary p', (el) => el.textContent)).toBe(
      `${html} does not lead to a PDF file: check the link, or download the PDF and upload it. This try did not use your quota.`,
    );
    // The summary links to the address field, marked invalid.
    expect(await page.$eval('.error-summary a', (el) => el.getAttribute('href'))).toBe('#url');
    expect(await page.$eval('#url', (el) => el.getAttribute('aria-invalid'))).toBe('true');

    await page.goto(`${app.origin}/pdf/rotate-pages?url=${encodeURIComponent('javascript:alert(1)')}`);
    expect(await page.$eval('#url-note', (el) => el.textContent)).toBe(
      'Only http and https addresses can be fetched: download the PDF and upload it instead.',
    );
    // PDF to images and OCR say the same of the same link.
    await page.goto(`${app.origin}/pdf/images?url=${encodeURIComponent(html)}`);
    expect(await page.$eval('#url-note', (el) => el.textContent)).toContain('does not end in .pdf');
  });

  it('leaves merge to uploads: no address field there', async () => {
    const c = WebClient.of(app.t.server);
    const r = await c.request('GET', `/pdf/merge-pdfs?url=${encodeURIComponent(`${files}/docs/linked.pdf`)}`);
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('id="url"');
  });
});
