import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { launchChromium } from '../../src/a11y/browser/browser-pool';
import { runAxe } from '../../src/a11y/scan/axe-runner';
import { WindowOpener } from '../../src/a11y/scan/windows';

/* eslint-disable @typescript-eslint/no-explicit-any -- page.evaluate callbacks reach the DOM through globalThis */

const PAGES: Record<string, string> = {
  // A page with a frame: axe runs in each frame and merges them with finishRun in a blank page.
  '/framed':
    '<!DOCTYPE html><html lang="en"><head><title>Framed</title></head><body><main><h1>Framed</h1><iframe title="Inner" src="/inner"></iframe></main></body></html>',
  '/inner':
    '<!DOCTYPE html><html lang="en"><head><title>Inner</title></head><body><img id="inner-img" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></body></html>',
  // Another page of the same context (a crawl's other lane): it records every visibility change.
  '/watch':
    '<!DOCTYPE html><html lang="en"><head><title>Watch</title></head><body><main><h1>Watch</h1></main><script>window.seen = []; document.addEventListener("visibilitychange", () => window.seen.push(document.visibilityState));</script></body></html>',
};

describe('windows of a scan (e2e, real Chromium)', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = PAGES[req.url ?? ''];
      res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' }).end(body ?? '');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ browser, cleanup } = await launchChromium(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'));
  });

  afterAll(async () => {
    await browser?.close();
    await cleanup?.();
    server?.close();
  });

  it("axe's blank page for finishRun (a page with frames) hides no other page of the context", async () => {
    const context = await browser.createBrowserContext();
    try {
      const windows = new WindowOpener();
      const framed = await windows.open(context);
      // The context's last window: a tab opened now would be put in front of it.
      const other = await windows.open(context);
      await other.goto(`${origin}/watch`, { waitUntil: 'load' });
      await framed.goto(`${origin}/framed`, { waitUntil: 'load' });
      const out = await runAxe(framed, windows);
      // The frame was graded (its image's violation comes from the merge in the blank page) ...
      const img = out.violations.find((v) => v.id === 'image-alt');
      expect(img?.nodes.map((n) => n.target)).toEqual([['iframe', '#inner-img']]);
      // ... and the other page stayed visible all along.
      expect(await other.evaluate(() => (globalThis as any).seen)).toEqual([]);
      expect(await other.evaluate(() => (globalThis as any).document.visibilityState)).toBe('visible');
      expect((await context.pages()).length).toBe(2); // the blank page is closed
    } finally {
      await context.close();
    }
  });

  it("a scan's window loads no address-bar pages (Chromium's omnibox popup WebUI is off)", async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await new WindowOpener().open(context);
      await page.goto(`${origin}/watch`, { waitUntil: 'load' });
      // Without the flag, each window comes with chrome://omnibox-popup.top-chrome/ pages (a
      // renderer of their own); they are created with the window, before its page has loaded.
      const webUi = browser.targets().filter((t) => t.url().startsWith('chrome://'));
      expect(webUi.map((t) => t.url())).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
