import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import { photoJpeg } from '../../../test/pdf-tools/fixtures';
import { compressDocument } from './compress';
import { imagePlacements, scanDraws } from './image-placement';

const photo = (size: number): Promise<Buffer> => photoJpeg(size);

/** Tools work on loaded documents (pdf-lib embeds images and writes content streams at save). */
const reload = async (doc: PDFDocument): Promise<PDFDocument> =>
  PDFDocument.load(await doc.save({ useObjectStreams: false }));

function imageWidths(doc: PDFDocument): number[] {
  const widths: number[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (obj instanceof PDFRawStream && obj.dict.lookup(PDFName.of('Subtype')) === PDFName.of('Image')) {
      widths.push((obj.dict.lookup(PDFName.of('Width')) as PDFNumber).asNumber());
    }
  }
  return widths.sort((a, b) => a - b);
}

describe('image placement', () => {
  it('follows q/Q/cm to the displayed size of each Do, skipping strings and inline images', () => {
    const seen: [string, number, number][] = [];
    const content = Buffer.from(
      'q 2 0 0 2 0 0 cm (a ) cm string \\) ( nested ) ) Tj q 100 0 0 50 10 10 cm /Im1 Do Q <414243> Tj ' +
        'BI /W 1 /H 1 ID \x00\xff EI q 0 30 -20 0 0 0 cm /Im2 Do Q Q /Im3 Do',
      'latin1',
    );
    scanDraws(content, (name, m) => seen.push([name, Math.hypot(m[0], m[1]), Math.hypot(m[2], m[3])]));
    expect(seen).toEqual([
      ['Im1', 200, 100],
      ['Im2', 60, 40],
      ['Im3', 1, 1],
    ]);
  });

  it('finds the largest size each image is drawn at in a pdf-lib document', async () => {
    const doc = await PDFDocument.create();
    const img = await doc.embedJpg(await photo(64));
    doc.addPage([600, 800]).drawImage(img, { x: 10, y: 10, width: 144, height: 72 });
    doc.addPage([600, 800]).drawImage(img, { x: 10, y: 10, width: 72, height: 288 });
    const sizes = [...imagePlacements(await reload(doc), 64 * 1024 * 1024).values()];
    expect(sizes).toHaveLength(1);
    expect(sizes[0].width).toBeCloseTo(144);
    expect(sizes[0].height).toBeCloseTo(288);
  });
});

describe('compressDocument', () => {
  it("downsamples an image to its displayed size at the level's dpi", async () => {
    const doc = await PDFDocument.create();
    const img = await doc.embedJpg(await photo(1600));
    doc.addPage([595, 842]).drawImage(img, { x: 72, y: 72, width: 144, height: 144 }); // 2 inches
    const loaded = await reload(doc);
    const stats = await compressDocument(loaded, 'recommended', 64 * 1024 * 1024);
    expect(stats.images_recompressed).toBe(1);
    expect(imageWidths(loaded)).toEqual([300]); // 2 in x 150 dpi
  });

  it('falls back to the page size when the placement is unknown, and never upsamples', async () => {
    const doc = await PDFDocument.create();
    const big = await doc.embedJpg(await photo(2400));
    const page = doc.addPage([595, 842]);
    // drawn inside a form XObject: not followed
    const form = doc.context.register(
      doc.context.stream('q 500 0 0 500 0 0 cm /I Do Q', {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 595, 842],
        Resources: { XObject: { I: big.ref } },
      }),
    );
    page.node.newXObject('F', form);
    const loaded = await reload(doc);
    const stats = await compressDocument(loaded, 'extreme', 64 * 1024 * 1024);
    expect(stats.images_recompressed).toBe(1);
    expect(imageWidths(loaded)).toEqual([Math.ceil((842 / 72) * 96)]);
  });

  it('merges identical streams and drops unreachable objects', async () => {
    const doc = await PDFDocument.create();
    const jpg = await photo(200);
    const a = await doc.embedJpg(jpg);
    const b = await doc.embedJpg(jpg);
    const page = doc.addPage();
    page.drawImage(a, { x: 0, y: 0, width: 100, height: 100 });
    page.drawImage(b, { x: 100, y: 0, width: 100, height: 100 });
    doc.context.register(doc.context.obj({ Orphan: true }));
    const loaded = await reload(doc);
    expect(imageWidths(loaded)).toEqual([200, 200]);
    const stats = await compressDocument(loaded, 'lossless', 64 * 1024 * 1024);
    expect(stats.duplicate_streams_removed).toBe(1);
    expect(stats.unused_objects_removed).toBeGreaterThanOrEqual(1);
    expect(imageWidths(loaded)).toEqual([200]);
  });
});
