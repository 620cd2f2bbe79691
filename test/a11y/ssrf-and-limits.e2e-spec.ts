import request from 'supertest';
import { A11yModule } from '../../src/a11y/a11y.module';
import { BrowserPool } from '../../src/a11y/browser/browser-pool';
import { MAX_CRAWL_PAGES } from '../../src/a11y/scan/crawl';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { coreWith, createTestApp, TestApp } from '../utils/test-app';
import { text } from '../utils/body-parsers';

/** No Chromium starts here: every request below is refused before the browser. */
describe('Accessibility scans: SSRF refusals, validation, rate limit (e2e, module alone)', () => {
  let t: TestApp;
  const dnsLookups: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ module: coreWith(A11yModule), env: { SCAN_RATE_LIMIT: '1000' } });
    expect(t.config.SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE).toBe(false);
    t.app.get(ScanService).resolver = async (host) => {
      dnsLookups.push(host);
      throw Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' });
    };
  });
  afterAll(async () => {
    expect(t.app.get(BrowserPool).launches).toBe(0);
    expect(dnsLookups).toEqual([]);
    await t?.close();
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://127.0.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://127.000.000.001/',
    'http://127.255.255.254:8080/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://localhost/',
    'http://localhost./',
    'http://LOCALHOST:3000/',
    'http://app.localhost/',
    'http://0.0.0.0/',
    'http://0/',
    'http://[::]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://192.168.0.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
  ])('refuses %s with 400 target_not_allowed', async (url) => {
    const res = await request(t.server).post('/api/scan').send({ url }).expect(400);
    expect(res.body).toMatchObject({ ok: false, error: 'target_not_allowed', field: 'url' });
  });

  it.each([
    'file:///etc/passwd',
    'data:text/html,<h1>hi</h1>',
    'javascript:alert(1)',
    'ftp://127.0.0.1/',
    'chrome://version',
    'view-source:http://127.0.0.1/',
  ])('refuses the scheme of %s', async (url) => {
    const res = await request(t.server).post('/api/scan').send({ url }).expect(400);
    expect(res.body.error).toBe('target_not_allowed');
  });

  it('a missing or invalid url is 400 bad_request naming the field', async () => {
    expect((await request(t.server).post('/api/scan').send({}).expect(400)).body).toMatchObject({
      error: 'bad_request',
      field: 'url',
    });
    expect((await request(t.server).post('/api/scan').send({ url: 42 }).expect(400)).body).toMatchObject({
      error: 'bad_request',
      field: 'url',
    });
    expect((await request(t.server).post('/api/scan').send({ url: 'not a url' }).expect(400)).body).toMatchObject({
      error: 'bad_request',
      field: 'url',
    });
    expect(
      (await request(t.server).post('/api/scan').send({ url: 'http://8.8.8.8/', crawl: 'yes' }).expect(400)).body,
    ).toMatchObject({
      error: 'bad_request',
      field: 'crawl',
    });
    expect(
      (await request(t.server).post('/api/scan').send({ url: 'http://8.8.8.8/', depth: 3 }).expect(400)).body,
    ).toMatchObject({
      error: 'bad_request',
      field: 'depth',
    });
  });

  it('unknown report ids are 404 report_not_found everywhere', async () => {
    const id = 'A'.repeat(32);
    expect((await request(t.server).get(`/api/scan/${id}`).expect(404)).body).toMatchObject({
      ok: false,
      error: 'report_not_found',
    });
    expect((await request(t.server).get('/api/scan/short').expect(404)).body.error).toBe('report_not_found');
    expect((await request(t.server).get(`/api/report.pdf?id=${id}`).expect(404)).body.error).toBe('report_not_found');
    expect((await request(t.server).get(`/api/badge/${id}`).expect(200)).headers['content-type']).toMatch(
      /^image\/svg\+xml/,
    ); // issue #20: a "not scanned" badge
    await request(t.server).get(`/r/${id}`).expect(404);
  });
});

describe('Accessibility scans: rate limit (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('more than 6 scans a minute from one IP get 429 rate_limited with Retry-After; reads are not limited', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await request(t.server).post('/api/scan').send({ url: 'file:///x' });
      answers.push(`${res.status} ${res.headers['ratelimit-limit']} ${res.body.error}`);
    }
    expect(answers).toEqual(new Array(6).fill('400 6 target_not_allowed'));
    const limited = await request(t.server).post('/api/scan').send({ url: 'file:///x' });
    expect([limited.status, limited.body.ok, limited.body.error]).toEqual([429, false, 'rate_limited']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 8; i++)
      await request(t.server)
        .get(`/api/scan/${'B'.repeat(32)}`)
        .expect(404);
  });
});

describe('Accessibility scans: a crawl counts as several scans (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ module: coreWith(A11yModule) });
  });
  afterAll(async () => t?.close());

  it(`a crawl costs MAX_CRAWL_PAGES (${MAX_CRAWL_PAGES}) of the ${6} scans a minute`, async () => {
    const crawl = await request(t.server).post('/api/scan').send({ url: 'file:///x', crawl: true });
    expect([crawl.status, crawl.headers['ratelimit-remaining']]).toEqual([400, String(6 - MAX_CRAWL_PAGES)]);
    await request(t.server).post('/api/scan').send({ url: 'file:///x' }).expect(400);
    const limited = await request(t.server).post('/api/scan').send({ url: 'file:///x' });
    expect([limited.status, limited.body.error]).toEqual([429, 'rate_limited']);
  });
});

describe('Accessibility reports: renderings rate limited, badge from columns (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ module: coreWith(A11yModule), env: { REPORT_RATE_LIMIT: '4' } });
  });
  afterAll(async () => t?.close());

  it('the badge is drawn from the score and date columns (the stored report is not read)', async () => {
    const id = 'C'.repeat(32);
    const future = new Date(Date.now() + 86400_000);
    // a report body the badge could not use: only the columns can give 87 and the date
    await t.dataSource.query(
      `INSERT INTO a11y_reports (id, url, crawl, cache_key, score, report, created_at, expires_at) VALUES ($1, 'https://example.com/', false, $2, 87, '{"broken": true}', '2026-01-02T03:04:05Z', $3)`,
      [id, 'f'.repeat(64), future],
    );
    const res = await request(t.server).get(`/api/badge/${id}`).buffer(true).parse(text);
    expect(res.status).toBe(200);
    expect(res.body).toContain('87/100');
    expect(res.body).toContain('2026-01-02');
  });

  it('/r/{id}, /api/report.pdf, /api/badge/{id} and /api/scan/{id} share a per-IP limit (REPORT_RATE_LIMIT)', async () => {
    const id = 'D'.repeat(32);
    const answers: number[] = [];
    for (const path of [`/r/${id}`, `/api/report.pdf?id=${id}`, `/api/badge/${id}`, `/r/${id}`, `/api/badge/${id}`]) {
      answers.push((await request(t.server).get(path)).status);
    }
    // the badge test above used one of the 4
    expect(answers).toEqual([404, 404, 200, 429, 429]); // the badge of an unknown id is a "not scanned" image
    const limited = await request(t.server).get(`/api/report.pdf?id=${id}`);
    expect([limited.status, limited.body.error]).toEqual([429, 'rate_limited']);
    await request(t.server).get(`/api/scan/${id}`).expect(429); // the JSON report shares this bucket (issue #20 item 4)
  });
});
