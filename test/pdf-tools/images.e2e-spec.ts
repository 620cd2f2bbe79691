import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createTestApp, TestApp } from '../utils/test-app';
import { fileIdsOf, uploadThroughForm, WebClient } from '../web/web-client';

/** Pages of the fixture: [width, height] in points. */
const SIZES: [number, number][] = [
  [300, 400],
  [612, 792],
  [595, 842],
];

async function fixture(sizes: [number, number][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  sizes.forEach(([w, h], i) => doc.addPage([w, h]).drawText(`Page ${i + 1}`, { x: 30, y: h - 60, size: 24, font }));
  return doc.save({ addDefaultPage: false });
}

/** Width and height of a PNG (IHDR) or a JPEG (its SOFn marker). */
function dimensions(bytes: Uint8Array): { type: string; width: number; height: number } {
  const b = Buffer.from(bytes);
  if (b.subarray(1, 4).toString('latin1') === 'PNG')
    return { type: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b[0] === 0xff && b[1] === 0xd8) {
    let at = 2;
    while (at < b.length) {
      const marker = b[at + 1];
      const length = b.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
        return { type: 'jpeg', height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
      at += 2 + length;
    }
  }
  throw new Error('not a PNG or JPEG');
}

const expected = ([w, h]: [number, number], dpi: number): { width: number; height: number } => ({
  width: Math.ceil((w / 72) * dpi),
  height: Math.ceil((h / 72) * dpi),
});
const summary = (text: string): string | undefined =>
  /<div class="error-summary"[\s\S]*?<a href="#[^"]+">([^<]*)<\/a>/.exec(text)?.[1];
const remaining = (text: string): number => Number(/<strong>(\d+) of/.exec(text)?.[1]);
const download = (text: string): string => /<a href="(\/files\/[^"]+)" download="[^"]+">Download/.exec(text)![1];

/**
 * PDF to images on the website (issue 23 item 1), over HTTP without the script: the images are
 * downloaded and decoded, their pixel size is dpi x the page size; a ZIP for several pages; a
 * password-protected file; damaged, 0-page and too-long files, refused with clear words and
 * refunded; options checked before the quota; what the size cap left out said.
 */
describe('PDF to images on the website (e2e)', () => {
  let t: TestApp;
  let pdf: Uint8Array;
  let served: Server;
  let origin: string;
  const bodies = new Map<string, Uint8Array>();

  beforeAll(async () => {
    t = await createTestApp({
      env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true', PDF_MAX_CALL_OUTPUT_BYTES: String(120 * 1024) },
    });
    pdf = await fixture(SIZES);
    bodies.set('/zero.pdf', await fixture([]));
    bodies.set('/long.pdf', await fixture(Array.from({ length: 201 }, () => [100, 100] as [number, number])));
    bodies.set('/many.pdf', await fixture(Array.from({ length: 12 }, () => [612, 792] as [number, number])));
    served = createServer((req, res) => {
      const body = bodies.get(req.url ?? '');
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length }).end(Buffer.from(body));
    });
    await new Promise<void>((r) => served.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(served.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((r) => served?.close(r));
    await t?.close();
  });

  it('renders one page as a PNG whose pixels are dpi x page size, and several pages as a ZIP (JPEG)', async () => {
    const c = WebClient.of(t.server);
    const up = await uploadThroughForm(c, 'images', pdf, 'report.pdf');
    expect(up.status).toBe(200);
    const [id] = fileIdsOf(up.text);
    expect(up.text).toContain('report.pdf <span class="hint">(3 pages, ');
    const before = remaining(up.text);

    const one = await c.post('/pdf/images', { file_id: id, pages: '2', format: 'png', dpi: '144' });
    expect(one.status).toBe(200);
    expect(one.text).toContain('1 page of report.pdf as PNG at 144 dpi (page 2).');
    expect(remaining(one.text)).toBe(before - 1);
    const png = await fetch(c.origin + download(one.text));
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toContain('report-page-2.png');
    expect(dimensions(new Uint8Array(await png.arrayBuffer()))).toEqual({ type: 'png', ...expected(SIZES[1], 144) });

    const all = await c.post('/pdf/images', { file_id: id, pages: 'all', format: 'jpeg', dpi: '100' });
    expect(all.status).toBe(200);
    expect(all.text).toContain('3 pages of report.pdf as JPEG at 100 dpi (pages 1-3).');
    const zip = await fetch(c.origin + download(all.text));
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(entries)).toEqual(['report-page-1.jpg', 'report-page-2.jpg', 'report-page-3.jpg']);
    Object.values(entries).forEach((bytes, i) =>
      expect(dimensions(bytes)).toEqual({ type: 'jpeg', ...expected(SIZES[i], 100) }),
    );
  });

  it('opens a password-protected PDF with its password; a wrong one is refused and refunded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'images-e2e-'));
    try {
      writeFileSync(join(dir, 'in.pdf'), pdf);
      execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', join(dir, 'in.pdf'), join(dir, 'out.pdf')]);
      const c = WebClient.of(t.server);
      const up = await uploadThroughForm(c, 'images', readFileSync(join(dir, 'out.pdf')), 'locked.pdf');
      const [id] = fileIdsOf(up.text);
      expect(up.text).toContain('<label for="password-1">Password of locked.pdf</label>');
      const before = remaining(up.text);
      const none = await c.post('/pdf/images', { file_id: id, pages: '1', format: 'png', dpi: '72' });
      expect(none.status).toBe(400);
      expect(summary(none.text)).toBe(
        'locked.pdf is protected by a password: enter it in &quot;Password of locked.pdf&quot;.',
      );
      const withPassword = (password: string) =>
        c.post('/pdf/images', { file_id: id, [`password.${id}`]: password, pages: '1', format: 'png', dpi: '72' });
      const wrong = await withPassword('nope');
      expect(wrong.status).toBe(422);
      expect(summary(wrong.text)).toBe(
        'The password of locked.pdf is not correct: type it again in &quot;Password of locked.pdf&quot;. This try did not use your quota.',
      );
      expect(wrong.text).not.toContain('nope');
      expect(remaining(wrong.text)).toBe(before);
      const right = await withPassword('user');
      expect(right.status).toBe(200);
      expect(right.text).toContain('locked.pdf was opened with your password.');
      const png = await fetch(c.origin + download(right.text));
      expect(dimensions(new Uint8Array(await png.arrayBuffer()))).toEqual({ type: 'png', ...expected(SIZES[0], 72) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad options before the quota, and 0-page, too long and missing files from an address with a refund', async () => {
    const c = WebClient.of(t.server);
    const form = await c.get(`/pdf/images?url=${encodeURIComponent(`${origin}/zero.pdf`)}`);
    expect(form.text).toContain(`value="${origin}/zero.pdf"`);
    const before = remaining(form.text);
    const dpi = await c.post('/pdf/images', { url: `${origin}/zero.pdf`, pages: 'all', format: 'png', dpi: '301' });
    expect(dpi.status).toBe(400);
    expect(summary(dpi.text)).toBe('Resolution must be a whole number from 72 to 300 dots per inch.');
    const range = await c.post('/pdf/images', { url: `${origin}/zero.pdf`, pages: '1-x', format: 'png', dpi: '72' });
    expect(range.status).toBe(400);
    expect(remaining(range.text)).toBe(before);

    const zero = await c.post('/pdf/images', { url: `${origin}/zero.pdf`, pages: 'all', format: 'png', dpi: '72' });
    expect(zero.status).toBe(422);
    expect(summary(zero.text)).toBe(
      `${origin}/zero.pdf has no pages: there is nothing to convert. This try did not use your quota.`,
    );
    expect(remaining(zero.text)).toBe(before);
    const long = await c.post('/pdf/images', { url: `${origin}/long.pdf`, pages: 'all', format: 'png', dpi: '72' });
    expect(long.status).toBe(413);
    expect(summary(long.text)).toBe(
      `${origin}/long.pdf has 201 pages; at most 200 pages per file: split it first with the Split tool. This try did not use your quota.`,
    );
    const missing = await c.post('/pdf/images', { url: `${origin}/gone.pdf`, pages: 'all', format: 'png', dpi: '72' });
    expect(missing.status).toBe(502);
    expect(remaining(missing.text)).toBe(before);
    const none = await c.post('/pdf/images', { pages: 'all', format: 'png', dpi: '72' });
    expect(summary(none.text)).toBe('Choose a PDF file first, or give the address of one.');
  });

  it('says which pages the size cap left out', async () => {
    const c = WebClient.of(t.server);
    await c.get('/pdf/images');
    const r = await c.post('/pdf/images', { url: `${origin}/many.pdf`, pages: 'all', format: 'png', dpi: '150' });
    expect(r.status).toBe(200);
    const left =
      /<p id="result-left-out"><strong>Pages ([\d-]+) were left out:<\/strong> the images reached 120 KB/.exec(r.text);
    expect(left).not.toBeNull();
    const entries = unzipSync(new Uint8Array(await (await fetch(c.origin + download(r.text))).arrayBuffer()));
    const kept = Object.keys(entries).length;
    expect(kept).toBeGreaterThan(0);
    expect(left![1]).toBe(`${kept + 1}-12`);
  });
});
