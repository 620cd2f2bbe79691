import { PDFDocument } from 'pdf-lib';
import { inflateSync } from 'node:zlib';

/** Text of a pdfkit PDF: inflated content streams, hex strings of TJ/Tj decoded (WinAnsi ~ latin1). */
export async function pdfText(buf: Buffer): Promise<{ pages: number; text: string; title?: string }> {
  const doc = await PDFDocument.load(buf);
  let text = '';
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    const o = obj as unknown as { contents?: Uint8Array; dict?: { toString(): string } };
    if (!o.contents || !o.dict?.toString().includes('FlateDecode')) continue;
    let raw: string;
    try {
      raw = inflateSync(Buffer.from(o.contents)).toString('latin1');
    } catch {
      continue;
    }
    for (const m of raw.matchAll(/\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const pieces = m[1] ? [...m[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((p) => p[1]) : [m[2]];
      text += pieces.map((h) => Buffer.from(h, 'hex').toString('latin1')).join('') + '\n';
    }
  }
  return { pages: doc.getPageCount(), text, title: doc.getTitle() };
}
