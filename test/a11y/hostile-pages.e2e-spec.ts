import request from 'supertest';
import { ScanEgress } from '../../src/a11y/security/scan-egress';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { createTestApp, TestApp } from '../utils/test-app';
import { FixtureServer, GOOD_PAGE, html, send, startFixtureServer } from './fixture-server';

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
    const js = (body: string) => (_q: unknown, res: import('node:http').ServerResponse) => send(res, 200, body, { 'Content-Type': 'text/javascript' });
    const reach = (tag: string) => `
      fetch('${'INSIDE'}/${tag}-fetch', { mode: 'no-cors' }).catch(() => {});
      try { const ws = new WebSocket('${'INSIDE'}/${tag}-ws'.replace('http:', 'ws:')); ws.onerror = () => {}; } catch (e) {}`;
    /** An image that answers once `?tag` was beaconed (or after 3 s): holds the load event while popups and workers run. */
    const hold = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      const tag = new URL(req.url ?? '/', 'http://x').search;
      const end = Date.now() + 3000;
      const poll = () => (beacons.includes(tag) || Date.now() > end ? send(res, 200, '', { 'Content-Type': 'image/gif' }) : setTimeout(poll, 25));
      poll();
    };
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
        send(res, 200, html(`<main><h1>Shared worker</h1><img alt="" src="/hold?shared-ran"></main><script>try { new SharedWorker('/shared.js'); } catch (e) { fetch('/beacon?shared-missing'); }</script>`, 'Shared')),
      '/shared.js': js(`fetch('/beacon?shared-ran'); ${reach('shared').replaceAll('INSIDE', inside.origin)}`),
      '/worker': (_q, res) => send(res, 200, html(`<main><h1>Worker</h1><img alt="" src="/hold?worker-ran"></main><script>new Worker('/worker.js');</script>`, 'Worker')),
      '/worker.js': js(`fetch('/beacon?worker-ran'); ${reach('worker').replaceAll('INSIDE', inside.origin)}`),
    });
    t = await createTestApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true', SCAN_RATE_LIMIT: '1000', SCAN_PAGE_TIMEOUT_MS: '10000' } });
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

  const scan = (url: string) => request(t.server).post('/api/scan').send({ url });
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
    expect(beacons).toContain('?worker-ran'); // the worker did run: the refusal is the proxy's
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
});
