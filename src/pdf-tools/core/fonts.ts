import 'regenerator-runtime/runtime'; // @pdf-lib/fontkit's Indic (Devanagari) shaper expects the global
import fontkit from '@pdf-lib/fontkit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, PDFFont } from 'pdf-lib';
import { ToolFailure } from './tool-failure';

/**
 * Fonts for stamp text beyond Latin-1, from Debian's packages (installed by the README's commands):
 * Noto Sans (fonts-noto-core, SIL OFL 1.1) for Latin, Cyrillic, Greek, Arabic, Hebrew and
 * Devanagari, Nanum Gothic (fonts-nanum, SIL OFL 1.1) for Hangul only, and Droid Sans Fallback
 * (fonts-droid-fallback, Apache-2.0) for Chinese and Japanese (and Hanja): Noto's CJK fonts ship as
 * OpenType/CFF collections, which pdf-lib cannot embed, while these two are single TrueType fonts.
 * Each is embedded as a subset (only the glyphs used). A character takes the first font in this
 * order that covers it (`only`: the code points a font is chosen for, so that Chinese text is never
 * drawn half in Nanum's Hanja and half in Droid's; spaces, digits and punctuation next to them
 * follow them into it).
 */
export const FONT_DIR = '/usr/share/fonts/truetype';
const hangul = (cp: number): boolean =>
  (cp >= 0x1100 && cp <= 0x11ff) ||
  (cp >= 0x3130 && cp <= 0x318f) ||
  (cp >= 0xa960 && cp <= 0xa97f) ||
  (cp >= 0xac00 && cp <= 0xd7ff) ||
  (cp >= 0xffa0 && cp <= 0xffdc);
export const STAMP_FONTS: readonly {
  name: string;
  file: string;
  package: string;
  only?: (codePoint: number) => boolean;
}[] = [
  { name: 'Noto Sans', file: 'noto/NotoSans-Regular.ttf', package: 'fonts-noto-core' },
  { name: 'Noto Sans Arabic', file: 'noto/NotoSansArabic-Regular.ttf', package: 'fonts-noto-core' },
  { name: 'Noto Sans Hebrew', file: 'noto/NotoSansHebrew-Regular.ttf', package: 'fonts-noto-core' },
  { name: 'Noto Sans Devanagari', file: 'noto/NotoSansDevanagari-Regular.ttf', package: 'fonts-noto-core' },
  { name: 'Nanum Gothic', file: 'nanum/NanumGothic.ttf', package: 'fonts-nanum', only: hangul },
  { name: 'Droid Sans Fallback', file: 'droid/DroidSansFallbackFull.ttf', package: 'fonts-droid-fallback' },
];

export interface StampFont {
  index: number;
  name: string;
  /** The font's PostScript name, as its BaseFont in a PDF (after the subset tag). */
  postscriptName: string;
  bytes: Uint8Array;
  has(codePoint: number): boolean;
}

/** Fonts read once per worker thread, on first use (undefined: the file is not installed). */
const loaded = new Map<number, StampFont | undefined>();

function font(index: number): StampFont | undefined {
  if (!loaded.has(index)) {
    const spec = STAMP_FONTS[index];
    let entry: StampFont | undefined;
    try {
      const bytes = evenGlyphOffsets(new Uint8Array(readFileSync(join(FONT_DIR, spec.file))));
      const parsed = fontkit.create(bytes);
      // A font kept to some characters still draws the spaces, digits and punctuation next to them.
      entry = {
        index,
        name: spec.name,
        postscriptName: parsed.postscriptName ?? spec.name.replace(/ /g, ''),
        bytes,
        has: (cp) => (!spec.only || spec.only(cp) || isNeutral(cp)) && parsed.hasGlyphForCodePoint(cp),
      };
    } catch {
      entry = undefined;
    }
    loaded.set(index, entry);
  }
  return loaded.get(index);
}

/**
 * The font with every glyph's data padded to a multiple of 4 bytes (the same font when it already
 * is). Why: fontkit's TrueType subsetter copies each glyph's bytes as they are and then writes the
 * subset's `loca` table in the short format (offsets / 2) whenever the subset's glyph data is under
 * 64 KB, so a glyph of odd length shifts every glyph after it by one byte. Droid Sans Fallback and
 * Nanum Gothic have thousands of odd-length glyphs (the Noto fonts none): their subsets drew glyphs
 * from the wrong bytes, and viewers drew nothing for them (composite glyphs, most of Droid's CJK,
 * almost always, since their components come last). Padding with zeros after a glyph's data is
 * allowed by the format; only `glyf`, `loca` and the table directory change.
 */
export function evenGlyphOffsets(font: Uint8Array): Uint8Array {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const numTables = view.getUint16(4);
  const tables = new Map<string, { offset: number; length: number }>();
  for (let i = 0; i < numTables; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(font[at], font[at + 1], font[at + 2], font[at + 3]);
    tables.set(tag, { offset: view.getUint32(at + 8), length: view.getUint32(at + 12) });
  }
  const head = tables.get('head');
  const loca = tables.get('loca');
  const glyf = tables.get('glyf');
  const maxp = tables.get('maxp');
  // CFF fonts have no glyf; short-format offsets are even by construction.
  if (!head || !loca || !glyf || !maxp || view.getInt16(head.offset + 50) !== 1) return font;
  const numGlyphs = view.getUint16(maxp.offset + 4);
  const offsets: number[] = [];
  for (let i = 0; i <= numGlyphs; i++) offsets.push(view.getUint32(loca.offset + 4 * i));
  if (offsets.every((o) => o % 4 === 0)) return font;
  // New glyf and loca (long format, as before).
  const sizes = offsets.slice(1).map((end, i) => (end - offsets[i] + 3) & ~3);
  const newGlyf = new Uint8Array(sizes.reduce((a, b) => a + b, 0));
  const newLoca = new Uint8Array(4 * (numGlyphs + 1));
  const locaView = new DataView(newLoca.buffer);
  for (let i = 0, at = 0; i < numGlyphs; at += sizes[i], i++) {
    locaView.setUint32(4 * i, at);
    newGlyf.set(font.subarray(glyf.offset + offsets[i], glyf.offset + offsets[i + 1]), at);
    if (i === numGlyphs - 1) locaView.setUint32(4 * numGlyphs, at + sizes[i]);
  }
  // The same tables in the same order, glyf and loca replaced, each on a 4-byte boundary.
  const data = [...tables.entries()].map(([tag, t]) => ({
    tag,
    bytes: tag === 'glyf' ? newGlyf : tag === 'loca' ? newLoca : font.subarray(t.offset, t.offset + t.length),
  }));
  let size = 12 + 16 * numTables;
  for (const d of data) size += (d.bytes.length + 3) & ~3;
  const out = new Uint8Array(size);
  const outView = new DataView(out.buffer);
  out.set(font.subarray(0, 12));
  let at = 12 + 16 * numTables;
  data.forEach((d, i) => {
    const entry = 12 + 16 * i;
    out.set(font.subarray(entry, entry + 4), entry);
    out.set(d.bytes, at);
    let sum = 0;
    for (let j = at; j < at + d.bytes.length; j += 4) sum = (sum + outView.getUint32(j)) >>> 0; // zero-padded past the end
    outView.setUint32(entry + 4, d.tag === 'head' ? view.getUint32(entry + 4) : sum);
    outView.setUint32(entry + 8, at);
    outView.setUint32(entry + 12, d.bytes.length);
    at += (d.bytes.length + 3) & ~3;
  });
  return out;
}

/** Characters any font may draw (spaces, digits, punctuation): they follow their neighbours' font. */
export function isNeutral(codePoint: number): boolean {
  return /[\p{Zs}\p{Nd}\p{P}\p{S}\p{Cf}\p{Mn}\p{Me}]/u.test(String.fromCodePoint(codePoint));
}

/** The first stamp font with a glyph for `codePoint`, or a clear error naming `argument`. */
export function fontFor(codePoint: number, argument: string): StampFont {
  for (let i = 0; i < STAMP_FONTS.length; i++) {
    if (STAMP_FONTS[i].only?.(codePoint) === false) continue;
    const f = font(i);
    if (f?.has(codePoint)) return f;
  }
  const missing = STAMP_FONTS.filter((_, i) => !font(i));
  const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
  throw new ToolFailure(
    'invalid_arguments',
    `\`${argument}\` has the character "${String.fromCodePoint(codePoint)}" (U+${hex}), which no stamp font can draw${
      missing.length ? ` (not installed on this server: ${[...new Set(missing.map((m) => m.package))].join(', ')})` : ''
    }. Supported: Latin, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Chinese, Japanese, Korean.`,
    { argument, character: `U+${hex}` },
  );
}

/** Six random capitals: the tag that names a subset font in a PDF ("ABCDEF+NotoSans-Regular"). */
function subsetTag(): string {
  return Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
}

/**
 * Embeds (once per document) a stamp font as a subset, named as PDF names subsets (a tag, "+", the
 * PostScript name) so that readers and `pdffonts` see it is one; pdf-lib's own name is the
 * PostScript name with a number after it.
 */
export async function embedStampFont(doc: PDFDocument, f: StampFont, cache: Map<number, PDFFont>): Promise<PDFFont> {
  let embedded = cache.get(f.index);
  if (!embedded) {
    doc.registerFontkit(fontkit);
    embedded = await doc.embedFont(f.bytes, { subset: true, customName: `${subsetTag()}+${f.postscriptName}` });
    cache.set(f.index, embedded);
  }
  return embedded;
}
