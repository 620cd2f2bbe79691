import type { AxeResults } from 'axe-core';
import request from 'supertest';
import type { Browser } from 'puppeteer-core';
import { BrowserPool } from '../../src/a11y/browser/browser-pool';
import { ScanQueue } from '../../src/a11y/queue/scan-queue';
import { Clock } from '../../src/a11y/report/clock';
import { ReportsService } from '../../src/a11y/report/reports.service';
import { AXE_OPTIONS, AXE_SOURCE } from '../../src/a11y/scan/axe-runner';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { createTestApp, TestApp } from '../utils/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any -- page.evaluate callbacks reach the DOM through globalThis */
import { BAD_PAGE, FixtureServer, GOOD_PAGE, html, send, startFixtureServer } from './fixture-server';
import { pdfText } from './pdf-text';
import { bytes, text } from '../utils/body-parsers';

/** Hosts Chromium itself contacts in the background (not a scanned page's requests). */
const CHROMIUM_SERVICE_HOST = /(^|\.)(google\.com|googleapis\.com|gstatic\.com|gvt1\.com)$/;

/** Waits until `cond` holds (polling), or fails after `ms`. */
async function until(cond: () => boolean | Promise<boolean>, ms = 20000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('Accessibility scans (e2e, real Chromium, pages on 127.0.0.1)', () => {
  let t: TestApp;
  let site: FixtureServer;
  let other: FixtureServer;
  let browser: Browser;
  const dnsLookups: string[] = [];
  const beacons: string[] = [];

  beforeAll(async () => {
    other = await startFixtureServer({
      '/frame': (_q, res) =>
        send(
          res,
          200,
          html('<img id="framed-img" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">', 'Cross-origin frame'),
        ),
      '/page': (_q, res) => send(res, 200, GOOD_PAGE),
      '/probe-frame': (_q, res) =>
        send(
          res,
          200,
          html(
            `<p>frame</p><script>fetch('/beacon?where=frame&ws=' + typeof WebSocket + '&rtc=' + typeof RTCPeerConnection)</script>`,
            'Probe frame',
          ),
        ),
      '/beacon': (req, res) => {
        beacons.push(new URL(req.url ?? '/', 'http://x').search);
        send(res, 200, '');
      },
    });
    site = await startFixtureServer({
      '/bad': (_q, res) => send(res, 200, BAD_PAGE),
      '/good': (_q, res) => send(res, 200, GOOD_PAGE),
      '/shared': (_q, res) => setTimeout(() => send(res, 200, GOOD_PAGE), 300),
      '/frames': (_q, res, origin) =>
        send(
          res,
          200,
          html(
            `<main><h1>Frames</h1><iframe title="Same origin" src="${origin}/bad"></iframe><iframe title="Other origin" src="${other.origin}/frame"></iframe></main>`,
            'Frames',
          ),
        ),
      '/site/': (_q, res, origin) =>
        send(
          res,
          200,
          html(
            `<main><h1>Home</h1><ul>${[1, 2, 3, 4, 5, 6, 7].map((i) => `<li><a href="/site/p${i}">Page ${i}</a></li>`).join('')}
             <li><a href="/site/p1#top">Page 1 again</a></li><li><a href="${origin}/site/">Home</a></li>
             <li><a href="${other.origin}/page">Elsewhere</a></li><li><a href="/site/file.pdf">PDF</a></li>
             <li><a href="mailto:a@example.com">Mail</a></li></ul></main>`,
            'Home',
          ),
        ),
      ...Object.fromEntries(
        [1, 2, 3, 4, 5, 6, 7].map((i) => [
          `/site/p${i}`,
          (_q: unknown, res: import('node:http').ServerResponse) =>
            send(res, 200, html(`<main><h1>Page ${i}</h1></main>`, `Page ${i}`)),
        ]),
      ),
      '/hop/': (_q, res) =>
        send(
          res,
          200,
          html(
            '<main><h1>Hop</h1><a href="/hop/away">Away</a> <a href="/hop/dup">Dup</a> <a href="/hop/a">A</a> <a href="/hop/missing">Missing</a></main>',
            'Hop',
          ),
        ),
      '/hop/away': (_q, res) => send(res, 302, '', { Location: `${other.origin}/page` }),
      '/hop/dup': (_q, res, origin) => send(res, 302, '', { Location: `${origin}/hop/a` }),
      '/hop/a': (_q, res) => send(res, 200, html('<main><h1>A</h1></main>', 'A')),
      '/redirect': (_q, res, origin) => send(res, 302, '', { Location: `${origin}/good` }),
      '/redirect-private': (_q, res) => send(res, 302, '', { Location: 'http://10.0.0.1/admin' }),
      '/redirect-metadata': (_q, res) => send(res, 301, '', { Location: 'http://169.254.169.254/latest/meta-data/' }),
      '/subresource-private': (_q, res) =>
        send(
          res,
          200,
          html(
            '<main><h1>Sub</h1><img alt="x" src="http://192.168.1.1/x.png"><script src="http://[fd00::1]/a.js"></script></main>',
            'Sub',
          ),
        ),
      '/cf': (_q, res) =>
        send(res, 403, html('<p>Checking</p>', 'Attention'), { 'cf-mitigated': 'challenge', server: 'cloudflare' }),
      '/cf-normal': (_q, res) => send(res, 200, GOOD_PAGE, { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f-AMS' }),
      '/awswaf': (_q, res) => send(res, 202, html('<p>Verify</p>', 'Verify'), { 'x-amzn-waf-action': 'challenge' }),
      '/datadome': (_q, res) => send(res, 403, html('<p>Blocked</p>', 'Blocked'), { 'x-datadome': 'protected' }),
      '/akamai': (_q, res) =>
        send(
          res,
          403,
          html(
            "<h1>Access Denied</h1><p>You don't have permission. Reference #18.2d351ab8.1557333295.a4e16ab</p>",
            'Access Denied',
          ),
        ),
      '/imperva': (_q, res) =>
        send(res, 200, html('<p>Request unsuccessful. Incapsula incident ID: 1234-5678</p>', 'Request')),
      '/sucuri': (_q, res) =>
        send(res, 403, html('<h1>Access Denied - Sucuri Website Firewall</h1>', 'Sucuri'), {
          'x-sucuri-block': 'BL001',
        }),
      '/moment': (_q, res) => send(res, 503, html('<p>Checking your browser</p>', 'Just a moment...')),
      '/vercel': (_q, res) => send(res, 429, html('<p>Vercel Security Checkpoint</p>', 'Vercel Security Checkpoint')),
      '/missing': (_q, res) => send(res, 404, html('<main><h1>Gone</h1></main>', 'Gone')),
      '/broken': (_q, res) => send(res, 500, html('<main><h1>Oops</h1></main>', 'Oops')),
      '/hang-sub': (_q, res) =>
        send(
          res,
          200,
          html(`<main><h1>Slow</h1></main><script>addEventListener('load', () => fetch('/never'))</script>`, 'Slow'),
        ),
      '/never': () => undefined,
      '/held': (_q, res) => setTimeout(() => send(res, 200, GOOD_PAGE), 4000),
      '/hardened': (_q, res) =>
        send(
          res,
          200,
          html(
            `<main><h1>Hardened</h1><iframe title="Probe" src="${other.origin}/probe-frame"></iframe></main><script>
            fetch('/beacon?where=top&ws=' + typeof WebSocket + '&wt=' + typeof WebTransport);
            navigator.serviceWorker.register('/sw.js').then(() => fetch('/beacon?sw=registered'), () => fetch('/beacon?sw=refused'));
            </script>`,
            'Hardened',
          ),
        ),
      '/sw.js': (_q, res) => send(res, 200, '', { 'Content-Type': 'text/javascript' }),
      '/beacon': (req, res) => {
        beacons.push(new URL(req.url ?? '/', 'http://x').search);
        send(res, 200, '');
      },
    });
    t = await createTestApp({
      env: {
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        SCAN_RATE_LIMIT: '1000',
        SCAN_CONCURRENCY: '1',
        SCAN_QUEUE_LIMIT: '1',
        SCAN_PAGE_TIMEOUT_MS: '8000',
        SCAN_LINKED_PAGE_TIMEOUT_MS: '8000',
        TRUST_PROXY: '1',
      },
    });
    t.app.get(ScanService).resolver = async (host) => {
      dnsLookups.push(host);
      throw Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' });
    };
  });

  afterAll(async () => {
    await t?.close();
    await site?.close();
    await other?.close();
    // Every target was an IP literal on loopback. Chromium's own background requests (component and
    // extension updates, account checks) now go through the egress proxy and its resolver too,
    // so the test sees them and they never leave the machine: only those may have been looked up.
    expect(dnsLookups.filter((h) => !CHROMIUM_SERVICE_HOST.test(h))).toEqual([]);
  });

  // Each scan from its own client address (one scan at a time per client is tested on its own).
  let clients = 0;
  const scan = (url: string, crawl?: boolean) =>
    request(t.server)
      .post('/api/scan')
      .set('X-Forwarded-For', `198.51.100.${++clients % 250}`)
      .send(crawl === undefined ? { url } : { url, crawl });

  it('finds known violations with their ids, impacts and targets', async () => {
    const res = await scan(`${site.origin}/bad`).expect(200);
    const r = res.body;
    expect(r.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(r.cached).toBe(false);
    expect(r.url).toBe(`${site.origin}/bad`);
    expect(r.pages).toHaveLength(1);
    const byId = Object.fromEntries(r.pages[0].violations.map((v: { id: string }) => [v.id, v]));
    expect(byId['image-alt']).toMatchObject({ impact: 'critical', nodes: [{ target: ['#logo'] }] });
    expect(byId['image-alt'].disabilities).toEqual(['blind', 'deafblind']);
    expect(byId['image-alt'].tags).toContain('wcag111');
    expect(byId['image-alt'].helpUrl).toMatch(/^https:\/\/dequeuniversity\.com\/rules\/axe\//);
    expect(byId['button-name']).toMatchObject({ impact: 'critical', nodes: [{ target: ['#empty-button'] }] });
    expect(byId['label']).toMatchObject({ impact: 'critical', nodes: [{ target: ['#name-input'] }] });
    expect(byId['html-has-lang']).toMatchObject({ impact: 'serious', nodes: [{ target: ['html'] }] });
    expect(byId['color-contrast']).toMatchObject({ impact: 'serious', nodes: [{ target: ['#faint'] }] });
    expect(byId['color-contrast'].disabilities).toEqual(['low-vision', 'colour-vision-deficiency']);
    expect(r.violationTypes).toBe(r.pages[0].violations.length);
    expect(r.totalNodes).toBe(
      r.pages[0].violations.reduce((n: number, v: { nodes: unknown[] }) => n + v.nodes.length, 0),
    );
    expect(r.score).toBe(r.pages[0].score);
    expect(r.score).toBeGreaterThan(0);
    expect(r.score).toBeLessThan(70);
    expect(r.meta).toMatchObject({
      engine: 'axe-core',
      axeVersion: '4.14.1',
      tags: AXE_OPTIONS.runOnly && ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'],
      viewport: { width: 1280, height: 800 },
    });
    expect(r.meta.browser).toMatch(/Chrome\/\d+/);
    expect(r.pages[0].timings.totalMs).toBeGreaterThan(0);
    const stored = await request(t.server).get(`/api/scan/${r.id}`).expect(200);
    expect(stored.body).toEqual({ ...r, cached: undefined });
  });

  it('gives the same results as running axe-core directly on the page', async () => {
    browser = (await t.app.get(BrowserPool).current())!;
    const ctx = await browser.createBrowserContext();
    try {
      const page = await ctx.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      await page.goto(`${site.origin}/bad`, { waitUntil: 'load' });
      await page.evaluate(AXE_SOURCE);
      const direct = (await page.evaluate(
        (o) => (globalThis as any).axe.run((globalThis as any).document, o),
        AXE_OPTIONS as never,
      )) as AxeResults;
      const ours = (await scan(`${site.origin}/bad`).expect(200)).body.pages[0];
      const shape = (rs: { id: string; impact?: string | null; nodes: { target: unknown[]; html: string }[] }[]) =>
        rs.map((v) => ({
          id: v.id,
          impact: v.impact,
          nodes: v.nodes.map((n) => ({ target: n.target.map(String), html: n.html })),
        }));
      expect(shape(ours.violations)).toEqual(shape(direct.violations));
      expect(ours.incomplete.map((v: { id: string }) => v.id)).toEqual(direct.incomplete.map((v) => v.id));
      expect(ours.passes.map((v: { id: string }) => v.id)).toEqual(direct.passes.map((v) => v.id));
    } finally {
      await ctx.close();
    }
  });

  it('tests every frame, cross-origin frames too', async () => {
    const r = (await scan(`${site.origin}/frames`).expect(200)).body;
    const img = r.pages[0].violations.find((v: { id: string }) => v.id === 'image-alt');
    const targets = img.nodes.map((n: { target: string[] }) => n.target);
    expect(targets).toEqual(
      expect.arrayContaining([
        ['iframe[title="Same origin"]', '#logo'],
        ['iframe[title="Other origin"]', '#framed-img'],
      ]),
    );
  });

  it('follows redirects and records the final URL', async () => {
    const r = (await scan(`${site.origin}/redirect`).expect(200)).body;
    expect(r.pages[0].url).toBe(`${site.origin}/redirect`);
    expect(r.pages[0].finalUrl).toBe(`${site.origin}/good`);
    expect(r.score).toBe(100);
  });

  it('crawl stays same-origin, normalises and deduplicates links, and stops at 5 pages', async () => {
    const r = (await scan(`${site.origin}/site/`, true).expect(200)).body;
    expect(r.crawl).toBe(true);
    expect(r.pages.map((p: { url: string }) => p.url)).toEqual([
      `${site.origin}/site/`,
      `${site.origin}/site/p1`,
      `${site.origin}/site/p2`,
      `${site.origin}/site/p3`,
      `${site.origin}/site/p4`,
    ]);
    expect(other.hits.get('/page')).toBeUndefined();
    expect(site.hits.get('/site/p5')).toBeUndefined();
    expect(r.score).toBe(Math.round(r.pages.reduce((s: number, p: { score: number }) => s + p.score, 0) / 5));
    // without crawl (the default) only the start page
    const single = (await scan(`${site.origin}/site/`).expect(200)).body;
    expect(single.crawl).toBe(false);
    expect(single.pages).toHaveLength(1);
  });

  it('crawl keeps no page that redirected off the origin or onto a page already scanned; failures are listed', async () => {
    const r = (await scan(`${site.origin}/hop/`, true).expect(200)).body;
    expect(r.pages.map((p: { url: string; finalUrl: string }) => [p.url, p.finalUrl])).toEqual([
      [`${site.origin}/hop/`, `${site.origin}/hop/`],
      [`${site.origin}/hop/dup`, `${site.origin}/hop/a`],
    ]);
    expect(r.meta.skipped.map((s: { url: string }) => s.url)).toEqual([
      `${site.origin}/hop/away`,
      `${site.origin}/hop/a`,
      `${site.origin}/hop/missing`,
    ]);
    expect(r.meta.skipped[2].error).toMatch(/^target_http_error/);
  });

  it('answers from the cache within the TTL (injectable clock) and scans again after it', async () => {
    const clock = t.app.get(Clock);
    const real = clock.now;
    try {
      const first = (await scan(`${site.origin}/good#frag`).expect(200)).body;
      const hits = site.hits.get('/good');
      const again = (await scan(`${site.origin}/good`).expect(200)).body;
      expect(again).toMatchObject({ id: first.id, cached: true, scannedAt: first.scannedAt });
      const base = Date.parse(first.scannedAt);
      clock.now = () => new Date(base + 3599_000);
      expect((await scan(`${site.origin}/good`).expect(200)).body).toMatchObject({ id: first.id, cached: true });
      expect(site.hits.get('/good')).toBe(hits);
      clock.now = () => new Date(base + 3601_000);
      const fresh = (await scan(`${site.origin}/good`).expect(200)).body;
      expect(fresh.cached).toBe(false);
      expect(fresh.id).not.toBe(first.id);
      // the crawl flag is part of the key
      expect((await scan(`${site.origin}/good`, true).expect(200)).body.cached).toBe(false);
    } finally {
      clock.now = real;
    }
  });

  it('concurrent scans of one URL share one browser run', async () => {
    const [a, b] = await Promise.all([scan(`${site.origin}/shared`), scan(`${site.origin}/shared`)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.id).toBe(b.body.id);
    expect(site.hits.get('/shared')).toBe(1);
  });

  it.each([
    ['/cf', 'cloudflare: cf-mitigated: challenge'],
    ['/awswaf', 'aws-waf: x-amzn-waf-action: challenge'],
    ['/datadome', 'datadome: x-datadome on HTTP 403'],
    ['/akamai', 'akamai: Access Denied page'],
    ['/imperva', 'imperva: Incapsula incident page'],
    ['/sucuri', 'sucuri: x-sucuri-block: BL001'],
    ['/moment', 'challenge page: "Just a moment..."'],
    ['/vercel', 'vercel: Security Checkpoint page'],
  ])('a block page (%s) is 422 target_blocked naming the signal, never graded', async (path, reason) => {
    const res = await scan(`${site.origin}${path}`).expect(422);
    expect(res.body).toMatchObject({ ok: false, error: 'target_blocked', reason });
    expect(res.body.score).toBeUndefined();
  });

  it('a vendor header alone is not a block', async () => {
    expect((await scan(`${site.origin}/cf-normal`).expect(200)).body.score).toBe(100);
  });

  it('4xx and 5xx targets are 422 target_http_error with the status', async () => {
    expect((await scan(`${site.origin}/missing`).expect(422)).body).toMatchObject({
      error: 'target_http_error',
      status: 404,
    });
    expect((await scan(`${site.origin}/broken`).expect(422)).body).toMatchObject({
      error: 'target_http_error',
      status: 500,
    });
  });

  it('unreachable targets are 422 target_unreachable', async () => {
    const closed = await startFixtureServer({});
    const port = closed.port;
    await closed.close();
    const res = await scan(`http://127.0.0.1:${port}/`).expect(422);
    expect(res.body).toMatchObject({ error: 'target_unreachable', reason: 'ERR_CONNECTION_REFUSED' });
  });

  it('redirects and subresources to private addresses are refused by request interception', async () => {
    const before = site.hits.get('/redirect-private') ?? 0;
    const res = await scan(`${site.origin}/redirect-private`).expect(400);
    expect(res.body).toMatchObject({ error: 'target_not_allowed' });
    expect(res.body.reason).toContain('10.0.0.1 is private');
    expect(site.hits.get('/redirect-private')).toBe(before + 1);
    expect((await scan(`${site.origin}/redirect-metadata`).expect(400)).body.reason).toContain(
      '169.254.169.254 is linkLocal',
    );
    // a page whose subresources point inside is graded, but those requests never leave the browser
    const sub = await scan(`${site.origin}/subresource-private`).expect(200);
    expect(sub.body.pages[0].finalUrl).toBe(`${site.origin}/subresource-private`);
  });

  it('pages and their cross-origin frames get no WebSocket/WebTransport/WebRTC and cannot register service workers', async () => {
    await scan(`${site.origin}/hardened`).expect(200);
    expect(beacons).toEqual(
      expect.arrayContaining([
        '?where=top&ws=undefined&wt=undefined',
        '?sw=refused',
        '?where=frame&ws=undefined&rtc=undefined',
      ]),
    );
    expect(site.hits.get('/sw.js')).toBeUndefined();
  });

  it('a full queue answers 503 service_unavailable', async () => {
    // concurrency 1, queue 1: one scan runs, one waits (in the pool, or on the Redis queue), the third is refused
    const queue = t.app.get(ScanQueue);
    // pages answered after 4 s each, sent one after the other: the first holds the slot, the second
    // the one queue place (a job counts as waiting until a worker takes it, so they are not sent at once)
    const slow = [scan(`${site.origin}/held?a`).then((r) => r)];
    await until(() => queue.depth().then((d) => d.active === 1 && d.waiting === 0));
    slow.push(scan(`${site.origin}/held?b`).then((r) => r));
    await until(() => queue.depth().then((d) => d.active === 1 && d.waiting === 1));
    const third = await scan(`${site.origin}/held?c`);
    expect(third.status).toBe(503);
    expect(third.body.error).toBe('service_unavailable');
    for (const r of await Promise.all(slow)) expect(r.status).toBe(200);
  });

  it('a Chromium crash mid-scan fails that scan with 502 scan_failed and the next scan works', async () => {
    const pool = t.app.get(BrowserPool);
    const launches = pool.launches;
    const nevers = site.hits.get('/never') ?? 0;
    const pending = scan(`${site.origin}/hang-sub?crash`).then((r) => r); // supertest starts on then()
    await until(() => (site.hits.get('/never') ?? 0) > nevers); // the page has loaded and is settling
    (await pool.current())!.process()!.kill('SIGKILL');
    const res = await pending;
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ ok: false, error: 'scan_failed' });
    const next = await scan(`${site.origin}/bad?after-crash`).expect(200);
    expect(next.body.violationTypes).toBeGreaterThan(0);
    expect(pool.launches).toBe(launches + 1);
  });

  it('one scan at a time per client: a second concurrent scan from the same address is 429, others go on', async () => {
    const nevers = site.hits.get('/never') ?? 0;
    const same = () => request(t.server).post('/api/scan').set('X-Forwarded-For', '203.0.113.7');
    const first = same()
      .send({ url: `${site.origin}/hang-sub?client-1` })
      .then((r) => r);
    await until(() => (site.hits.get('/never') ?? 0) > nevers); // the first is in the browser
    const second = await same().send({ url: `${site.origin}/good?client-2` });
    expect([second.status, second.body.error]).toEqual([429, 'rate_limited']);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect((await first).status).toBe(200);
    await same()
      .send({ url: `${site.origin}/good?client-3` })
      .expect(200); // free again
  });

  describe('stored report renderings', () => {
    let id: string;
    beforeAll(async () => {
      id = (await scan(`${site.origin}/bad?render`).expect(200)).body.id;
    });

    it('GET /api/report.pdf is a multi-page PDF with the score and page numbers', async () => {
      const report = (await request(t.server).get(`/api/scan/${id}`).expect(200)).body;
      const res = await request(t.server).get(`/api/report.pdf?id=${id}`).buffer(true).parse(bytes).expect(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const pdf = await pdfText(res.body as Buffer);
      expect(pdf.pages).toBeGreaterThanOrEqual(2);
      expect(pdf.title).toContain(`${site.origin}/bad?render`);
      expect(pdf.text).toContain(`${report.score} / 100`);
      expect(pdf.text).toContain(`Page 1 of ${pdf.pages}`);
      expect(pdf.text).toContain('Images must have alternative text');
      expect(pdf.text).toContain('1.1.1');
      expect(pdf.text).toMatch(/manual\s+review/);
      await request(t.server).get('/api/report.pdf').expect(400);
      expect((await request(t.server).get('/api/report.pdf?id=nope').expect(404)).body.error).toBe('report_not_found');
    });

    it('GET /api/badge/:id is a valid SVG with score, colour, date and a link to /r/:id', async () => {
      const report = (await request(t.server).get(`/api/scan/${id}`).expect(200)).body;
      const res = await request(t.server).get(`/api/badge/${id}`).buffer(true).parse(text).expect(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
      const svg = res.body as string;
      const browserNow = (await t.app.get(BrowserPool).current())!;
      const page = await browserNow.newPage();
      try {
        const parsed = await page.evaluate((s) => {
          const d = new (globalThis as any).DOMParser().parseFromString(s, 'image/svg+xml');
          return {
            error: d.getElementsByTagName('parsererror').length,
            root: d.documentElement.nodeName,
            text: d.documentElement.textContent,
            href: d.getElementsByTagName('a')[0]?.getAttribute('href'),
            fill: d.getElementsByTagName('rect')[1]?.getAttribute('fill'),
          };
        }, svg);
        expect(parsed.error).toBe(0);
        expect(parsed.root).toBe('svg');
        expect(parsed.text).toContain(`${report.score}/100`);
        expect(parsed.text).toContain(report.scannedAt.slice(0, 10));
        expect(parsed.text).toMatch(/automated/i);
        expect(parsed.text).toMatch(/not a compliance certificate/i);
        expect(parsed.href).toBe(`${t.config.publicBaseUrl()}/r/${id}`);
        expect(parsed.fill).toBe(report.score >= 90 ? '#0b6b2e' : report.score >= 50 ? '#8a4b00' : '#b3261e');
      } finally {
        await page.close();
      }
      // issue #20: an unknown id is a "not scanned" badge (an image in a README), not a JSON 404
      const unknown = await request(t.server)
        .get('/api/badge/unknownunknownunknownunknown0000')
        .buffer(true)
        .parse(text)
        .expect(200);
      expect(unknown.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(unknown.body).toContain('not scanned');
    });

    it('GET /r/:id is server-rendered and scanning it with this service gives 100 with no violations', async () => {
      const page = await request(t.server).get(`/r/${id}`).expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('Images must have alternative text');
      const addr = t.server.address() as import('node:net').AddressInfo;
      const r = (await scan(`http://127.0.0.1:${addr.port}/r/${id}`).expect(200)).body;
      expect(r.pages[0].violations).toEqual([]);
      expect(r.score).toBe(100);
      await request(t.server).get('/r/doesnotexist').expect(404);
    });
  });

  it('retention deletes expired reports; expired ids are 404 report_not_found', async () => {
    const clock = t.app.get(Clock);
    const reports = t.app.get(ReportsService);
    const real = clock.now;
    const { id } = (await scan(`${site.origin}/good?retention`).expect(200)).body;
    try {
      await request(t.server).get(`/api/scan/${id}`).expect(200);
      clock.now = () => new Date(Date.now() + 31 * 86400_000);
      expect((await request(t.server).get(`/api/scan/${id}`).expect(404)).body).toMatchObject({
        ok: false,
        error: 'report_not_found',
      });
      clock.now = real;
      expect(await reports.purgeExpired(new Date(Date.now() + 29 * 86400_000))).toBe(0);
      await request(t.server).get(`/api/scan/${id}`).expect(200);
      expect(await reports.purgeExpired(new Date(Date.now() + 31 * 86400_000))).toBeGreaterThan(0);
      await request(t.server).get(`/api/scan/${id}`).expect(404);
      const left = await t.dataSource.query('SELECT count(*)::int AS n FROM a11y_reports WHERE id = $1', [id]);
      expect(left[0].n).toBe(0);
    } finally {
      clock.now = real;
    }
  });
});
