/** The standard PDF fonts encode WinAnsi only: anything else becomes '?'. */
export function winAnsi(s: string): string {
  return s.replace(/[^\t\n\r\x20-\x7e\xa0-\xff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, '?');
}

/** Text styles of the audit PDF. */
const STYLES = {
  h1: { font: 'Helvetica-Bold', size: 26 },
  h2: { font: 'Helvetica-Bold', size: 16 },
  h3: { font: 'Helvetica-Bold', size: 12 },
  body: { font: 'Helvetica', size: 12 },
  small: { font: 'Helvetica', size: 10 },
  code: { font: 'Courier', size: 8 },
  note: { font: 'Helvetica-Oblique', size: 12 },
  score: { font: 'Helvetica-Bold', size: 48 },
} as const;
export type Style = keyof typeof STYLES;

const TEXT_COLOUR = '#1a1a1a';

export interface TextStyle {
  style?: Style;
  colour?: string;
  indent?: number;
}

export interface FigureOptions {
  /** From the left margin. */
  x?: number;
  /** Largest width and height (points). */
  fit: [number, number];
  /** Below this height left on the page, the figure goes to the next page even if it could be shrunk to fit. */
  minHeight?: number;
}

/** What a list item can hold. */
export interface ListItem {
  text(s: string, o?: TextStyle): void;
  figure(png: Buffer, alt: string, o: FigureOptions): { top: number; height: number };
}

/** PNG width and height from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Writes a tagged PDF (PDF/UA-style logical structure) with pdfkit: every piece of content is
 * inside a structure element of the document (headings H1-H3, paragraphs P, lists L/LI/LBody,
 * figures with alternative text), page furniture is an artifact. Text flows down the page; a
 * figure is placed at the current position with its real size and the position moves below it,
 * so nothing drawn next can overlap it.
 */
export class TaggedPdfWriter {
  private readonly root: PDFKit.PDFStructureElement;

  constructor(readonly doc: PDFKit.PDFDocument) {
    this.root = doc.struct('Document');
    doc.addStructure(this.root);
  }

  /** Bottom of the writable area of the current page. */
  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  private style(style: Style, colour = TEXT_COLOUR): void {
    this.doc.font(STYLES[style].font).fontSize(STYLES[style].size).fillColor(colour);
  }

  private add(
    type: string,
    draw: () => void,
    options: PDFKit.Mixins.StructureElementOptions = {},
    parent = this.root,
  ): void {
    parent.add(this.doc.struct(type, options, draw));
  }

  heading(level: 1 | 2 | 3, s: string, o: { before?: number; colour?: string } = {}): void {
    const style = level === 1 ? 'h1' : level === 2 ? 'h2' : 'h3';
    this.style(style, o.colour);
    if (o.before) this.doc.moveDown(o.before);
    // keep a heading with at least two lines of what follows
    if (this.doc.y + this.doc.heightOfString(winAnsi(s)) + 3 * STYLES.body.size > this.bottom) this.doc.addPage();
    this.add(`H${level}`, () => this.doc.text(winAnsi(s)));
    this.doc.moveDown(0.3);
  }

  para(s: string, o: TextStyle & { before?: number } = {}, parent = this.root, type = 'P'): void {
    this.style(o.style ?? 'body', o.colour);
    if (o.before) this.doc.moveDown(o.before);
    this.add(type, () => this.doc.text(winAnsi(s), { indent: o.indent }), {}, parent);
  }

  /** A list: one LI per item; `draw` fills it with text (LBody) and figures. */
  list<T>(items: readonly T[], draw: (item: T, into: ListItem) => void): void {
    const l = this.doc.struct('L');
    this.root.add(l);
    for (const item of items) {
      const li = this.doc.struct('LI');
      l.add(li);
      draw(item, {
        text: (s, o = {}) => this.para(s, { indent: 12, ...o }, li, 'LBody'),
        figure: (png, alt, o) => this.figure(png, alt, o, li),
      });
      li.end();
    }
    l.end();
  }

  /** Simple text lines as a list. */
  lines(items: readonly string[], o: TextStyle = {}): void {
    this.list(items, (s, li) => li.text(s, o));
  }

  /**
   * A figure with alternative text: the PNG at `x` (from the left margin), scaled down (never up)
   * to fit `fit`, on a new page when the rest of this one is shorter than the figure (or than
   * `minHeight`). The position moves below it. Returns where it was drawn.
   */
  figure(png: Buffer, alt: string, o: FigureOptions, parent = this.root): { top: number; height: number } {
    const { width, height } = pngSize(png);
    const avail = (): number => this.bottom - this.doc.y - 8;
    const [fw, fh] = o.fit;
    if (avail() < Math.min(fh, height, o.minHeight ?? Infinity)) this.doc.addPage();
    const scale = Math.min(1, fw / width, Math.min(fh, avail()) / height);
    const w = width * scale;
    const h = height * scale;
    const top = this.doc.y + 2;
    this.add(
      'Figure',
      () => this.doc.image(png, this.doc.page.margins.left + (o.x ?? 0), top, { width: w, height: h }),
      { alt: winAnsi(alt) },
      parent,
    );
    this.doc.x = this.doc.page.margins.left;
    this.doc.y = top + h + 6;
    return { top, height: h };
  }

  /** "Page n of m" on every page, as pagination artifacts (not part of the document's content). */
  pageNumbers(): void {
    const doc = this.doc;
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc.font('Helvetica').fontSize(9).fillColor('#555555');
      doc.markContent('Artifact', { type: 'Pagination' });
      doc.text(`Page ${i + 1} of ${range.count}`, doc.page.margins.left, doc.page.height - 36, {
        width: doc.page.width - doc.page.margins.left - doc.page.margins.right,
        align: 'center',
        lineBreak: false,
      });
      doc.endMarkedContent();
      doc.page.margins.bottom = bottom;
    }
  }

  end(): void {
    this.root.end();
  }
}
