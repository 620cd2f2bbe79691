import request from 'supertest';
import { ScanEgress } from '../../src/a11y/security/scan-egress';
import { BrowserPool } from '../../src/a11y/browser/browser-pool';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { Scanner } from '../../src/a11y/scan/scanner';
import { createTestApp, TestApp } from '../utils/test-app';
import { AXE_RULES } from '../../src/a11y/report/axe-rules';
import { pageScore } from '../../src/a11y/scoring/score';
import { BAD_PAGE, FixtureServer, GOOD_PAGE, html, send, startFixtureServer } from './fixture-server';

/**
 * A page that tries every way to grade itself: a setter trap that swaps `axe.run` for a clean
 * result and rewrites help texts, and a poller that lowers every rule's impact, so that (before
 * the fix) this page scored well and every later scan in the process scored with its impacts.
 */
const TAMPER_PAGE = html(
  `<main><h1>Tamper</h1><img id="no-alt" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button id="empty"></button></main>
  <script>
    const fake = (r) => ({ ...r, violations: [], passes: [], incomplete: [], url: 'https://evil.example/', testEngine: { version: '9.9.9' } });
    const poison = (a) => {
      try { for (const r of a._audit.rules) r.impact = 'minor'; } catch (e) {}
      try { const run = a.run; a.run = (...x) => run.apply(a, x).then(fake); } catch (e) {}
      try { const fin = a.finishRun; a.finishRun = (...x) => fin.apply(a, x).then(fake); } catch (e) {}
      try { a.getRules = () => []; } catch (e) {}
    };
    let real;
    Object.defineProperty(window, 'axe', { configurable: true, get() { return real; }, set(v) { real = v; poison(v); } });
    setInterval(() => { if (real) poison(real); }, 5);
  </script>`,
  'Tamper',
);

/** Hundreds of failing elements (over the per-rule cap) over several rules, each element with long markup. */
const MANY_PAGE = html(
  `<main><h1>Many</h1>${Array.from({ length: 150 }, (_, i) => {
    const pad = 'p'.repeat(600);
    return `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-i="${i}" data-pad="${pad}"><button data-i="${i}" data-pad="${pad}"></button><a href="/x${i}" data-pad="${pad}"></a><input type="text" data-i="${i}" data-pad="${pad}">`;
  }).join('')}</main>`,
  'Many',
);

/**
 * Hostile pages against the scan's egress controls, all on loopback: the scanned site is on
 * 127.0.0.1, and 127.0.0.2 stands in for an internal service. The address policy allows loopback
 * for 127.0.0.1 only, so every request to 127.0.0.2 must be refused before it leaves Beacon
 * (its server counts every hit, WebSocket attempts included).
 */
describe('Hostile pages cannot reach refused addresses (e2e, real Chromium)', () => {
  let t: TestApp;
  let site: FixtureServer;
  let inside: FixtureServer;
  /** 127.0.0.1 on the same port as `inside`: the public face of the rebinding name. */
  let twin: FixtureServer;
  const beacons: string[] = [];
  const dns: string[] = [];

  const internal = (path: string) => `${inside.origin}${path}`;
  const insideHits = () => [...inside.hits.entries()].map(([k, n]) => `${k} x${n}`);

  beforeAll(async () => {
    inside = await startFixtureServer(
      {
        '/secret': (_q, res) => send(res, 200, html('<main><h1>INTERNAL SECRET 7f3a</h1></main>', 'Internal admin')),
      },
      { host: '127.0.0.2' },
    );
    twin = await startFixtureServer({ '/secret': (_q, res) => send(res, 200, GOOD_PAGE) }, { port: inside.port });
    const beacon = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      beacons.push(new URL(req.url ?? '/', 'http://x').search);
      send(res, 200, '', { 'Access-Control-Allow-Origin': '*' });
    };
    const js = (body: string) => (_q: unknown, res: import('node:http').ServerResponse) =>
      send(res, 200, body, { 'Content-Type': 'text/javascript' });
    const reach = (tag: string) => `
      fetch('${'INSIDE'}/${tag}-fetch', { mode: 'no-cors' }).catch(() => {});
      try { const ws = new WebSocket('${'INSIDE'}/${tag}-ws'.replace('http:', 'ws:')); ws.onerror = () => {}; } catch (e) {}`;
    /** An image that answers once `?tag` was beaconed (or after 15 s; 3 s for the popup, which should never run): holds the load event while popups and workers run. */
    const hold = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      const tag = new URL(req.url ?? '/', 'http://x').search;
      const end = Date.now() + (tag === '?popup-ran' ? 3000 : 15000);
      const poll = () =>
        proven(tag) || Date.now() > end ? send(res, 200, '', { 'Content-Type': 'image/gif' }) : setTimeout(poll, 25);
      poll();
    };
    const proven = (tag: string) =>
      beacons.includes(tag) || (tag === '?worker-proof' && (site.hits.get('WS /worker-proof') ?? 0) > 0);
    site = await startFixtureServer({
      '/beacon': beacon,
      '/hold': hold,
      '/popup': (_q, res) =>
        send(
          res,
          200,
          html(
            `<main><h1>Popups</h1><img alt="" src="/hold?popup-ran"></main><script>
              window.open('/popup-child', 'child');
              window.open('${internal('/popup-direct')}', 'direct');
              window.open('/popup-child?noopener', '_blank', 'noopener');
            </script>`,
            'Popups',
          ),
        ),
      '/popup-child': (_q, res) =>
        send(
          res,
          200,
          html(
            `<main><h1>Child</h1><img alt="x" src="${internal('/popup-img')}">
             <form method="post" action="${internal('/popup-form')}"><input name="a" value="1"></form></main>
             <script>
               fetch('/beacon?popup-ran');
               ${reach('popup').replaceAll('INSIDE', inside.origin)}
               document.forms[0].submit();
             </script>`,
            'Child',
          ),
        ),
      '/shared-worker': (_q, res) =>
        send(
          res,
          200,
          html(
            `<main><h1>Shared worker</h1><img alt="" src="/hold?shared-ran"></main><script>try { new SharedWorker('/shared.js'); } catch (e) { fetch('/beacon?shared-missing'); }</script>`,
            'Shared',
          ),
        ),
      '/shared.js': js(`fetch('/beacon?shared-ran'); ${reach('shared').replaceAll('INSIDE', inside.origin)}`),
      '/worker': (_q, res) =>
        send(
          res,
          200,
          html(
            `<main><h1>Worker</h1><img alt="" src="/hold?worker-proof"></main><script>new Worker('/worker.js');</script>`,
            'Worker',
          ),
        ),
      '/tamper': (_q, res) => send(res, 200, TAMPER_PAGE),
      '/bad': (_q, res) => send(res, 200, BAD_PAGE),
      '/many': (_q, res) => send(res, 200, MANY_PAGE),
      '/stall/': (_q, res) =>
        send(
          res,
          200,
          html(
            `<main><h1>Stall</h1>${[1, 2, 3, 4].map((i) => `<a href="/stall/p${i}">P${i}</a>`).join(' ')}</main>`,
            'Stall',
          ),
        ),
      ...Object.fromEntries([1, 2, 3, 4].map((i) => [`/stall/p${i}`, () => undefined])),
      // proof that the worker ran: a WebSocket to the allowed site (the fixture server counts upgrades)
      '/worker.js': js(
        `new WebSocket(location.origin.replace('http:', 'ws:') + '/worker-proof'); ${reach('worker').replaceAll('INSIDE', inside.origin)}; fetch('/beacon?worker-ran');`,
      ),
    });
    t = await createTestApp({
      env: {
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        SCAN_RATE_LIMIT: '1000',
        SCAN_PAGE_TIMEOUT_MS: '25000',
        SCAN_REPORT_MAX_BYTES: '50000',
        SCAN_LINKED_PAGE_TIMEOUT_MS: '2000',
        SCAN_TOTAL_TIMEOUT_MS: '30000',
      },
    });
    // Loopback is allowed for the scanned site's address only: 127.0.0.2 is "internal".
    t.app.get(ScanEgress).policy = { allowLoopback: (a) => a === '127.0.0.1' };
    let rebindAnswers = 0;
    t.app.get(ScanService).resolver = async (host) => {
      dns.push(host);
      if (host === 'rebind.test') return ++rebindAnswers === 1 ? ['127.0.0.1'] : ['127.0.0.2'];
      throw Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' });
    };
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([site?.close(), inside?.close(), twin?.close()]);
  });

  const scan = (url: string, crawl?: boolean) =>
    request(t.server)
      .post('/api/scan')
      .send(crawl ? { url, crawl } : { url });
  /** Lets late requests of popups and workers happen before looking at the internal server. */
  const linger = () => new Promise((r) => setTimeout(r, 1500));

  it('the internal stand-in is refused as a scan target', async () => {
    const res = await scan(internal('/secret')).expect(400);
    expect(res.body.error).toBe('target_not_allowed');
    expect(insideHits()).toEqual([]);
  });

  it('popups (window.open, noopener, a form POST, images, fetch, WebSocket) reach nothing internal', async () => {
    const res = await scan(`${site.origin}/popup`).expect(200);
    expect(res.body.pages[0].finalUrl).toBe(`${site.origin}/popup`);
    await linger();
    expect(insideHits()).toEqual([]);
  });

  it('a SharedWorker reaches nothing internal with fetch or WebSocket', async () => {
    await scan(`${site.origin}/shared-worker`).expect(200);
    await linger();
    expect(insideHits()).toEqual([]);
  });

  it('a dedicated Worker reaches nothing internal with fetch or WebSocket', async () => {
    await scan(`${site.origin}/worker`).expect(200);
    await linger();
    // the worker did run (its WebSocket to the allowed site went through): the refusals are the proxy's
    expect(site.hits.get('WS /worker-proof')).toBeGreaterThanOrEqual(1);
    expect(insideHits()).toEqual([]);
  });

  it('DNS rebinding: a name that answers 127.0.0.1 to the first lookup and 127.0.0.2 after is refused, its internal page never fetched', async () => {
    const res = await scan(`http://rebind.test:${inside.port}/secret`).expect(400);
    expect(res.body).toMatchObject({ ok: false, error: 'target_not_allowed' });
    expect(JSON.stringify(res.body)).not.toContain('127.0.0.2'); // the client is not told what the name resolves to
    expect(dns.filter((h) => h === 'rebind.test').length).toBeGreaterThanOrEqual(2); // the proxy resolved it again itself
    expect(insideHits()).toEqual([]);
    expect(twin.hits.get('/secret')).toBeUndefined(); // Chromium never resolved the name on its own either
  });

  /** The score our own rule metadata gives a page's findings. */
  const expectedScore = (p: { violations: { id: string }[]; passes: { id: string }[] }) =>
    pageScore(
      p.violations.map((v) => ({ id: v.id, impact: AXE_RULES.get(v.id)!.impact })),
      p.passes.map((v) => ({ id: v.id, impact: AXE_RULES.get(v.id)!.impact })),
    );

  it('a page that rewrites window.axe grades neither itself nor later pages', async () => {
    const hostile = (await scan(`${site.origin}/tamper`).expect(200)).body;
    const p = hostile.pages[0];
    const byId = Object.fromEntries(p.violations.map((v: { id: string }) => [v.id, v]));
    expect(byId['image-alt']).toMatchObject({
      impact: 'critical',
      help: AXE_RULES.get('image-alt')!.help,
      nodes: [{ target: ['#no-alt'] }],
    });
    expect(byId['button-name']).toMatchObject({ impact: 'critical' });
    expect(p.finalUrl).toBe(`${site.origin}/tamper`);
    expect(hostile.meta.axeVersion).toBe('4.14.1');
    expect(p.score).toBe(expectedScore(p));
    expect(p.score).toBeLessThan(90);
    // a later, unrelated page is scored with the real impacts
    const later = (await scan(`${site.origin}/bad`).expect(200)).body.pages[0];
    expect(later.score).toBe(expectedScore(later));
    for (const v of later.passes as { id: string; impact: string }[])
      expect(v.impact).toBe(AXE_RULES.get(v.id)!.impact);
  });

  it('hundreds of failing elements: nodes capped per rule and the report under its size cap, with what was left out counted', async () => {
    const res = await scan(`${site.origin}/many`);
    expect([res.status, res.body.error, res.body.message]).toEqual([200, undefined, undefined]);
    const r = res.body;
    const bytes = Buffer.byteLength(JSON.stringify(r.pages));
    expect(bytes).toBeLessThanOrEqual(t.config.SCAN_REPORT_MAX_BYTES);
    const img = r.pages[0].violations.find((v: { id: string }) => v.id === 'image-alt');
    expect(img.nodes.length).toBeLessThanOrEqual(100);
    expect(img.nodes.length + img.nodesOmitted).toBe(150);
    expect(r.totalNodes).toBeGreaterThanOrEqual(150 * 3);
    expect(r.meta.truncated).toMatchObject({ nodesOmitted: expect.any(Number) });
    expect(r.meta.truncated.nodesOmitted).toBeGreaterThan(0);
    const page = await request(t.server).get(`/r/${r.id}`).expect(200);
    expect(page.text).toMatch(/\d+ more elements not listed/);
  });

  it('a crawl whose linked pages never answer: linked pages get the shorter timeout, the scan ends by its deadline', async () => {
    const started = Date.now();
    const r = (await scan(`${site.origin}/stall/`, true).expect(200)).body;
    const elapsed = Date.now() - started;
    expect(r.pages).toHaveLength(1);
    expect(r.meta.skipped.map((s: { url: string }) => s.url)).toEqual(
      [1, 2, 3, 4].map((i) => `${site.origin}/stall/p${i}`),
    );
    for (const s of r.meta.skipped as { error: string }[])
      expect(s.error).toMatch(/^target_unreachable: The page did not (load|finish) within 2000 ms/);
    // 2 tabs at a time, 2 rounds of (2 s + grace): far below the 20 s a start page may take
    expect(elapsed).toBeLessThan(15000);
  });

  it('the scan deadline bounds a crawl: linked pages not started in time are skipped', async () => {
    const scanner = t.app.get(Scanner);
    const pool = t.app.get(BrowserPool);
    const guard = t.app.get(ScanEgress).targetGuard();
    const started = Date.now();
    // 4.5 s leaves 2.5 s of page time after the grace: the first round of linked pages (2 s each)
    // uses it up however fast the start page is, so the second round cannot start in time.
    const site2 = await pool.withContext((ctx) =>
      scanner.scanSite(ctx, new URL(`${site.origin}/stall/?deadline`), true, guard, Date.now() + 4500),
    );
    expect(Date.now() - started).toBeLessThan(4500 + 4000);
    expect(site2.skipped).toHaveLength(4);
    expect(site2.skipped.some((s) => s.error.startsWith('scan deadline reached'))).toBe(true);
  });
});
