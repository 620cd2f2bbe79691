import { PDFDocument } from 'pdf-lib';
import type { TestApp } from '../utils/test-app';
import { b64, call, connect, createPdfTestApp, nextIp, photoPagesPdf, sc, textPdf } from './helpers';

/** A run over PDF_TOOL_TIMEOUT_MS (here its minimum, 1 s) ends with `timeout` and is refunded. */
describe('PDF tool time limit (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createPdfTestApp({ env: { PDF_TOOL_TIMEOUT_MS: '1000', PDF_WORKERS: '1' } });
  });
  afterAll(async () => t.close());

  it('a compression that takes longer than the limit is stopped, answered with timeout and refunded', async () => {
    // 160 distinct full-page photos (8 MB): re-encoding them takes about 7 s on a CI machine (2 cores),
    // far beyond the 1 s limit however fast the machine is (8 photos, once used here, took 0.25 s).
    const heavy = b64(await photoPagesPdf(160));
    const ip = nextIp();
    const client = await connect(t, ip);
    const started = Date.now();
    const r = await call(client, 'compress_pdf', { file: { base64: heavy }, level: 'extreme' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.isError).toBe(true);
    expect(sc(r)).toMatchObject({ error: 'timeout', refunded: true, quota: { remaining: 25 } });
    expect(sc(r).message).toMatch(/within 1 s/);
    await client.close();
  });
});

/** A run over PDF_WORKER_HEAP_MB (here its minimum, 64 MB) loses its worker, not the process. */
describe('PDF worker heap limit (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createPdfTestApp({ env: { PDF_WORKER_HEAP_MB: '64', PDF_WORKERS: '1' } });
  });
  afterAll(async () => t.close());

  it('a file that needs more memory than the cap gives internal_error, is refunded, and the next call works', async () => {
    // A 2 M-character Subject string (8 MB of UTF-16 hex): decoding it as text takes far more than 64 MB of heap.
    const doc = await PDFDocument.load(await textPdf(1));
    doc.setSubject('x'.repeat(2 * 1024 * 1024));
    // Saved without object streams: the string is not inside a compressed stream (whose output is capped).
    const huge = b64(await doc.save({ useObjectStreams: false }));
    const client = await connect(t, nextIp());
    const r = await call(client, 'pdf_metadata', { file: { base64: huge } });
    expect(sc(r)).toMatchObject({ error: 'internal_error', refunded: true });
    expect(sc(r).message).toMatch(/more memory/);
    const after = await call(client, 'pdf_metadata', { file: { base64: b64(await textPdf(2)) } });
    expect(sc(after)).toMatchObject({ pages: 2, changed: false });
    await client.close();
  });
});
