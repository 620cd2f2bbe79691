import fontkit from '@pdf-lib/fontkit';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream, rgb } from 'pdf-lib';
import { evenGlyphOffsets, FONT_DIR } from './fonts';
import { StampFonts, StampText } from './stamp-text';

/** Samples of every script the stamp fonts cover (機密 and the Korean words were drawn blank or refused once). */
const SAMPLES: [string, string][] = [
  ['Latin', 'Zażółć gęślą jaźń'],
  ['Cyrillic', 'Конфиденциально'],
  ['Greek', 'Εμπιστευτικό'],
  ['Chinese', '中文 機密 文書'],
  ['Japanese', '社外秘です 見本 カタカナ'],
  ['Korean', '비밀 문서 대외비'],
  ['Arabic', 'سري للغاية'],
  ['Hebrew', 'סודי ביותר'],
  ['Devanagari', 'गोपनीय दस्तावेज़'],
];

/** A page rendered by poppler (pdftoppm) at 72 dpi, 1 pixel a point, grey 0 (black) to 255. */
interface Raster {
  width: number;
  height: number;
  dark(x: number, y: number): boolean;
}
function render(pdf: Uint8Array): Raster {
  const pgm = execFileSync('pdftoppm', ['-gray', '-r', '72', '-singlefile', '-'], { input: pdf });
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
  const [width, height, start] = [Number(header[1]), Number(header[2]), header[0].length];
  // (x, y) in PDF points from the bottom-left corner.
  return { width, height, dark: (x, y) => pgm[start + (height - 1 - Math.round(y)) * width + Math.round(x)] < 128 };
}

/** Dark pixels in the box [x0, x1) x [y0, y1). */
function inkPixels(r: Raster, x0: number, x1: number, y0: number, y1: number): number {
  let n = 0;
  for (let x = Math.floor(x0); x < Math.ceil(x1); x++)
    for (let y = Math.floor(y0); y < Math.ceil(y1); y++) n += r.dark(x, y) ? 1 : 0;
  return n;
}

/** Columns of the box [x0, x1) x [y0, y1) holding ink. */
function inkColumns(r: Raster, x0: number, x1: number, y0: number, y1: number): boolean[] {
  const cols: boolean[] = [];
  for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
    let ink = false;
    for (let y = Math.floor(y0); y < Math.ceil(y1) && !ink; y++) ink = r.dark(x, y);
    cols.push(ink);
  }
  return cols;
}

describe('stamp text, rendered (pdftoppm): every script puts ink where its text is', () => {
  const size = 28;
  const cell = 42;
  const perRow = 14;
  let raster: Raster;
  const chars: { script: string; char: string; x: number; y: number }[] = [];
  const words: { script: string; word: string; x: number; y: number; width: number }[] = [];
  let pdf: Uint8Array;

  beforeAll(async () => {
    // One page, one document, so each font's subset holds every glyph drawn (as a real stamp's does):
    // each character alone in a cell of a grid, then each word (shaped in context) on its own line.
    for (const [script, text] of SAMPLES)
      for (const char of [...text].filter((c) => c !== ' ')) chars.push({ script, char, x: 0, y: 0 });
    const wordList = SAMPLES.flatMap(([script, text]) => text.split(' ').map((word) => ({ script, word })));
    const gridRows = Math.ceil(chars.length / perRow);
    const height = (gridRows + wordList.length) * cell + cell;
    const doc = await PDFDocument.create();
    const page = doc.addPage([perRow * cell + 2 * cell, height]);
    const fonts = new StampFonts(doc);
    const black = { size, color: rgb(0, 0, 0) };
    for (const [i, c] of chars.entries()) {
      c.x = cell + (i % perRow) * cell;
      c.y = height - cell - Math.floor(i / perRow) * cell;
      (await StampText.build(fonts, c.char, size, 'text')).draw(
        page,
        { x: c.x + 6, y: c.y - cell + 12, rotate: 0 },
        black,
      );
    }
    for (const [i, w] of wordList.entries()) {
      const line = await StampText.build(fonts, w.word, size, 'text');
      const y = height - cell - (gridRows + i) * cell - cell + 12;
      line.draw(page, { x: cell, y, rotate: 0 }, black);
      words.push({ ...w, x: cell, y, width: line.width });
    }
    pdf = await doc.save();
    raster = render(pdf);
  });

  it('each character alone draws visible glyphs (all subset together, as one stamp)', () => {
    // A thin "l" at 28 pt is about 40 dark pixels; a glyph drawn blank, none.
    const blank = chars.filter((c) => inkPixels(raster, c.x, c.x + cell, c.y - cell, c.y) < 15);
    expect(blank.map((c) => `${c.script} ${c.char}`)).toEqual([]);
    expect(pdf.length).toBeLessThan(120_000);
  });

  it('each embedded subset reads back in fontkit with every outline intact (the broken ones threw)', async () => {
    const doc = await PDFDocument.load(pdf);
    const fonts: string[] = [];
    for (const [, obj] of doc.context.enumerateIndirectObjects()) {
      if (!(obj instanceof PDFDict) || obj.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor')) continue;
      const file = doc.context.lookup(obj.get(PDFName.of('FontFile2'))) as PDFRawStream;
      const subset = fontkit.create(Buffer.from(decodePDFRawStream(file).decode()));
      for (let gid = 0; gid < subset.numGlyphs; gid++) expect(() => subset.getGlyph(gid).path).not.toThrow();
      fonts.push(String(obj.get(PDFName.of('FontName'))).replace(/^\/[A-Z]{6}\+/, ''));
    }
    expect(fonts.sort()).toEqual([
      'DroidSansFallback',
      'NanumGothic',
      'NotoSans-Regular',
      'NotoSansArabic-Regular',
      'NotoSansDevanagari-Regular',
      'NotoSansHebrew-Regular',
    ]);
  });

  it.each(SAMPLES.map(([script]) => script))(
    '%s words: ink from the start to the end of each word, no glyph-wide hole',
    (script) => {
      for (const w of words.filter((v) => v.script === script)) {
        const cols = inkColumns(raster, w.x, w.x + w.width, w.y - 0.3 * size, w.y + size);
        const first = cols.indexOf(true);
        const last = cols.lastIndexOf(true);
        let hole = 0;
        for (let x = first, run = 0; x <= last; x++) hole = Math.max(hole, (run = cols[x] ? 0 : run + 1));
        // Side bearings are a fraction of an em; a glyph drawn blank leaves its whole advance empty.
        const seen = {
          word: w.word,
          inked: first >= 0,
          start: first <= 0.25 * size,
          end: cols.length - 1 - last <= 0.25 * size,
          hole: hole < 0.5 * size,
        };
        expect(seen).toEqual({ word: w.word, inked: true, start: true, end: true, hole: true });
      }
    },
  );
});

describe('stamp text, rendered: right-to-left and mixed lines in visual order', () => {
  // Each line, then what a reader sees from left to right: each piece is drawn alone and found in the
  // line's ink by its column profile, and the places must come in this order. (Pieces are never
  // Latin-1 only, which would be drawn alone in Helvetica; digits' order is checked with pdftotext.)
  const LINES: [string, string, string[]][] = [
    ['Hebrew', 'סודי ביותר', ['ביותר', 'סודי']],
    ['Arabic', 'سري للغاية', ['للغاية', 'سري']],
    ['Arabic first, then Cyrillic', 'سري Секретно', ['Секретно', 'سري']],
    ['mixed', 'Черновик مسودة 2024 機密', ['Черновик', 'مسودة', '機密']],
    ['Korean and Chinese', '비밀 機密', ['비밀', '機密']],
  ];
  const size = 28;
  const row = 44;
  let r: Raster;
  /** Baseline of row i of the page: each line, followed by its pieces. */
  const rows: string[] = LINES.flatMap(([, line, visual]) => [line, ...visual]);
  const baseline = (i: number) => row * (rows.length - i);

  beforeAll(async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([600, row * (rows.length + 1)]);
    const fonts = new StampFonts(doc);
    for (const [i, text] of rows.entries())
      (await StampText.build(fonts, text, size, 'text')).draw(
        page,
        { x: 20, y: baseline(i), rotate: 0 },
        { size, color: rgb(0, 0, 0) },
      );
    r = render(await doc.save());
  });

  it.each(LINES)('%s: %s', (_name, line, visual) => {
    const first = rows.indexOf(line);
    // Dark pixels per column in a row's band.
    const profile = (i: number): number[] =>
      Array.from({ length: r.width }, (_, x) => inkPixels(r, x, x + 1, baseline(i) - 0.3 * size, baseline(i) + size));
    const whole = profile(first);
    const places = visual.map((piece, i) => {
      const p = profile(first + 1 + i);
      const ink = p.slice(
        p.findIndex((n) => n > 0),
        p.length - [...p].reverse().findIndex((n) => n > 0),
      );
      let best = { at: -1, error: Infinity };
      for (let at = 0; at + ink.length <= whole.length; at++) {
        let error = 0;
        for (let k = 0; k < ink.length && error < best.error; k++) error += Math.abs(whole[at + k] - ink[k]);
        if (error < best.error) best = { at, error };
      }
      // Found when the piece's ink matches that part of the line's to within a fifth (anti-aliasing, joins).
      return { piece, at: best.at, found: best.error < 0.2 * ink.reduce((a, b) => a + b, 0) };
    });
    expect(places.filter((p) => !p.found)).toEqual([]);
    expect([...places].sort((a, b) => a.at - b.at).map((p) => p.piece)).toEqual(visual);
  });
});

/** Glyph offsets of a TrueType font's loca table (parsed by fontkit, not in its types). */
const loca = (bytes: Uint8Array): number[] =>
  (fontkit.create(bytes) as unknown as { loca: { offsets: number[] } }).loca.offsets;

describe('evenGlyphOffsets', () => {
  it('pads every glyph of Droid Sans Fallback to 4 bytes, outlines unchanged; the Noto fonts are already so', () => {
    const droid = new Uint8Array(readFileSync(join(FONT_DIR, 'droid/DroidSansFallbackFull.ttf')));
    const padded = evenGlyphOffsets(droid);
    const before = fontkit.create(droid);
    const after = fontkit.create(padded);
    expect(loca(droid).some((o) => o % 4 !== 0)).toBe(true);
    expect(loca(padded).every((o) => o % 4 === 0)).toBe(true);
    expect(after.numGlyphs).toBe(before.numGlyphs);
    for (const c of '中機密本かカ') {
      expect(after.glyphForCodePoint(c.codePointAt(0)!).path.toSVG()).toBe(
        before.glyphForCodePoint(c.codePointAt(0)!).path.toSVG(),
      );
    }
    const noto = new Uint8Array(readFileSync(join(FONT_DIR, 'noto/NotoSans-Regular.ttf')));
    expect(evenGlyphOffsets(noto)).toBe(noto);
  });
});
