import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHash, randomBytes } from 'node:crypto';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { FileStoreService } from '../../src/pdf-tools/files/file-store.service';
import type { TestApp } from '../utils/test-app';
import { b64, call, connect, createPdfTestApp, imagePdf, nextIp, sc } from './helpers';

/**
 * Issue 9, item 4: what one anonymous client can make the server read, produce, store and send.
 * Small caps so the test files stay small: each file at most 1.3 times the input's size, the
 * outputs of a call at most twice its size in total and 4 files; one MCP call per client and tool a day.
 */
describe('PDF tools: batches, quota before bytes, output caps, downloads (e2e)', () => {
  let t: TestApp;
  let store: FileStoreService;
  let pdf: Uint8Array;
  const clients: Client[] = [];

  beforeAll(async () => {
    pdf = await imagePdf(6, 500, 95);
    t = await createPdfTestApp({
      env: {
        PDF_MAX_FILE_BYTES: String(Math.ceil(pdf.length * 1.3)),
        PDF_MAX_CALL_OUTPUT_BYTES: String(pdf.length * 2),
        PDF_MAX_CALL_OUTPUT_FILES: '4',
        PDF_MCP_DAILY_CAP: '1',
        PDF_DAILY_REFUNDS: '1000',
        PDF_DOWNLOAD_RATE_LIMIT: '12',
      },
    });
    store = t.app.get(FileStoreService);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  async function client(ip = nextIp()): Promise<Client> {
    const c = await connect(t, ip);
    clients.push(c);
    return c;
  }
  const storedCount = async (): Promise<number> =>
    Number((await t.dataSource.query('SELECT count(*)::int AS n FROM pdf_files'))[0].n);

  it('a JSON-RPC batch on POST /mcp is refused with a JSON-RPC error, and none of its calls runs', async () => {
    const ip = nextIp();
    const msg = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'rotate_pages', arguments: { file: { base64: b64(pdf) }, angle: 90 } },
    });
    const before = await storedCount();
    const res = await request(t.server)
      .post('/mcp')
      .set('X-Forwarded-For', ip)
      .set('Accept', 'application/json, text/event-stream')
      .send([msg(1), msg(2)])
      .expect(400);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/batches are not supported/i) },
    });
    expect(await storedCount()).toBe(before);
    // the client's quota is untouched: its one call of the day still works
    expect(
      sc(await call(await client(ip), 'rotate_pages', { file: { base64: b64(pdf) }, angle: 90 })).quota.remaining,
    ).toBe(0);
  });

  it('quota spent: a call referencing stored files reads none of their bytes', async () => {
    const c = await client();
    const first = sc(await call(c, 'rotate_pages', { file: { base64: b64(pdf) }, angle: 90 }));
    expect(first.file_id).toBeDefined();
    const content = jest.spyOn(store, 'content');
    const over = await call(c, 'rotate_pages', { file: { file_id: first.file_id }, angle: 90 });
    expect(sc(over).error).toBe('quota_exceeded');
    expect(content).not.toHaveBeenCalled();
    // with quota left, the same reference is read (once): the spy sees real reads
    const other = await call(c, 'pdf_metadata', { file: { file_id: first.file_id } });
    expect(other.isError).toBeFalsy();
    expect(content).toHaveBeenCalledTimes(1);
  });

  it('stored sizes are checked from the row before the quota: an oversized stored file costs no quota and no read', async () => {
    const big = await store.save({
      name: 'big.pdf',
      bytes: new Uint8Array(t.config.PDF_MAX_FILE_BYTES + 1),
      pages: 1,
      sha256: 'x'.repeat(64),
    });
    const content = jest.spyOn(store, 'content');
    const c = await client();
    const r = sc(await call(c, 'rotate_pages', { file: { file_id: big.file_id }, angle: 90 }));
    expect(r).toMatchObject({ error: 'file_too_large', input: 'file', quota: { remaining: 1 } });
    expect(content).not.toHaveBeenCalled();
  });

  it('a merge whose result is over the file limit is refused with a clear error, nothing stored', async () => {
    const c = await client();
    const seed = sc(await call(await client(), 'rotate_pages', { file: { base64: b64(pdf) }, angle: 90 }));
    const before = await storedCount();
    const r = sc(
      await call(c, 'merge_pdfs', {
        files: [{ file_id: seed.file_id }, { file_id: seed.file_id }, { file_id: seed.file_id }],
      }),
    );
    expect(r).toMatchObject({ error: 'file_too_large', limit: t.config.PDF_MAX_FILE_BYTES, refunded: true });
    expect(r.message).toMatch(/result .* would be \d+ bytes; the limit is \d+ bytes per file/);
    expect(await storedCount()).toBe(before);
  });

  it('a split over the total per call (bytes) or over the file count is refused, nothing stored', async () => {
    const before = await storedCount();
    const bytes = sc(
      await call(await client(), 'split_pdf', {
        file: { base64: b64(pdf) },
        mode: 'ranges',
        ranges: ['all', 'all', 'all'],
      }),
    );
    expect(bytes).toMatchObject({ error: 'file_too_large', limit: t.config.PDF_MAX_CALL_OUTPUT_BYTES, refunded: true });
    expect(bytes.message).toMatch(/total more than \d+ bytes \(the limit per call\)/);
    const count = sc(await call(await client(), 'split_pdf', { file: { base64: b64(pdf) }, mode: 'every', every: 1 }));
    expect(count).toMatchObject({ error: 'invalid_arguments', files: 6, limit: 4, refunded: true });
    expect(count.message).toMatch(/would produce 6 files; at most 4 per call/);
    expect(await storedCount()).toBe(before);
  });

  it('GET /files/{id} streams: 10 parallel downloads of a 24 MB file stay well below 10 copies in memory', async () => {
    const bytes = randomBytes(24 * 1024 * 1024);
    const saved = await store.save({
      name: 'large.pdf',
      bytes,
      pages: 1,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const path = new URL(saved.download_url).pathname;
    const port = (t.server.address() as AddressInfo).port;
    global.gc?.();
    const base = process.memoryUsage().arrayBuffers;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
    const one = () =>
      new Promise<string>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path, headers: { 'X-Forwarded-For': '203.0.113.9' } }, (res) => {
          expect(res.statusCode).toBe(200);
          const hash = createHash('sha256');
          res.on('data', (chunk: Buffer) => hash.update(chunk));
          res.on('end', () => resolve(hash.digest('hex')));
          res.on('error', reject);
        }).on('error', reject);
      });
    const hashes = await Promise.all(Array.from({ length: 10 }, one));
    clearInterval(sampler);
    expect(new Set(hashes)).toEqual(new Set([saved.sha256]));
    // Loading each file whole would hold 10 x 24 MB = 240 MB at once (plus pg's hex text); streamed,
    // what remains is chunks not yet garbage-collected (no forced GC here), well under that.
    expect(peak - base).toBeLessThan(160 * 1024 * 1024);
  });

  it('GET /files/{id} is rate-limited per client IP', async () => {
    const saved = sc(await call(await client(), 'rotate_pages', { file: { base64: b64(pdf) }, angle: 90 }));
    const path = new URL(saved.download_url).pathname;
    const ip = nextIp();
    for (let i = 0; i < 12; i++) await request(t.server).get(path).set('X-Forwarded-For', ip).expect(200);
    const limited = await request(t.server).get(path).set('X-Forwarded-For', ip).expect(429);
    expect(limited.headers['retry-after']).toBeDefined();
    await request(t.server).get(path).set('X-Forwarded-For', nextIp()).expect(200);
  });
});
