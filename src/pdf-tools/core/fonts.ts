import 'regenerator-runtime/runtime'; // @pdf-lib/fontkit's Indic (Devanagari) shaper expects the global
import fontkit from '@pdf-lib/fontkit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, PDFFont } from 'pdf-lib';
import { ToolFailure } from './tool-failure';

/**
 * Fonts for stamp text beyond Latin-1, from Debian's packages (installed by the README's commands):
 * Noto Sans (fonts-noto-core, SIL OFL 1.1) for Latin, Cyrillic, Greek, Arabic, Hebrew and
 * Devanagari, and Droid Sans Fallback (fonts-droid-fallback, Apache-2.0) for Chinese, Japanese and
 * Korean: Noto's CJK fonts ship as an OpenType/CFF collection, which pdf-lib cannot embed, while
 * Droid Sans Fallback is a single TrueType font. Each is embedded as a subset (only the glyphs used).
 * A character takes the first font in this order that has a glyph for it.
 */
export const FONT_DIR = '/usr/share/fonts/truetype';
export const STAMP_FONTS = [
  { name: 'Noto Sans', file: 'noto/NotoSans-Regular.ttf', package: 'fonts-noto-core' },
  { name: 'Noto Sans Arabic', file: 'noto/NotoSansArabic-Regular.ttf', package: 'fonts-noto-core' },
  { name: 'Noto Sans Hebrew', file: 'noto/NotoSansHebrew-Regular.ttf', package: 'fonts-noto-core' },
  { name: 'Noto Sans Devanagari', file: 'noto/NotoSansDevanagari-Regular.ttf', package: 'fonts-noto-core' },
  { name: 'Droid Sans Fallback', file: 'droid/DroidSansFallbackFull.ttf', package: 'fonts-droid-fallback' },
] as const;

export interface StampFont {
  index: number;
  name: string;
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
      const bytes = new Uint8Array(readFileSync(join(FONT_DIR, spec.file)));
      const parsed = fontkit.create(bytes);
      entry = { index, name: spec.name, bytes, has: (cp) => parsed.hasGlyphForCodePoint(cp) };
    } catch {
      entry = undefined;
    }
    loaded.set(index, entry);
  }
  return loaded.get(index);
}

/** Characters any font may draw (spaces, digits, punctuation): they follow their neighbours' font. */
export function isNeutral(codePoint: number): boolean {
  return /[\p{Zs}\p{Nd}\p{P}\p{S}\p{Cf}\p{Mn}\p{Me}]/u.test(String.fromCodePoint(codePoint));
}

/** The first stamp font with a glyph for `codePoint`, or a clear error naming `argument`. */
export function fontFor(codePoint: number, argument: string): StampFont {
  for (let i = 0; i < STAMP_FONTS.length; i++) {
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

/** Embeds (once per document) a stamp font as a subset. */
export async function embedStampFont(doc: PDFDocument, f: StampFont, cache: Map<number, PDFFont>): Promise<PDFFont> {
  let embedded = cache.get(f.index);
  if (!embedded) {
    doc.registerFontkit(fontkit);
    embedded = await doc.embedFont(f.bytes, { subset: true });
    cache.set(f.index, embedded);
  }
  return embedded;
}
