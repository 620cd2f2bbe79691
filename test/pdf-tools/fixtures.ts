import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

/**
 * Generated inputs shared by the PDF tests and bench/pdf: no binary fixtures in the repository.
 */

/** A photo-like JPEG (gradients and a pattern, lightly blurred): compresses like a real photo. */
export async function photoJpeg(size: number, variant = 0, quality = 95): Promise<Buffer> {
  const raw = Buffer.alloc(size * size * 3);
  for (let p = 0; p < raw.length; p += 3) {
    const x = (p / 3) % size;
    const y = Math.floor(p / 3 / size);
    raw[p] = (x * 255) / size;
    raw[p + 1] = (y * 255) / size;
    raw[p + 2] = ((x ^ y) + variant * 37) & 255; // 37: distinct for 256 variants
  }
  return sharp(raw, { raw: { width: size, height: size, channels: 3 } })
    .blur(1.2)
    .jpeg({ quality })
    .toBuffer();
}

/** A PDF whose A4 pages each show a different size x size photo, drawn 523 pt (7.3 in) wide. */
export async function imagePdf(pages: number, size = 1600, quality = 95): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const img = await doc.embedJpg(await photoJpeg(size, i, quality));
    doc.addPage([595, 842]).drawImage(img, { x: 36, y: 200, width: 523, height: 523 });
  }
  return doc.save();
}

/**
 * A PDF of `pages` full A4 pages, each showing one size x size photo made distinct by a JPEG comment
 * (so compress_pdf cannot merge them as duplicates) and each worth re-encoding: lossy compression has
 * a lot of real work to do, while building it costs one JPEG.
 */
export async function photoPagesPdf(pages: number, size = 1200, quality = 75): Promise<Uint8Array> {
  const jpeg = await photoJpeg(size, 0, quality);
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const note = Buffer.from(`page ${i + 1}`);
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, note.length + 2]), note]); // COM segment
    const img = await doc.embedJpg(Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]));
    doc.addPage([595, 842]).drawImage(img, { x: 0, y: 0, width: 595, height: 842 });
  }
  return doc.save();
}

/** A text PDF of `pages` A4 pages with `lines` lines each ("Page i of <name>" first). */
export async function linesPdf(pages: number, lines: number, name = 'doc'): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Page ${i} of ${name}`, { x: 72, y: 760, size: 18, font });
    for (let line = 1; line < lines; line++) {
      page.drawText(`Page ${i}, line ${line}: the quick brown fox jumps over the lazy dog ${i * line}.`, {
        x: 50,
        y: 740 - line * 15,
        size: 10,
        font,
      });
    }
  }
  return doc;
}
