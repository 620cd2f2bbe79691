import bidiFactory from 'bidi-js';
import { Color, degrees, PDFDocument, PDFFont, PDFPage, StandardFonts } from 'pdf-lib';
import { embedStampFont, fontFor, isNeutral, StampFont } from './fonts';

const bidi = bidiFactory();

/** One piece of a line drawn with one font, in visual order, with its width at the stamp's size. */
interface Run {
  text: string;
  font: PDFFont;
  width: number;
}

/** Fonts of one document: the standard Helvetica and the embedded subsets (by stamp-font index). */
export class StampFonts {
  private helvetica?: PDFFont;
  private readonly embedded = new Map<number, PDFFont>();
  constructor(private readonly doc: PDFDocument) {}
  async standard(): Promise<PDFFont> {
    return (this.helvetica ??= await this.doc.embedFont(StandardFonts.Helvetica));
  }
  async of(f: StampFont): Promise<PDFFont> {
    return embedStampFont(this.doc, f, this.embedded);
  }
}

/** Whether Helvetica (WinAnsi) draws all of `text`: then no font is embedded at all. */
function winAnsi(font: PDFFont, text: string): boolean {
  try {
    font.encodeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A line of stamp text in any script, laid out for drawing.
 * - Latin-1 text is drawn in the standard Helvetica, as before (nothing embedded).
 * - Other text is split into runs by font (the first stamp font with the glyph; spaces, digits and
 *   punctuation follow their neighbours) and by bidi embedding level (Unicode Bidirectional
 *   Algorithm, bidi-js); runs are put in visual order (rule L2).
 * - Each run is shaped by fontkit through pdf-lib (Arabic joining forms and ligatures, Devanagari
 *   conjuncts and vowel-sign reordering, as far as fontkit's shapers go). fontkit lays out a run in
 *   an Arabic or Hebrew script right to left itself; a right-to-left run of neutral characters only
 *   is reversed here, with mirrored brackets.
 */
export class StampText {
  private constructor(
    private readonly runs: Run[],
    readonly width: number,
    readonly height: number,
    /** The size `width` and `height` are measured at. */
    readonly size: number,
  ) {}

  static async build(fonts: StampFonts, text: string, size: number, argument: string): Promise<StampText> {
    const helvetica = await fonts.standard();
    if (winAnsi(helvetica, text)) {
      return new StampText(
        [{ text, font: helvetica, width: helvetica.widthOfTextAtSize(text, size) }],
        helvetica.widthOfTextAtSize(text, size),
        helvetica.heightAtSize(size, { descender: false }),
        size,
      );
    }
    const chars = [...text];
    // Font per character: the first font with the glyph; neutral characters take a neighbour's font when it has them.
    const fontOf: (StampFont | undefined)[] = chars.map((c) =>
      isNeutral(c.codePointAt(0)!) ? undefined : fontFor(c.codePointAt(0)!, argument),
    );
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < chars.length; i++) {
        if (fontOf[i]) continue;
        const cp = chars[i].codePointAt(0)!;
        const near = pass === 0 ? fontOf[i - 1] : fontOf[i + 1];
        if (near?.has(cp)) fontOf[i] = near;
      }
    }
    for (let i = 0; i < chars.length; i++) fontOf[i] ??= fontFor(chars[i].codePointAt(0)!, argument);
    // Bidi levels are per UTF-16 unit: map them to characters.
    const { levels } = bidi.getEmbeddingLevels(text);
    const levelOf: number[] = [];
    for (let i = 0, u = 0; i < chars.length; u += chars[i].length, i++) levelOf.push(levels[u]);
    // Runs of one font and one level, in logical order.
    const logical: { chars: string[]; font: StampFont; level: number }[] = [];
    chars.forEach((c, i) => {
      const last = logical[logical.length - 1];
      if (last && last.font === fontOf[i] && last.level === levelOf[i]) last.chars.push(c);
      else logical.push({ chars: [c], font: fontOf[i]!, level: levelOf[i] });
    });
    // L2: from the highest level down to the lowest odd one, reverse every sequence of runs at that level or above.
    const order = logical.map((_, i) => i);
    const max = Math.max(...logical.map((r) => r.level));
    const minOdd = Math.min(...logical.map((r) => (r.level % 2 ? r.level : r.level + 1)));
    for (let level = max; level >= minOdd; level--) {
      for (let i = 0; i < order.length;) {
        if (logical[order[i]].level < level) {
          i++;
          continue;
        }
        let j = i;
        while (j < order.length && logical[order[j]].level >= level) j++;
        order.splice(i, j - i, ...order.slice(i, j).reverse());
        i = j;
      }
    }
    const runs: Run[] = [];
    let height = 0;
    for (const index of order) {
      const run = logical[index];
      const font = await fonts.of(run.font);
      let s = run.chars.join('');
      const strongRtl = run.chars.some((c) => ['R', 'AL'].includes(bidi.getBidiCharTypeName(c)));
      if (run.level % 2 === 1 && !strongRtl)
        s = [...run.chars]
          .reverse()
          .map((c) => bidi.getMirroredCharacter(c) ?? c)
          .join('');
      const width = font.widthOfTextAtSize(s, size);
      runs.push({ text: s, font, width });
      height = Math.max(height, font.heightAtSize(size, { descender: false }));
    }
    return new StampText(
      runs,
      runs.reduce((w, r) => w + r.width, 0),
      height,
      size,
    );
  }

  /**
   * Draws the line with its start at (x, y), turned by `rotate` degrees, at `style.size` (the runs'
   * widths scale with it when it is not the size the line was built at).
   */
  draw(
    page: PDFPage,
    at: { x: number; y: number; rotate: number },
    style: { size: number; color: Color; opacity?: number },
  ): void {
    const a = (at.rotate * Math.PI) / 180;
    const scale = style.size / this.size;
    let dx = 0;
    for (const run of this.runs) {
      page.drawText(run.text, {
        x: at.x + dx * Math.cos(a),
        y: at.y + dx * Math.sin(a),
        size: style.size,
        font: run.font,
        color: style.color,
        opacity: style.opacity,
        rotate: degrees(at.rotate),
      });
      dx += run.width * scale;
    }
  }
}
