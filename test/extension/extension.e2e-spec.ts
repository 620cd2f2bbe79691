import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import puppeteer, { Browser, Page, WebWorker } from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../src/a11y/browser/browser-pool';
import { gradeAt } from '../utils/axe-score';
import { docShot } from '../utils/screenshots';
import { createTestApp, TestApp } from '../utils/test-app';

const EXTENSION = join(__dirname, '..', '..', 'extension');
/** WEB_SCREENSHOTS=1 writes the documentation screenshots (docs/screenshots/), as browser.e2e-spec.ts does. */
const shot = docShot;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { build } = require('../../scripts/build-extension.js') as {
  build: (o: { site?: string; outDir: string }) => string;
};

/**
 * The browser extension (issue 23 item 5) loaded unpacked into Chromium against the full app: the
 * site address set in its options, its context-menu entries made, a click on "Open in Beacon PDF
 * tools > PDF to images" for a PDF link opening the tool page with the address in its input, a
 * non-PDF address leading to the tool list, the popup listing the tools; and the ZIP of
 * `npm run build:extension` (narrow permissions, the default site baked in).
 */
describe('Browser extension (e2e, Chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let worker: WebWorker;
  let id: string;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp();
    origin = `http://127.0.0.1:${(t.server.address() as { port: number }).port}`;
    browser = await puppeteer.launch({
      executablePath: t.config.CHROMIUM_PATH,
      headless: true,
      enableExtensions: [EXTENSION],
      pipe: true,
      args: CHROMIUM_ARGS.filter((a) => a !== '--disable-extensions'),
      protocolTimeout: 40_000,
    });
    const target = await browser.waitForTarget(
      (tg) => tg.type() === ('service_worker' as ReturnType<typeof tg.type>) && tg.url().endsWith('/background.js'),
      { timeout: 30_000 },
    );
    id = new URL(target.url()).host;
    worker = (await target.worker())!;
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Scores of Beacon's scanner (its axe run and scoring) at 1280 and 375 px, and the sideways overflow at 375. */
  async function grade(page: Page): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const width of [1280, 375]) {
      const entry = await gradeAt(t, page, width);
      if (entry.score !== 100)
        console.log(page.url(), width, JSON.stringify(entry.violations.map((v) => [v.id, v.nodes.map((n) => n.html)])));
      out[width] = entry.score;
    }
    out.overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    return out;
  }

  it('opens the chosen tool with the PDF link filled in, on the site address of its options', async () => {
    // The options page: a wrong address is refused, the app's is saved.
    const options = await browser.newPage();
    await options.goto(`chrome-extension://${id}/options.html`);
    await options.waitForFunction("document.getElementById('site').value !== ''");
    // type=url would stop the form in the browser; the script's own check is what is tested.
    await options.evaluate("const s = document.getElementById('site'); s.type = 'text'; s.value = 'ftp://nope'");
    await options.click('button[type=submit]');
    await options.waitForFunction("document.getElementById('status').textContent.startsWith('Enter an http')");
    await options.evaluate(`document.getElementById('site').value = ${JSON.stringify(`${origin}/`)}`);
    await options.click('button[type=submit]');
    await options.waitForFunction(
      `document.getElementById('status').textContent === ${JSON.stringify(`Saved: the tools open on ${origin}.`)}`,
    );

    // The menu entries exist (update fails on an unknown id).
    const exists = (menu: string): Promise<string> =>
      worker.evaluate(
        `new Promise((r) => chrome.contextMenus.update(${JSON.stringify(menu)}, {}, () => r(chrome.runtime.lastError ? chrome.runtime.lastError.message : 'ok')))`,
      ) as Promise<string>;
    expect(await exists('beacon-link:images')).toBe('ok');
    expect(await exists('beacon-page:ocr')).toBe('ok');
    expect(await exists('beacon-link:nothing')).not.toBe('ok');

    // A click on the link entry: the tool page, its address field filled in.
    const pdf = 'https://files.example.org/reports/annual report.pdf?v=2';
    const opened = browser.waitForTarget((tg) => tg.url().startsWith(`${origin}/pdf/images?url=`), { timeout: 20_000 });
    const url = await worker.evaluate(
      (p) =>
        (globalThis as unknown as { beaconMenuClick: (i: object) => Promise<string> }).beaconMenuClick({
          menuItemId: 'beacon-link:images',
          linkUrl: p,
          pageUrl: 'https://example.org/',
        }),
      pdf,
    );
    expect(url).toBe(`${origin}/pdf/images?url=${encodeURIComponent(pdf)}`);
    const page = (await (await opened).page())!;
    await page.waitForSelector('#url');
    expect(await page.evaluate("document.getElementById('url').value")).toBe(pdf);
    expect(await page.$eval('h1', (el) => el.textContent)).toBe('PDF to images');
    // The pages it leads to score 100 with Beacon's own scanner, on a desktop and a phone, nothing wider than the screen.
    expect(await grade(page)).toEqual({ 1280: 100, 375: 100, overflow: 0 });
    await page.setViewport({ width: 1280, height: 800 });
    await shot(page, 'pdf-images');
    await page.goto(`${origin}/pdf/ocr?url=${encodeURIComponent(pdf)}`);
    expect(await grade(page)).toEqual({ 1280: 100, 375: 100, overflow: 0 });
    await page.setViewport({ width: 1280, height: 800 });
    await shot(page, 'pdf-ocr');
    await options.setViewport({ width: 480, height: 300 });
    await shot(options, 'extension-options');

    // Every one-file tool takes the link (the nine tools' pages have the same address field); merge does not.
    expect(await exists('beacon-link:split-pdf')).toBe('ok');
    expect(await exists('beacon-page:read-pdf')).toBe('ok');
    expect(await exists('beacon-link:merge-pdfs')).not.toBe('ok');
    const splitOpened = browser.waitForTarget((tg) => tg.url().startsWith(`${origin}/pdf/split-pdf?url=`), {
      timeout: 20_000,
    });
    await worker.evaluate(
      (p) =>
        (globalThis as unknown as { beaconMenuClick: (i: object) => Promise<string> }).beaconMenuClick({
          menuItemId: 'beacon-page:split-pdf',
          pageUrl: p,
        }),
      pdf,
    );
    const split = (await (await splitOpened).page())!;
    await split.waitForSelector('#url');
    expect(await split.evaluate("document.getElementById('url').value")).toBe(pdf);
    expect(await split.$eval('h1', (el) => el.textContent)).toBe('Split a PDF');
    expect(await grade(split)).toEqual({ 1280: 100, 375: 100, overflow: 0 });

    // Not a PDF's address: the tool list instead.
    const list = await worker.evaluate(() =>
      (globalThis as unknown as { beaconMenuClick: (i: object) => Promise<string> }).beaconMenuClick({
        menuItemId: 'beacon-page:ocr',
        pageUrl: 'https://example.org/page.html',
      }),
    );
    expect(list).toBe(`${origin}/pdf`);
  });

  it('lists the tools in its popup, on the configured site', async () => {
    const popup = await browser.newPage();
    await popup.goto(`chrome-extension://${id}/popup.html`);
    await popup.waitForSelector('#tools li');
    const links = await popup.$$eval('#tools a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toHaveLength(12);
    expect(links).toContainEqual(['PDF to text', `${origin}/pdf/read-pdf`]);
    expect(links[0]).toEqual(['PDF to images', `${origin}/pdf/images`]);
    expect(links).toContainEqual(['Merge PDFs', `${origin}/pdf/merge-pdfs`]);
    await popup.setViewport({ width: 360, height: 420 });
    await shot(popup, 'extension-popup');
  });

  it('builds a ZIP with the narrowest permissions and the default site baked in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'extension-zip-'));
    try {
      const zip = unzipSync(
        new Uint8Array(await readFile(build({ site: 'https://beacon.example.com/', outDir: dir }))),
      );
      const manifest = JSON.parse(strFromU8(zip['manifest.json'])) as {
        manifest_version: number;
        permissions: string[];
        host_permissions?: string[];
      };
      expect(manifest.manifest_version).toBe(3);
      expect(manifest.permissions.sort()).toEqual(['activeTab', 'contextMenus', 'storage']);
      expect(manifest.host_permissions).toBeUndefined();
      expect(strFromU8(zip['tools.js'])).toContain("export const DEFAULT_SITE = 'https://beacon.example.com';");
      expect(Object.keys(zip).sort()).toEqual([
        'background.js',
        'icon-128.png',
        'icon-16.png',
        'icon-48.png',
        'manifest.json',
        'options.html',
        'options.js',
        'popup.css',
        'popup.html',
        'popup.js',
        'tools.js',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
