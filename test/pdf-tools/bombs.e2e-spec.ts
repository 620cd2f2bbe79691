import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { deflateSync } from 'node:zlib';
import type { TestApp } from '../utils/test-app';
import { deflatedRun, onePagePdf, rawPdf, streamObject } from './corpus';
import { b64, call, connect, createPdfTestApp, sc, textPdf } from './helpers';

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

/**
 * Deflate bombs (issue #9): small PDFs whose streams inflate to a gigabyte. The PDF workers run
 * in this process, so its resident memory is what the server's would be: sampled during the calls,
 * its peak must stay far below what inflating any bomb would take.
 */
describe('PDF engine: decompression bombs (e2e, official SDK client)', () => {
  let t: TestApp;
  let client: Client;
  let contentBomb: Buffer;
  let imageBomb: Buffer;
  let objStmBomb: Buffer;

  beforeAll(async () => {
    t = await createPdfTestApp({ env: { PDF_DAILY_REFUNDS: '1000' } });
    client = await connect(t);
    const gig = await deflatedRun(GiB); // about 1 MB of deflate that inflates to 1 GiB
    // A page whose content stream inflates to 1 GiB of spaces.
    contentBomb = onePagePdf(gig);
    // An image XObject that claims 1000 x 1000 RGB but inflates to 1 GiB, drawn on a page.
    const image = streamObject(
      '/Type /XObject /Subtype /Image /Width 1000 /Height 1000 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode',
      gig,
    );
    imageBomb = onePagePdf(
      deflateSync('q 500 0 0 500 40 40 cm /Im0 Do Q'),
      '/FlateDecode',
      '/XObject << /Im0 5 0 R >>',
      [image],
    );
    // An object stream (decoded by the PDF parser itself while opening) that inflates to 1 GiB.
    objStmBomb = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
      streamObject('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', gig),
    ]);
  }, 120_000);
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  /** Runs `fn` while sampling resident memory; returns its result and the peak growth in bytes. */
  async function peakGrowth<T>(fn: () => Promise<T>): Promise<{ result: T; growth: number }> {
    const base = process.memoryUsage.rss();
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
    try {
      const result = await fn();
      peak = Math.max(peak, process.memoryUsage.rss());
      return { result, growth: peak - base };
    } finally {
      clearInterval(timer);
    }
  }

  it('the bombs are small files', () => {
    for (const bomb of [contentBomb, imageBomb, objStmBomb]) expect(bomb.length).toBeLessThan(2 * MiB);
  });

  it('compress_pdf (every level) leaves an over-cap content stream or image as it is, in bounded memory', async () => {
    const { result, growth } = await peakGrowth(async () => {
      const out = [];
      for (const level of ['lossless', 'recommended', 'extreme']) {
        for (const file of [contentBomb, imageBomb])
          out.push(await call(client, 'compress_pdf', { file: { base64: b64(file) }, level }));
      }
      return out;
    });
    for (const r of result) {
      expect(r.isError).toBeFalsy();
      expect(sc(r).images_recompressed).toBe(0);
    }
    // Inflating one bomb alone would add 1 GiB.
    expect(growth).toBeLessThan(400 * MiB);
  }, 120_000);

  it('an object stream that inflates past the cap is a clear file_too_large error, in bounded memory', async () => {
    const { result, growth } = await peakGrowth(() =>
      call(client, 'rotate_pages', { file: { base64: b64(objStmBomb) }, angle: 90 }),
    );
    expect(result.isError).toBe(true);
    expect(sc(result)).toMatchObject({
      error: 'file_too_large',
      reason: 'decompressed_stream_too_large',
      input: 'file',
      decoded_limit: 80 * MiB,
    });
    expect(sc(result).message).toMatch(/^file has a compressed stream that expands beyond 80 MB when decompressed/);
    expect(growth).toBeLessThan(400 * MiB);
  }, 120_000);

  it('tools that never decode content streams pass a content bomb through untouched', async () => {
    const r = await call(client, 'rotate_pages', { file: { base64: b64(contentBomb) }, angle: 90 });
    expect(r.isError).toBeFalsy();
    expect(sc(r).pages).toBe(1);
  }, 60_000);

  it('a PNG watermark whose header claims a huge image is refused before it is decoded', async () => {
    const png = Buffer.alloc(64);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
    png.writeUInt32BE(13, 8);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(20000, 16);
    png.writeUInt32BE(20000, 20);
    png[24] = 8;
    png[25] = 6;
    const r = await call(client, 'add_watermark', {
      file: { base64: b64(await textPdf(1)) },
      image_base64: png.toString('base64'),
    });
    expect(r.isError).toBe(true);
    expect(sc(r)).toMatchObject({ error: 'invalid_image', input: 'image_base64' });
    expect(sc(r).message).toMatch(/20000 x 20000 pixels, which decodes to more than 80 MB/);
  });
});
