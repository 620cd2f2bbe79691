import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { PdfToolsModule } from '../../src/pdf-tools/pdf-tools.module';
import { QuotaClock } from '../../src/pdf-tools/quota/quota-clock';
import { QuotaService } from '../../src/pdf-tools/quota/quota.service';
import { coreWith, TestApp } from '../utils/test-app';
import { b64, call, connect, nextIp, createPdfTestApp, sc, textPdf } from './helpers';

/**
 * Quotas (spec section 8) on the PDF module shipped alone (CoreModule + PdfToolsModule), through the
 * official MCP client and the service's web channel. Small numbers: MCP cap 3, shared daily limit 5
 * (web IP pool 20), 2 refunds a day.
 */
describe('PDF quotas (e2e)', () => {
  let t: TestApp;
  let quota: QuotaService;
  let clock: QuotaClock;
  let pdf: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await createPdfTestApp({
      module: coreWith(PdfToolsModule),
      env: { PDF_MCP_DAILY_CAP: '3', PDF_DAILY_LIMIT: '5', PDF_DAILY_REFUNDS: '2', QUOTA_HASH_SECRET: 'test-secret' },
    });
    quota = t.app.get(QuotaService);
    clock = t.app.get(QuotaClock);
    pdf = b64(await textPdf(2));
  });
  afterEach(() => clock.set());
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  async function client(ip: string): Promise<Client> {
    const c = await connect(t, ip);
    clients.push(c);
    return c;
  }
  const rotate = (c: Client) => call(c, 'rotate_pages', { file: { base64: pdf }, angle: 90 });
  const broken = (c: Client) => call(c, 'rotate_pages', { file: { base64: b64(Buffer.from('not a pdf')) }, angle: 90 });

  it('MCP: successful calls consume, each result carries the quota, the cap rejects with its reset time', async () => {
    const c = await client(nextIp());
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await rotate(c);
      expect(r.isError).toBeFalsy();
      seen.push(sc(r).quota.remaining);
    }
    expect(seen).toEqual([2, 1, 0]);
    const rejected = await rotate(c);
    expect(rejected.isError).toBe(true);
    const tomorrow = new Date(
      Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1),
    ).toISOString();
    expect(sc(rejected)).toMatchObject({
      error: 'quota_exceeded',
      resets_at: tomorrow,
      quota: { tool: 'rotate_pages', limit: 3, remaining: 0, resets_at: tomorrow },
    });
    expect(sc(rejected).message).toMatch(/00:00 UTC/);
    // per tool: another tool still has its quota
    const other = await call(c, 'pdf_metadata', { file: { base64: pdf } });
    expect(sc(other).quota).toMatchObject({ tool: 'pdf_metadata', remaining: 2 });
  });

  it('failed calls are refunded up to the daily allowance, then they count', async () => {
    const c = await client(nextIp());
    const first = sc(await broken(c));
    const second = sc(await broken(c));
    const third = sc(await broken(c));
    expect([first.refunded, second.refunded, third.refunded]).toEqual([true, true, false]);
    expect([first.quota.remaining, second.quota.remaining, third.quota.remaining]).toEqual([3, 3, 2]);
    expect(third.message).toMatch(/refund allowance is used up/);
  });

  it('argument errors seen without opening the file are answered before the quota: nothing reserved, no refund used', async () => {
    const ip = nextIp();
    const c = await client(ip);
    const up = await request(t.server)
      .post('/files')
      .set('X-Forwarded-For', ip)
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from(pdf, 'base64'))
      .expect(201);
    const stored = { file_id: up.body.file_id as string };
    const refused = [
      // a character no stamp font draws
      await call(c, 'add_watermark', { file: { base64: pdf }, text: 'secret 😀' }),
      await call(c, 'add_page_numbers', { file: stored, format: '{n} 😀' }),
      // page ranges: syntax on any input; out of range and "every page" on a stored file (its row knows 2 pages)
      await call(c, 'rotate_pages', { file: { base64: pdf }, angle: 90, pages: '1-x' }),
      await call(c, 'remove_pages', { file: stored, pages: '9' }),
      await call(c, 'remove_pages', { file: stored, pages: 'all' }),
      await call(c, 'merge_pdfs', { files: [stored, { ...stored, pages: '3' }] }),
      await call(c, 'split_pdf', { file: stored, mode: 'count', count: 3 }),
      await call(c, 'split_pdf', { file: { base64: pdf }, mode: 'ranges' }),
      await call(c, 'add_watermark', { file: stored }),
      await call(c, 'add_page_numbers', { file: stored, color: 'blue' }),
    ];
    for (const r of refused) {
      expect(r.isError).toBe(true);
      expect(['invalid_arguments', 'invalid_page_range']).toContain(sc(r).error);
      expect({ i: refused.indexOf(r), refunded: sc(r).refunded }).toEqual({ i: refused.indexOf(r) });
      expect(sc(r).message).not.toMatch(/refund/);
    }
    expect(sc(refused[0]).message).toMatch(/U\+1F600/);
    expect(sc(refused[3]).message).toMatch(/out of range: file has 2 pages/);
    expect(sc(refused[4]).message).toMatch(/at least one page must remain/);
    expect(sc(refused[5]).message).toMatch(/files\[1\] has 2 pages/);
    expect(await quota.refundsUsed(ip)).toBe(0);
    expect(sc(await rotate(c)).quota.remaining).toBe(2); // the first call that counted
  });

  it('the IP pool is shared with the website: MCP is rejected once combined usage reaches the daily limit', async () => {
    const ip = nextIp();
    for (let i = 0; i < 4; i++)
      expect((await quota.consume('web', 'rotate_pages', ip, 'device-a')).decision.allowed).toBe(true);
    const c = await client(ip);
    const ok = await rotate(c);
    expect(sc(ok).quota.remaining).toBe(0); // pool 5 of 5 used, although the MCP cap (3) is not
    expect(sc(await rotate(c)).error).toBe('quota_exceeded');
  });

  it('the website counts per device, with an IP pool cap of 4x the daily limit', async () => {
    const ip = nextIp();
    const allowed = async (device: string) => (await quota.consume('web', 'split_pdf', ip, device)).decision.allowed;
    for (let i = 0; i < 5; i++) expect(await allowed('d1')).toBe(true);
    expect(await allowed('d1')).toBe(false); // the device's daily limit
    for (const d of ['d2', 'd3', 'd4']) for (let i = 0; i < 5; i++) expect(await allowed(d)).toBe(true);
    expect(await allowed('d5')).toBe(false); // the IP pool: 20 = 4 x 5
    const state = await quota.status('web', 'split_pdf', ip, 'd5');
    expect(state).toMatchObject({ limit: 5, remaining: 0 });
    // and MCP from that IP is over the shared limit too
    const c = await client(ip);
    expect(sc(await call(c, 'split_pdf', { file: { base64: pdf }, mode: 'every', every: 1 })).error).toBe(
      'quota_exceeded',
    );
  });

  it('web refunds use the same daily allowance per IP', async () => {
    const ip = nextIp();
    const { ticket } = await quota.consume('web', 'compress_pdf', ip, 'dev');
    const r = await quota.refund('web', ticket!, ip, 'dev');
    expect(r.refunded).toBe(true);
    expect(r.state.remaining).toBe(5);
    expect(await quota.refundsUsed(ip)).toBe(1);
  });

  it('quotas reset at 00:00 UTC (injectable clock)', async () => {
    const ip = nextIp();
    const c = await client(ip);
    clock.set(() => new Date('2031-03-09T23:59:58.000Z'));
    for (let i = 0; i < 3; i++) expect((await rotate(c)).isError).toBeFalsy();
    const late = sc(await rotate(c));
    expect(late).toMatchObject({ error: 'quota_exceeded', resets_at: '2031-03-10T00:00:00.000Z' });
    clock.set(() => new Date('2031-03-10T00:00:00.000Z'));
    const next = sc(await rotate(c));
    expect(next.error).toBeUndefined();
    expect(next.quota).toEqual({ tool: 'rotate_pages', limit: 3, remaining: 2, resets_at: '2031-03-11T00:00:00.000Z' });
  });

  it('50 parallel MCP calls never exceed the cap', async () => {
    const c = await client(nextIp());
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call(c, 'remove_pages', { file: { base64: pdf }, pages: '1' })),
    );
    const ok = results.filter((r) => !r.isError);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => sc(r).error === 'quota_exceeded')).toHaveLength(47);
  });

  it('50 parallel web consumes on one device never exceed the daily limit', async () => {
    const ip = nextIp();
    const decisions = await Promise.all(
      Array.from({ length: 50 }, () => quota.consume('web', 'add_watermark', ip, 'phone')),
    );
    expect(decisions.filter((d) => d.decision.allowed)).toHaveLength(5);
  });

  it('stores a keyed hash of the IP, never the IP', async () => {
    const ip = nextIp();
    await quota.consume('mcp', 'flatten_form', ip);
    if (process.env.REDIS_URL) {
      const redis = (await import('../../src/common/redis/redis.service')).RedisService;
      const keys = await t.app.get(redis).client!.keys(`${t.config.REDIS_KEY_PREFIX}pdfq:*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.some((k) => k.includes(ip))).toBe(false);
      expect(keys.some((k) => k.includes(quota.hash('ip', ip)))).toBe(true);
    } else {
      const rows: { subject: string }[] = await t.dataSource.query(`SELECT subject FROM pdf_quota_usage`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.subject.includes(ip))).toBe(false);
      expect(rows.some((r) => r.subject === `ip:${quota.hash('ip', ip)}`)).toBe(true);
    }
    expect(quota.hash('ip', ip)).toMatch(/^[0-9a-f]{64}$/);
  });
});
