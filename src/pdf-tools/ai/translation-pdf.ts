import PDFDocument from 'pdfkit';
import { pdfkitOutput } from '../../common/pdf/pdfkit-output';
import { fontFor, isNeutral, StampFont } from '../core/fonts';
import type { PageText } from './pages';

/** A line of text cut into runs, each drawn in the first stamp font that has its characters. */
function runs(line: string): { font: StampFont | null; text: string }[] {
  const out: { font: StampFont | null; text: string }[] = [];
  for (const ch of line) {
    const cp = ch.codePointAt(0) ?? 32;
    let f: StampFont | null = null;
    if (!isNeutral(cp) || !out.length) {
      try {
        f = fontFor(cp, 'translation');
      } catch {
        f = null;
      }
    } else f = out[out.length - 1].font;
    const last = out[out.length - 1];
    if (last && (last.font?.index ?? -1) === (f?.index ?? -1)) last.text += ch;
    else if (last && isNeutral(cp)) last.text += ch;
    else out.push({ font: f, text: ch });
  }
  return out;
}

/**
 * The translation as a PDF (pdfkit): a title, then each source page's translation under
 * "Page N", in the Noto fonts the stamps use (any script they cover: Latin, Cyrillic, Greek,
 * Arabic, Hebrew, Devanagari, Chinese, Japanese, Korean). Characters no font has are drawn as the
 * font's missing glyph. Right-to-left lines are drawn in logical order (no bidi reordering).
 */
export async function translationPdf(title: string, pages: PageText[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: title, Producer: 'Beacon' },
    autoFirstPage: true,
  });
  const done = pdfkitOutput(doc);
  const registered = new Set<number>();
  const use = (f: StampFont | null): void => {
    if (!f) return void doc.font('Helvetica');
    if (!registered.has(f.index)) {
      doc.registerFont(`stamp-${f.index}`, Buffer.from(f.bytes));
      registered.add(f.index);
    }
    doc.font(`stamp-${f.index}`);
  };
  const write = (text: string, size: number): void => {
    doc.fontSize(size);
    for (const line of text.split('\n')) {
      const parts = runs(line);
      if (!parts.length) {
        doc.moveDown(0.5);
        continue;
      }
      parts.forEach((r, i) => {
        use(r.font);
        doc.text(r.text, { continued: i < parts.length - 1 });
      });
    }
  };
  write(title, 16);
  doc.moveDown();
  for (const p of pages) {
    write(`Page ${p.page}`, 13);
    doc.moveDown(0.3);
    write(p.text, 11);
    doc.moveDown();
  }
  doc.end();
  return done;
}
