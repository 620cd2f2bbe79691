import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { execFileSync } from 'node:child_process';
import { PDFDocument, PDFDict, PDFName } from 'pdf-lib';
import type { TestApp } from '../utils/test-app';
import { pdftotext } from './corpus';
import { b64, call, connect, createPdfTestApp, download, sc, textPdf } from './helpers';

/** Stamp text in each script, read back with pdftotext (right-to-left runs in logical order). */
const SCRIPTS: [string, string][] = [
  ['Latin', 'Zażółć gęślą jaźń'],
  ['Cyrillic', 'Конфиденциально'],
  ['Greek', 'Εμπιστευτικό'],
  ['CJK', '機密文書'],
  ['Japanese', '社外秘です'],
  ['Korean', '비밀 문서'],
  ['Arabic', 'سري للغاية'],
  ['Hebrew', 'סודי ביותר'],
  ['Devanagari', 'गोपनीय'],
];

/** The first page rendered by poppler (pdftoppm) at 72 dpi, 1 pixel a point: grey levels, top row first. */
function render(bytes: Uint8Array): { width: number; height: number; grey: Uint8Array } {
  const pgm = execFileSync('pdftoppm', ['-gray', '-r', '72', '-singlefile', '-'], { input: bytes });
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
  return { width: Number(header[1]), height: Number(header[2]), grey: pgm.subarray(header[0].length) };
}

/** pdftotext without the bidi embedding marks it puts around right-to-left runs, spaces collapsed. */
const readBack = (bytes: Uint8Array): string =>
  pdftotext(bytes)
    .replace(/[\u202a-\u202e]/g, '')
    .replace(/\s+/g, ' ');

/** Base font names of every font on the pages, with whether each is embedded as a subset (ABCDEF+Name). */
async function fontsOf(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const names = new Set<string>();
  for (const page of doc.getPages()) {
    const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const [, ref] of fonts?.entries() ?? []) {
      const font = doc.context.lookup(ref) as PDFDict;
      names.add(String(font.lookup(PDFName.of('BaseFont'))));
    }
  }
  return [...names];
}

describe('PDF engine: stamps in any script (e2e, official SDK client, read back with pdftotext)', () => {
  let t: TestApp;
  let client: Client;
  let two: Uint8Array;

  beforeAll(async () => {
    t = await createPdfTestApp({ env: { PDF_DAILY_LIMIT: '100000', PDF_MCP_DAILY_CAP: '100000' } });
    client = await connect(t);
    two = await textPdf(2, { name: 'scripts' });
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  it.each(SCRIPTS)(
    '%s watermark (rotated, tiled and not) is drawn in an embedded subset font and reads back',
    async (_script, text) => {
      for (const tiled of [false, true]) {
        const r = await call(client, 'add_watermark', {
          file: { base64: b64(two) },
          text,
          rotation: 0,
          tiled,
          font_size: 36,
        });
        expect(r.isError).toBeFalsy();
        const out = await download(t, sc(r) as { download_url: string });
        expect(readBack(out)).toContain(text);
        // Embedded (a Type0 font named after Noto, Nanum or Droid), and a subset (named "ABCDEF+...",
        // and small: the whole fonts are 0.5 to 5 MB).
        expect((await fontsOf(out)).some((f) => /^\/[A-Z]{6}\+(NotoSans|NanumGothic|DroidSansFallback)/.test(f))).toBe(
          true,
        );
        expect(out.length).toBeLessThan(150_000);
      }
    },
  );

  it.each(SCRIPTS)('%s page numbers read back on every page, numbers in place', async (_script, word) => {
    const r = await call(client, 'add_page_numbers', { file: { base64: b64(two) }, format: `${word} {n} / {total}` });
    expect(r.isError).toBeFalsy();
    const out = await download(t, sc(r) as { download_url: string });
    const text = readBack(out);
    // A right-to-left line is laid out right to left: the number stands left of the word, and
    // pdftotext (which reads a line left to right, each RTL run in logical order) gives "2 / 1 word".
    const rtl = /[\u0590-\u08ff]/.test(word);
    expect(text).toContain(rtl ? `2 / 1 ${word}` : `${word} 1 / 2`);
    expect(text).toContain(rtl ? `2 / 2 ${word}` : `${word} 2 / 2`);
  });

  // pdftotext reads the text back even when a viewer draws nothing (CJK glyphs of a broken subset
  // once): the page is rendered with and without the stamp, and the ink the stamp adds is checked.
  /**
   * The ink a stamp adds to page 1 (rendered with and without it) between `top` and `bottom`
   * (pixel rows from the top): whether there is any, whether it is centred across the page, and the
   * widest ink-free run of columns inside it. A glyph drawn blank at either end moves the ink off
   * centre by half its advance (an em for CJK); one in the middle leaves a hole its width.
   */
  function stampInk(
    stamped: Uint8Array,
    top: number,
    bottom: number,
  ): { inked: boolean; offCentre: number; hole: number } {
    const before = render(two);
    const after = render(stamped);
    const inked: boolean[] = [];
    for (let x = 0; x < after.width; x++) {
      let ink = false;
      for (let y = Math.max(0, Math.round(top)); y < Math.min(after.height, bottom) && !ink; y++)
        ink = before.grey[y * after.width + x] - after.grey[y * after.width + x] > 100;
      inked.push(ink);
    }
    const first = inked.indexOf(true);
    const last = inked.lastIndexOf(true);
    let hole = 0;
    for (let x = first, run = 0; x <= last; x++) hole = Math.max(hole, (run = inked[x] ? 0 : run + 1));
    return { inked: first >= 0, offCentre: Math.abs((first + last) / 2 - after.width / 2), hole };
  }

  // Measured when right, at 40 pt: off centre by 2 pt at most, holes (a space with its neighbours'
  // side bearings) of 16 pt at most.
  it.each([...SCRIPTS, ["CJK (the walkthrough's line)", '中文 機密 ABC'], ['Korean (another word)', '대외비']])(
    '%s watermark renders: ink across the whole text, centred, no glyph left blank',
    async (_script, text) => {
      const size = 40;
      const r = await call(client, 'add_watermark', {
        file: { base64: b64(two) },
        pages: '1',
        text,
        rotation: 0,
        font_size: size,
        color: '#000000',
        opacity: 1,
      });
      expect(r.isError).toBeFalsy();
      const page = await download(t, sc(r) as { download_url: string });
      const ink = stampInk(page, 421 - size, 421 + size); // the line is centred on the 842 pt page
      expect({ text, inked: ink.inked, centred: ink.offCentre < 0.25 * size, hole: ink.hole < 0.65 * size }).toEqual({
        text,
        inked: true,
        centred: true,
        hole: true,
      });
    },
  );

  it('a watermark wider than the page is drawn smaller so that all of it stays on the page, and the result says so', async () => {
    const text = '機密 비밀 Конфиденциально Confidential';
    const r = await call(client, 'add_watermark', {
      file: { base64: b64(two) },
      pages: '1',
      text,
      font_size: 60,
      color: '#000000',
      opacity: 1,
    });
    expect(r.isError).toBeFalsy();
    const s = sc(r) as { download_url: string; note?: string };
    expect(s.note).toMatch(/drawn smaller on 1 page \(down to [\d.]+ pt instead of 60\)/);
    const page = await download(t, s);
    // Ink on the whole page, every column and row of it inside the 36 pt margin (a few pixels of
    // anti-aliasing aside), and the line centred.
    const before = render(two);
    const after = render(page);
    let [left, right, top, bottom] = [after.width, -1, after.height, -1];
    for (let y = 0; y < after.height; y++) {
      for (let x = 0; x < after.width; x++) {
        if (before.grey[y * after.width + x] - after.grey[y * after.width + x] <= 100) continue;
        [left, right, top, bottom] = [Math.min(left, x), Math.max(right, x), Math.min(top, y), Math.max(bottom, y)];
      }
    }
    expect(right).toBeGreaterThan(left);
    expect({
      left: left >= 33,
      right: right <= after.width - 33,
      top: top >= 33,
      bottom: bottom <= after.height - 33,
    }).toEqual({ left: true, right: true, top: true, bottom: true });
    expect(Math.abs((left + right) / 2 - after.width / 2)).toBeLessThan(8);
    // Fits as given: no note.
    const small = sc(
      await call(client, 'add_watermark', { file: { base64: b64(two) }, pages: '1', text: 'DRAFT', font_size: 60 }),
    ) as { note?: string };
    expect(small.note ?? '').not.toMatch(/smaller/);
  });

  it('page numbers in Korean and Chinese render at the bottom, every glyph inked', async () => {
    const size = 30;
    const r = await call(client, 'add_page_numbers', {
      file: { base64: b64(two) },
      format: '비밀 機密 {n}',
      position: 'bottom-center',
      font_size: size,
      color: '#000000',
    });
    expect(r.isError).toBeFalsy();
    const page = await download(t, sc(r) as { download_url: string });
    const ink = stampInk(page, 842 - 24 - 1.5 * size, 842 - 24 + 0.5 * size); // the default margin: 24 pt from the bottom edge
    expect({ inked: ink.inked, centred: ink.offCentre < 0.25 * size, hole: ink.hole < 0.65 * size }).toEqual({
      inked: true,
      centred: true,
      hole: true,
    });
  });

  it('mixed scripts on one line keep their order (Latin, Arabic with digits, CJK)', async () => {
    const text = 'Draft مسودة 2024 機密';
    const r = await call(client, 'add_watermark', { file: { base64: b64(two) }, text, rotation: 0 });
    expect(r.isError).toBeFalsy();
    // Unicode bidi: "مسودة 2024" is a right-to-left sequence, so its number stands left of the word.
    const back = readBack(await download(t, sc(r) as { download_url: string }));
    expect(back).toMatch(/Draft 2024 مسودة ?機密/);
  });

  it('Latin-1 text still uses the standard Helvetica (nothing embedded)', async () => {
    const r = await call(client, 'add_watermark', {
      file: { base64: b64(two) },
      text: 'Café CONFIDENTIAL',
      rotation: 0,
    });
    const out = await download(t, sc(r) as { download_url: string });
    expect(await fontsOf(out)).toContain('/Helvetica');
    expect(readBack(out)).toContain('Café CONFIDENTIAL');
  });
});
