import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';
import { imagePdf, linesPdf } from '../../../test/pdf-tools/fixtures';
import { deflateStream, speedUpPdfLib } from './pdf-lib-speed';

/**
 * The same work (load, copy every page into a new document twice, save) in a plain Node process
 * with pdf-lib as published, and here with the speed-ups: the saved bytes must not differ.
 */
const COPY_TWICE = `
  const { PDFDocument } = require('pdf-lib');
  const fs = require('fs');
  (async () => {
    const src = await PDFDocument.load(fs.readFileSync(process.argv[1]), { updateMetadata: false });
    const out = await PDFDocument.create({ updateMetadata: false });
    for (let n = 0; n < 2; n++) for (const p of await out.copyPages(src, src.getPageIndices())) out.addPage(p);
    fs.writeFileSync(process.argv[2], await out.save({ useObjectStreams: process.argv[3] === 'true' }));
  })();
`;

async function copyTwice(bytes: Uint8Array, objectStreams: boolean): Promise<Uint8Array> {
  const src = await PDFDocument.load(bytes, { updateMetadata: false });
  const out = await PDFDocument.create({ updateMetadata: false });
  for (let n = 0; n < 2; n++) for (const p of await out.copyPages(src, src.getPageIndices())) out.addPage(p);
  return out.save({ useObjectStreams: objectStreams });
}

/** `doc` saved with object streams, the last byte of its first object stream's zlib checksum changed. */
async function damagedChecksum(doc: PDFDocument): Promise<Uint8Array> {
  const bytes = await doc.save({ useObjectStreams: true });
  const m = /\/Type \/ObjStm[^]*?stream\n/.exec(Buffer.from(bytes).toString('latin1'))!;
  const length = Number(/\/Length (\d+)/.exec(m[0])![1]);
  const last = m.index + m[0].length + length - 1;
  bytes[last] ^= 0xff;
  expect(() => inflateSync(bytes.subarray(last + 1 - length, last + 1))).toThrow();
  return bytes;
}

/** A one-page PDF whose catalog also maps each key of `names` to its value, both as names. */
async function withCatalogNames(names: Record<string, string>): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([100, 100]);
  for (const [key, value] of Object.entries(names)) doc.catalog.set(PDFName.of(key), PDFName.of(value));
  return doc.save({ useObjectStreams: false });
}

describe('pdf-lib speed-ups', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pdf-lib-speed-'));
    speedUpPdfLib();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** What pdf-lib as published saves for `input` (in its own process: no speed-ups there). */
  function published(input: Uint8Array, objectStreams: boolean): Uint8Array {
    writeFileSync(join(dir, 'in.pdf'), input);
    execFileSync(
      process.execPath,
      ['-e', COPY_TWICE, join(dir, 'in.pdf'), join(dir, 'out.pdf'), String(objectStreams)],
      { cwd: process.cwd() },
    );
    return new Uint8Array(readFileSync(join(dir, 'out.pdf')));
  }

  it.each([
    ['image', () => imagePdf(3, 300, 80)],
    ['text', async () => (await linesPdf(3, 20)).save({ useObjectStreams: false })],
    // Object streams: inflated by Node's zlib when loading.
    ['text with object streams', async () => (await linesPdf(3, 20)).save({ useObjectStreams: true })],
    // An object stream whose zlib checksum is wrong: zlib refuses it, pdf-lib's own inflater reads it.
    ['text with a damaged object stream checksum', async () => damagedChecksum(await linesPdf(3, 20))],
  ])('copying pages of a %s PDF and saving it gives the same bytes as pdf-lib as published', async (_, make) => {
    const input = await make();
    const ours = await copyTwice(input, false);
    expect(Buffer.from(ours).equals(Buffer.from(published(input, false)))).toBe(true);
  });

  it('names with # escapes and unusual characters parse and save as pdf-lib as published does them', async () => {
    const input = await withCatalogNames({ 'Beacon Key': 'Ünïcode#Name(1)', Plain: 'Value' });
    expect(Buffer.from(input).toString('latin1')).toMatch(/\/Beacon#20Key/);
    const reloaded = await PDFDocument.load(input, { updateMetadata: false });
    expect(reloaded.catalog.get(PDFName.of('Beacon Key'))).toBe(PDFName.of('Ünïcode#Name(1)'));
    const ours = await copyTwice(input, false);
    expect(Buffer.from(ours).equals(Buffer.from(published(input, false)))).toBe(true);
  });

  it('names whose bytes hash alike stay different names, and each is the same instance every time', async () => {
    // "Aa" and "BB" have the same hash (31 x 65 + 97 = 31 x 66 + 66).
    const input = await withCatalogNames({ First: 'Aa', Second: 'BB' });
    for (let n = 0; n < 2; n++) {
      const reloaded = await PDFDocument.load(input, { updateMetadata: false });
      expect(reloaded.catalog.get(PDFName.of('First'))).toBe(PDFName.of('Aa'));
      expect(reloaded.catalog.get(PDFName.of('Second'))).toBe(PDFName.of('BB'));
    }
  });

  it("object streams compressed by Node's zlib hold the same objects as pako's", async () => {
    const input = await (await linesPdf(5, 20)).save({ useObjectStreams: false });
    const ours = await copyTwice(input, true);
    const theirs = published(input, true);
    // Each side's object streams, inflated, are the same bytes.
    const inflated = (pdf: Uint8Array) => {
      const text = Buffer.from(pdf).toString('latin1');
      return [...text.matchAll(/\/Type \/ObjStm[^]*?stream\n/g)].map((m) => {
        const length = Number(/\/Length (\d+)/.exec(m[0])![1]);
        const start = m.index + m[0].length;
        return inflateSync(Buffer.from(pdf.subarray(start, start + length))).toString('latin1');
      });
    };
    expect(inflated(ours).length).toBeGreaterThan(0);
    expect(inflated(ours)).toEqual(inflated(theirs));
    // And the file reads back: every page, the same text.
    const reread = await PDFDocument.load(ours);
    expect(reread.getPageCount()).toBe(10);
    writeFileSync(join(dir, 'ours.pdf'), ours);
    expect(execFileSync('qpdf', ['--check', join(dir, 'ours.pdf')]).toString()).toMatch(
      /No syntax or stream encoding errors/,
    );
  });

  it("small streams deflated with a small window are the bytes of zlib's default deflate", async () => {
    // PDF syntax (repetitive), random bytes (incompressible) and a mix, at every window's edges.
    const text = Buffer.from(await (await linesPdf(40, 20)).save({ useObjectStreams: false }));
    const noise = randomBytes(40_000);
    const mixed = Buffer.concat([text.subarray(0, 20_000), noise.subarray(0, 20_000)]);
    const edges = [9, 10, 11, 12, 13, 14, 15].flatMap((bits) => [-1, 0, 1].map((d) => (1 << bits) - 262 + d));
    const sizes = [0, 1, 2, 100, 1989, 16_000, 33_000, ...edges];
    let compared = 0;
    for (const source of [text, noise, mixed])
      for (const size of sizes)
        for (const at of [0, 7_777]) {
          const data = source.subarray(at, at + size);
          const ours = deflateStream(data);
          expect(Buffer.from(ours).equals(deflateSync(data))).toBe(true);
          expect(inflateSync(ours).equals(data)).toBe(true);
          compared++;
        }
    expect(compared).toBe(3 * sizes.length * 2);
  });

  it('a stream copied into another document shares bytes with its source, and the saved file does not', async () => {
    const input = await imagePdf(1, 200, 80);
    const saved = await copyTwice(input, false);
    // Changing the input afterwards does not reach the saved file (it holds its own copy).
    const snapshot = Buffer.from(saved);
    input.fill(0);
    expect(Buffer.from(saved).equals(snapshot)).toBe(true);
  });
});
