import request from 'supertest';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebClient, WebResponse } from '../web/web-client';
import { BAD_PAGE, FixtureServer, GOOD_PAGE, html, send, startFixtureServer } from './fixture-server';

/** Waits until `cond` holds (polling), or fails after `ms`. */
async function until(cond: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const SCAN_LIMIT = 6;
const REPORT_LIMIT = 4;

/**
 * The website's scan form (POST /scan) and the scan API's report route, on the full app with pages
 * served on 127.0.0.1 and real Chromium: the same limits as POST /api/scan, refusals in words with
 * the form kept, an address without a scheme, and GET /api/scan/{id} rate limited and cached.
 */
describe('Scan form and scan API limits (e2e, real Chromium, pages on 127.0.0.1)', () => {
  let t: TestApp;
  let site: FixtureServer;
  let releaseHeld: (() => void) | undefined;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/good': (_q, res) => send(res, 200, GOOD_PAGE),
      '/bad': (_q, res) => send(res, 200, BAD_PAGE),
      '/other': (_q, res) => send(res, 200, html('<main><h1>Other</h1></main>', 'Other')),
      // Answers only when the test says so: a scan that is still running.
      '/held': (_q, res) => {
        releaseHeld = () => {
          releaseHeld = undefined;
          send(res, 200, GOOD_PAGE);
        };
      },
    });
    t = await createTestApp({
      env: {
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        SCAN_RATE_LIMIT: String(SCAN_LIMIT),
        REPORT_RATE_LIMIT: String(REPORT_LIMIT),
        SCAN_PAGE_TIMEOUT_MS: '20000',
        TRUST_PROXY: '1',
      },
    });
    t.app.get(ScanService).resolver = async () => {
      throw Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' });
    };
  }, 120_000);

  afterAll(async () => {
    releaseHeld?.();
    await t?.close();
    await site?.close();
  });

  /** A visitor of the scan page from its own client address (X-Forwarded-For). */
  async function visitor(
    ip: string,
  ): Promise<{ c: WebClient; post: (form: Record<string, string>) => Promise<WebResponse> }> {
    const c = WebClient.of(t.server);
    await c.request('GET', '/scan', { headers: { 'x-forwarded-for': ip } });
    const csrf = c.csrf();
    return {
      c,
      post: (form) =>
        c.request('POST', '/scan', { form: { _csrf: csrf, ...form }, headers: { 'x-forwarded-for': ip } }),
    };
  }

  const text = (page: string): string =>
    page
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#39;|&rsquo;/g, '’')
      .replace(/\s+/g, ' ');

  it('charges a crawl from the form as many scans as the API does, and answers the 429 with the form kept and when to retry', async () => {
    const refused = 'http://169.254.169.254/latest/'; // refused before the browser: only the limit is at work
    const { post } = await visitor('203.0.113.10');
    const first = await post({ url: refused, crawl: 'true' });
    expect(first.status).toBe(400);
    expect(first.headers.get('ratelimit-remaining')).toBe(String(SCAN_LIMIT - 5));
    const second = await post({ url: refused, crawl: 'true' });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    // The form is back with what was entered, and says when to try again.
    expect(second.text).toContain(`name="url" required maxlength="2048" placeholder="example.com" value="${refused}"`);
    expect(second.text).toMatch(/id="crawl" name="crawl" value="true" checked/);
    expect(text(second.text)).toMatch(/You can scan again in \d+ (second|minute)s?\./);
    expect(text(second.text)).toContain('a crawl counts as 5');
    expect(second.text).not.toContain('Rate limit exceeded');

    // The API, from another address, counts the same way.
    const api = (ip: string) =>
      request(t.server).post('/api/scan').set('X-Forwarded-For', ip).send({ url: refused, crawl: true });
    expect((await api('203.0.113.11')).status).toBe(400);
    expect((await api('203.0.113.11')).status).toBe(429);
  });

  it('applies one scan at a time per client to the form: a second scan while the first runs is 429 with the form kept', async () => {
    const ip = '203.0.113.20';
    const { post } = await visitor(ip);
    const running = post({ url: `${site.origin}/held` });
    await until(() => releaseHeld !== undefined);
    const second = await post({ url: `${site.origin}/other` });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('5');
    expect(text(second.text)).toContain('A scan from your address is still running');
    expect(second.text).toContain(`value="${site.origin}/other"`);
    expect(site.hits.get('/other') ?? 0).toBe(0);
    releaseHeld!();
    const first = await running;
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/^\/r\/[A-Za-z0-9_-]{32}$/);
    // The same client may scan again once its scan has finished.
    const third = await post({ url: `${site.origin}/other` });
    expect(third.status).toBe(303);
  }, 120_000);

  it('assumes https:// for an address typed without a scheme, and says so', async () => {
    const { post } = await visitor('203.0.113.30');
    const typed = `127.0.0.1:${site.port}/good`;
    const res = await post({ url: typed });
    // The fixture speaks plain http, so the https:// Beacon assumed fails: the page names it.
    expect(res.status).toBe(422);
    expect(text(res.text)).toContain(`No http:// or https:// was typed, so Beacon tried https://${typed}.`);
    expect(res.text).toContain(`value="${typed}"`);
    expect(res.text).not.toMatch(/ERR_[A-Z_]+/);
  }, 120_000);

  it('shows a browser network error in words on the page, while the API keeps its code', async () => {
    const { post } = await visitor('203.0.113.40');
    const res = await post({ url: 'http://127.0.0.1:25/' }); // a port browsers refuse (SMTP)
    expect(res.status).toBe(422);
    expect(res.text).not.toContain('ERR_UNSAFE_PORT');
    expect(text(res.text)).toContain('browsers do not open web pages on this port');
    const api = await request(t.server)
      .post('/api/scan')
      .set('X-Forwarded-For', '203.0.113.41')
      .send({ url: 'http://127.0.0.1:25/' });
    expect(api.status).toBe(422);
    expect(api.body).toMatchObject({ ok: false, error: 'target_unreachable', reason: 'ERR_UNSAFE_PORT' });
  }, 120_000);

  it('lands a rescan within the hour on a page that says the result is cached, with its date, and "Scan again now" scans afresh', async () => {
    const { post, c } = await visitor('203.0.113.50');
    const first = await post({ url: `${site.origin}/bad` });
    expect(first.status).toBe(303);
    const firstId = first.location!.slice('/r/'.length);
    const again = await post({ url: `${site.origin}/bad` });
    expect(again.status).toBe(303);
    expect(again.location).toBe(`/scan?report=${firstId}`);
    const notice = await c.request('GET', again.location!, { headers: { 'x-forwarded-for': '203.0.113.50' } });
    expect(notice.status).toBe(200);
    const words = text(notice.text);
    expect(words).toMatch(
      /was scanned (less than a minute|\d+ minutes?) ago, on \w+day \d{1,2} \w+ \d{4} at \d\d:\d\d UTC/,
    );
    expect(notice.text).toContain(`href="/r/${firstId}"`);
    expect(notice.text).toContain('Scan again now');
    const csrf = c.csrf();
    const fresh = await c.request('POST', '/scan', {
      form: { _csrf: csrf, url: `${site.origin}/bad`, fresh: 'true' },
      headers: { 'x-forwarded-for': '203.0.113.50' },
    });
    expect(fresh.status).toBe(303);
    expect(fresh.location).toMatch(/^\/r\/[A-Za-z0-9_-]{32}$/);
    expect(fresh.location).not.toBe(first.location);
    expect(site.hits.get('/bad')).toBe(2);
  }, 120_000);

  it('rate limits GET /api/scan/{id} in the report bucket and serves it from the rendering cache', async () => {
    const scanned = await request(t.server)
      .post('/api/scan')
      .set('X-Forwarded-For', '203.0.113.60')
      .send({ url: `${site.origin}/good` })
      .expect(200);
    const id = scanned.body.id as string;
    const get = () => request(t.server).get(`/api/scan/${id}`).set('X-Forwarded-For', '203.0.113.61');
    const one = await get().expect(200);
    expect(one.headers['content-type']).toMatch(/^application\/json/);
    expect(one.body).toEqual({ ...scanned.body, cached: undefined });
    // The stored jsonb is no longer read: a change to it does not show (reports never change).
    await t.dataSource.query(`UPDATE a11y_reports SET report = jsonb_set(report, '{score}', '0') WHERE id = $1`, [id]);
    const two = await get().expect(200);
    expect(two.body.score).toBe(scanned.body.score);
    for (let i = 2; i < REPORT_LIMIT; i++) await get().expect(200);
    const limited = await get().expect(429);
    expect(limited.body.error).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Unknown ids are still a JSON 404.
    const missing = await request(t.server)
      .get('/api/scan/unknownunknownunknownunknown0000')
      .set('X-Forwarded-For', '203.0.113.62')
      .expect(404);
    expect(missing.body.error).toBe('report_not_found');
  }, 120_000);
});
