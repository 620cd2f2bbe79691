import request from 'supertest';
import type { TestApp } from '../utils/test-app';
import { createScanTestApp } from './scan-app';
import type { Report } from '../../src/a11y/report/report.types';
import { FixtureServer, html, send, startFixtureServer } from './fixture-server';

const DOT = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
/** What each shell becomes: a heading and an image without alt (an image-alt violation). */
const CONTENT = `<main><h1>Rendered</h1><p>The real content of the page.</p><img id="late-img" src="${DOT}"></main>`;
/** Swaps #app's content for CONTENT 1 s after the load event (long after the scanner's first look). */
const AFTER_TIMER = `<script>addEventListener('load', () => setTimeout(() => { document.getElementById('app').innerHTML = '${CONTENT}'; }, 1000));</script>`;

/** Spinner shells: the app's header and, in #app, one kind of busy marker and nothing else. */
const SIZE = 'display:block;width:40px;height:40px;border:4px solid #888;border-radius:50%';
const SPINNERS: Record<string, string> = {
  progressbar: `<div role="progressbar" aria-label="Loading" style="${SIZE}"></div>`,
  'aria-busy': `<section aria-busy="true" style="min-height:40px;border:1px solid #ddd"></section>`,
  'class loader': `<div class="page-loader" style="${SIZE}"></div>`,
  'svg spinner (Tailwind animate-spin)': `<svg class="animate-spin h-8 w-8" width="40" height="40" viewBox="0 0 40 40" aria-hidden="true"><circle cx="20" cy="20" r="16" fill="none" stroke="#888" stroke-width="4"></circle></svg>`,
  'image spinner': `<img src="${DOT}" alt="Loading…" width="40" height="40">`,
  progress: '<progress></progress>',
  skeleton:
    '<div class="skeleton-card" style="width:300px;height:80px;background:#eee"></div><div class="skeleton-line" style="width:200px;height:16px;background:#eee"></div>',
};

/**
 * The common app shells (issue #20, item 11) are graded on what they render, not on the loading
 * screen: a "Loading…" text, a spinner element, an empty root filled from a fetch. A page that
 * never stops loading ends within the limit as an incomplete render; a quiet page does not wait.
 */
describe('Render wait: app shells are graded on their rendered content (e2e, real Chromium)', () => {
  let t: TestApp;
  let site: FixtureServer;

  beforeAll(async () => {
    site = await startFixtureServer({
      // (a) the page of the issue: a text "Loading…" root replaced after a timer, served without a
      // charset (so "…" shows as "â€¦"), and the same page with its charset
      '/text-shell': (_q, res) =>
        send(
          res,
          200,
          `<!DOCTYPE html><html lang="en"><head><title>Text shell</title></head><body><div id="app">Loading…</div>${AFTER_TIMER}</body></html>`,
          {
            'Content-Type': 'text/html',
          },
        ),
      '/text-shell-utf8': (_q, res) => send(res, 200, html(`<div id="app">Loading…</div>${AFTER_TIMER}`, 'Text shell')),
      '/text-shell-long': (_q, res) =>
        send(
          res,
          200,
          html(`<div id="app"><p>Loading your dashboard, please wait…</p></div>${AFTER_TIMER}`, 'Text shell'),
        ),
      // (b) a spinner element replaced after a timer
      '/spinner-shell': (q, res) => {
        const kind = new URL(q.url ?? '/', 'http://x').searchParams.get('kind') ?? 'progressbar';
        send(
          res,
          200,
          html(
            `<header><strong>Acme</strong></header><div id="app">${SPINNERS[kind]}</div>${AFTER_TIMER}`,
            'Spinner shell',
          ),
        );
      },
      // (c) an empty root filled from a fetch of a local JSON endpoint that answers late
      '/fetch-shell': (_q, res) =>
        send(
          res,
          200,
          html(
            `<div id="root"></div><script>
              fetch('/api/items').then((r) => r.json()).then((d) => { document.getElementById('root').innerHTML = d.html; });
            </script>`,
            'Fetch shell',
          ),
        ),
      // ... the same, with the fetch started after the load event
      '/fetch-after-load': (_q, res) =>
        send(
          res,
          200,
          html(
            `<div id="root"></div><script>addEventListener('load', () => setTimeout(() => {
              fetch('/api/items?ms=600').then((r) => r.json()).then((d) => { document.getElementById('root').innerHTML = d.html; });
            }, 300));</script>`,
            'Fetch shell',
          ),
        ),
      // answers 1.5 s (or ?ms=) after the request
      '/api/items': (q, res) => {
        const ms = Number(new URL(q.url ?? '/', 'http://x').searchParams.get('ms') ?? 1500);
        const timer = setTimeout(
          () => send(res, 200, JSON.stringify({ html: CONTENT }), { 'Content-Type': 'application/json' }),
          ms,
        );
        res.on('close', () => clearTimeout(timer));
      },
      // never gets past "Loading…": its dots change every 100 ms and it polls the server every 300 ms
      '/never-loads': (_q, res) =>
        send(
          res,
          200,
          html(
            `<div id="app" aria-busy="true">Loading<span id="dots"></span></div><script>
              let n = 0;
              setInterval(() => { document.getElementById('dots').textContent = '.'.repeat(++n % 4); }, 100);
              setInterval(() => { fetch('/api/ping').catch(() => {}); }, 300);
            </script>`,
            'Never loads',
          ),
        ),
      '/api/ping': (_q, res) => send(res, 200, '{}', { 'Content-Type': 'application/json' }),
      // a quiet page: rendered at once, with a timer pending that changes nothing
      '/quiet': (_q, res) =>
        send(res, 200, html(`${CONTENT}<script>setTimeout(() => { window.__late = 1; }, 3000);</script>`, 'Quiet')),
    });
    t = await createScanTestApp({ SCAN_RATE_LIMIT: '1000', SCAN_CACHE_TTL_S: '0', SCAN_PAGE_TIMEOUT_MS: '20000' });
  });

  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  const scan = async (url: string): Promise<Report> =>
    (await request(t.server).post('/api/scan').send({ url }).expect(200)).body;

  /** Graded on the rendered content, with a render wait that says so. */
  function expectGradedAfterWait(r: Report): void {
    const page = r.pages[0];
    const img = page.violations.find((v: { id: string }) => v.id === 'image-alt');
    expect(img?.nodes.map((n: { target: string[] }) => n.target)).toEqual([['#late-img']]);
    expect(r.score).toBeLessThan(100);
    expect(page.render).toMatchObject({ state: 'complete', domStable: true, fontsLoaded: true });
    expect(page.render?.reason).toBeUndefined();
    expect(page.render?.waitMs).toBeGreaterThan(0);
    expect(page.timings.settleMs).toBeGreaterThanOrEqual(page.render?.waitMs ?? 0);
    expect(r.meta).toMatchObject({ render: 'complete', renderWaitMs: page.render?.waitMs });
  }

  it('(a) a "Loading…" text root replaced after a timer (served without a charset, as in the issue) is graded on what replaces it', async () => {
    expectGradedAfterWait(await scan(`${site.origin}/text-shell`));
  });

  it('(a) the same page with its charset declared', async () => {
    expectGradedAfterWait(await scan(`${site.origin}/text-shell-utf8`));
  });

  it('(a) a longer loading sentence is a loading screen too', async () => {
    expectGradedAfterWait(await scan(`${site.origin}/text-shell-long`));
  });

  it.each(Object.keys(SPINNERS))(
    '(b) a spinner shell (%s) replaced after a timer is graded on what replaces it',
    async (kind) => {
      expectGradedAfterWait(await scan(`${site.origin}/spinner-shell?kind=${encodeURIComponent(kind)}`));
    },
  );

  it('(c) an empty root filled from a late fetch of a local JSON endpoint is graded on the fetched content', async () => {
    expectGradedAfterWait(await scan(`${site.origin}/fetch-shell`));
  });

  it('(c) an empty root filled from a fetch started after the load event is graded on the fetched content', async () => {
    expectGradedAfterWait(await scan(`${site.origin}/fetch-after-load`));
  });

  it('a page that never stops loading ends within the limit, reported as an incomplete render', async () => {
    const r = await scan(`${site.origin}/never-loads`);
    const page = r.pages[0];
    expect(page.render).toMatchObject({ state: 'incomplete', reason: 'loading indicator' });
    expect(page.render?.waitMs).toBeGreaterThan(0);
    expect(r.meta).toMatchObject({ render: 'incomplete', renderWaitMs: page.render?.waitMs });
    expect(r.score).toBe(0);
  });

  it('a quiet page is graded at once: no render wait for a pending timer', async () => {
    const r = await scan(`${site.origin}/quiet`);
    const page = r.pages[0];
    expect(page.violations.map((v: { id: string }) => v.id)).toContain('image-alt');
    expect(page.render).toMatchObject({ state: 'complete', waitMs: 0 });
    expect(r.meta).toMatchObject({ render: 'complete', renderWaitMs: 0 });
  });
});
