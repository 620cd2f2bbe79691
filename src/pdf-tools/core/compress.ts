/**
 * Over 300 lines: the lossless passes (unused objects, duplicate streams, recompressed streams) and the lossy image
 * pass run in a fixed order on one document and count into one CompressionStats, which compress_pdf returns as is.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from 'pdf-lib';
import sharp from 'sharp';
import { inflateCapped } from './decode-limits';
import { imagePlacements, Placement } from './image-placement';

export const COMPRESSION_LEVELS = ['lossless', 'recommended', 'extreme'] as const;
export type CompressionLevel = (typeof COMPRESSION_LEVELS)[number];

/** Lossy settings: JPEG quality and the resolution images are downsampled to (at full-page size). */
const LOSSY: Record<Exclude<CompressionLevel, 'lossless'>, { quality: number; dpi: number }> = {
  recommended: { quality: 75, dpi: 150 },
  extreme: { quality: 50, dpi: 96 },
};

/** Images smaller than this are left alone: re-encoding them saves nothing worth the loss. */
const MIN_IMAGE_BYTES = 8 * 1024;

export interface CompressionStats {
  unused_objects_removed: number;
  duplicate_streams_removed: number;
  streams_recompressed: number;
  images_recompressed: number;
}

/**
 * Compresses `doc` in place. Every level: drops objects nothing refers to, merges identical
 * streams, deflates uncompressed streams and re-deflates Flate streams at level 9 when smaller
 * (object streams are written at save). Lossy levels also downsample and re-encode images as JPEG:
 * 8-bit RGB or grey images (DCT, or Flate with or without PNG predictors) without masks or Decode
 * arrays; CMYK, indexed, 1/16-bit, JBIG2/JPX/CCITT and small images are skipped, and an image is
 * replaced only when the new one is smaller.
 */
export async function compressDocument(
  doc: PDFDocument,
  level: CompressionLevel,
  decodeCap: number,
): Promise<CompressionStats> {
  const stats: CompressionStats = {
    unused_objects_removed: removeUnreachable(doc),
    duplicate_streams_removed: removeDuplicateStreams(doc),
    streams_recompressed: 0,
    images_recompressed: 0,
  };
  if (level !== 'lossless') stats.images_recompressed = await recompressImages(doc, LOSSY[level], decodeCap);
  stats.streams_recompressed = recompressStreams(doc, decodeCap);
  return stats;
}

function refsIn(obj: PDFObject | undefined, out: (ref: PDFRef) => void): void {
  if (obj instanceof PDFRef) out(obj);
  else if (obj instanceof PDFDict) for (const [, v] of obj.entries()) refsIn(v, out);
  else if (obj instanceof PDFArray) for (let i = 0; i < obj.size(); i++) refsIn(obj.get(i), out);
  else if (obj instanceof PDFStream) refsIn(obj.dict, out);
}

/** Deletes indirect objects not reachable from the trailer (left over by earlier edits). */
function removeUnreachable(doc: PDFDocument): number {
  const ctx = doc.context;
  const seen = new Set<string>();
  const stack: PDFRef[] = [];
  const visit = (ref: PDFRef): void => {
    const key = ref.toString();
    if (!seen.has(key)) {
      seen.add(key);
      stack.push(ref);
    }
  };
  for (const root of [ctx.trailerInfo.Root, ctx.trailerInfo.Info]) if (root instanceof PDFRef) visit(root);
  while (stack.length) refsIn(ctx.lookup(stack.pop()), visit);
  let removed = 0;
  for (const [ref] of ctx.enumerateIndirectObjects()) {
    if (!seen.has(ref.toString())) {
      ctx.delete(ref);
      removed++;
    }
  }
  return removed;
}

/** Points every reference to an identical stream at one copy and deletes the others. */
function removeDuplicateStreams(doc: PDFDocument): number {
  const ctx = doc.context;
  const firstByHash = new Map<string, PDFRef>();
  const replace = new Map<string, PDFRef>();
  for (const [ref, obj] of ctx.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream)) continue;
    const h = createHash('sha256').update(obj.dict.toString()).update(obj.contents).digest('hex');
    const first = firstByHash.get(h);
    if (first) replace.set(ref.toString(), first);
    else firstByHash.set(h, ref);
  }
  if (replace.size === 0) return 0;
  const swap = (obj: PDFObject | undefined): void => {
    if (obj instanceof PDFDict) {
      for (const [k, v] of obj.entries()) {
        const to = v instanceof PDFRef ? replace.get(v.toString()) : undefined;
        if (to) obj.set(k, to);
        else swap(v);
      }
    } else if (obj instanceof PDFArray) {
      for (let i = 0; i < obj.size(); i++) {
        const v = obj.get(i);
        const to = v instanceof PDFRef ? replace.get(v.toString()) : undefined;
        if (to) obj.set(i, to);
        else swap(v);
      }
    } else if (obj instanceof PDFStream) swap(obj.dict);
  };
  for (const [, obj] of ctx.enumerateIndirectObjects()) swap(obj);
  for (const [ref] of ctx.enumerateIndirectObjects()) if (replace.has(ref.toString())) ctx.delete(ref);
  return replace.size;
}

function filterNames(dict: PDFDict): string[] | undefined {
  const f = dict.lookup(PDFName.of('Filter'));
  if (f === undefined) return [];
  if (f instanceof PDFName) return [f.decodeText()];
  if (f instanceof PDFArray) {
    const names: string[] = [];
    for (let i = 0; i < f.size(); i++) {
      const n = f.lookup(i);
      if (!(n instanceof PDFName)) return undefined;
      names.push(n.decodeText());
    }
    return names;
  }
  return undefined;
}

function setContents(doc: PDFDocument, ref: PDFRef, dict: PDFDict, contents: Uint8Array): void {
  dict.set(PDFName.of('Length'), PDFNumber.of(contents.length));
  doc.context.assign(ref, PDFRawStream.of(dict, contents));
}

/**
 * Deflates unfiltered streams; re-deflates plain Flate streams at level 9; keeps whichever is smaller.
 * A stream that inflates beyond `decodeCap` (a deflate bomb) is left as it is.
 */
function recompressStreams(doc: PDFDocument, decodeCap: number): number {
  let changed = 0;
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream) || obj.contents.length < 64) continue;
    const dict = obj.dict;
    const filters = filterNames(dict);
    if (!filters || dict.has(PDFName.of('DecodeParms'))) continue;
    let raw: Uint8Array;
    if (filters.length === 0) raw = obj.contents;
    else if (filters.length === 1 && filters[0] === 'FlateDecode') {
      try {
        raw = inflateCapped(obj.contents, decodeCap);
      } catch {
        continue; // damaged, or over the cap: kept as it is
      }
    } else continue;
    const packed = deflateSync(raw, { level: 9 });
    if (packed.length < obj.contents.length) {
      const d = dict.clone();
      d.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
      setContents(doc, ref, d, packed);
      changed++;
    }
  }
  return changed;
}

function channelsOf(dict: PDFDict): number | undefined {
  const cs = dict.lookup(PDFName.of('ColorSpace'));
  if (cs === PDFName.of('DeviceRGB')) return 3;
  if (cs === PDFName.of('DeviceGray')) return 1;
  if (cs instanceof PDFArray && cs.lookup(0) === PDFName.of('ICCBased')) {
    const profile = cs.lookup(1);
    const n = profile instanceof PDFStream ? profile.dict.lookup(PDFName.of('N')) : undefined;
    if (n instanceof PDFNumber && (n.asNumber() === 1 || n.asNumber() === 3)) return n.asNumber();
  }
  return undefined;
}

function num(dict: PDFDict, key: string): number | undefined {
  const v = dict.lookup(PDFName.of(key));
  return v instanceof PDFNumber ? v.asNumber() : undefined;
}

/** Reverses PNG row predictors (Predictor >= 10) of Flate image data. */
export function undoPngPredictor(data: Uint8Array, width: number, channels: number): Uint8Array | undefined {
  const rowBytes = width * channels;
  const rows = Math.floor(data.length / (rowBytes + 1));
  const out = new Uint8Array(rows * rowBytes);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowBytes + 1)];
    const src = r * (rowBytes + 1) + 1;
    const dst = r * rowBytes;
    for (let i = 0; i < rowBytes; i++) {
      const x = data[src + i];
      const a = i >= channels ? out[dst + i - channels] : 0;
      const b = r > 0 ? out[dst - rowBytes + i] : 0;
      const c = r > 0 && i >= channels ? out[dst - rowBytes + i - channels] : 0;
      let v: number;
      switch (type) {
        case 0:
          v = x;
          break;
        case 1:
          v = x + a;
          break;
        case 2:
          v = x + b;
          break;
        case 3:
          v = x + ((a + b) >> 1);
          break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
          break;
        }
        default:
          return undefined;
      }
      out[dst + i] = v & 255;
    }
  }
  return out;
}

/**
 * Pixel size for an image: its displayed size at `dpi` when known (keeping the aspect ratio and the
 * larger of the two scale factors), else the largest page at `dpi` as an upper bound.
 */
export function targetSize(
  width: number,
  height: number,
  placed: Placement | undefined,
  dpi: number,
  pagePx: number,
): { width: number; height: number; fit: 'inside' | 'fill'; withoutEnlargement?: boolean } {
  if (!placed || placed.width <= 0 || placed.height <= 0)
    return { width: pagePx, height: pagePx, fit: 'inside', withoutEnlargement: true };
  const scale = Math.min(1, Math.max(((placed.width / 72) * dpi) / width, ((placed.height / 72) * dpi) / height));
  return {
    width: Math.max(16, Math.round(width * scale)),
    height: Math.max(16, Math.round(height * scale)),
    fit: 'fill',
  };
}

/**
 * Re-encodes images. Flate data is inflated only up to the image's own raw size (rows with their
 * predictor byte) and never beyond `decodeCap`; JPEGs are decoded by sharp only below the same
 * number of pixels: an image over either is left as it is.
 */
async function recompressImages(
  doc: PDFDocument,
  opts: { quality: number; dpi: number },
  decodeCap: number,
): Promise<number> {
  const maxSide = Math.max(...doc.getPages().map((p) => Math.max(p.getWidth(), p.getHeight())));
  const pagePx = Math.max(16, Math.ceil((maxSide / 72) * opts.dpi));
  const placements = imagePlacements(doc, decodeCap);
  let changed = 0;
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream) || obj.contents.length < MIN_IMAGE_BYTES) continue;
    const dict = obj.dict;
    if (dict.lookup(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    if (['SMask', 'Mask', 'Decode', 'SMaskInData'].some((k) => dict.has(PDFName.of(k)))) continue;
    if (dict.lookup(PDFName.of('ImageMask'))?.toString() === 'true') continue;
    const width = num(dict, 'Width');
    const height = num(dict, 'Height');
    const channels = channelsOf(dict);
    const filters = filterNames(dict);
    if (!width || !height || !channels || num(dict, 'BitsPerComponent') !== 8 || !filters || filters.length !== 1)
      continue;
    const rawSize = height * (width * channels + 1);
    if (rawSize > decodeCap) continue;
    let image: ReturnType<typeof sharp>;
    try {
      if (filters[0] === 'DCTDecode') {
        image = sharp(obj.contents, { failOn: 'error', limitInputPixels: Math.max(1, Math.floor(decodeCap / 3)) });
      } else if (filters[0] === 'FlateDecode') {
        // Rows of PNG-predicted data carry one more byte; anything longer is not this image's data.
        let raw: Uint8Array | undefined = inflateCapped(obj.contents, rawSize);
        const parms = dict.lookupMaybe(PDFName.of('DecodeParms'), PDFDict);
        const predictor = parms ? (num(parms, 'Predictor') ?? 1) : 1;
        if (predictor >= 10) raw = undoPngPredictor(raw, width, channels);
        else if (predictor !== 1) continue;
        if (!raw || raw.length < width * height * channels) continue;
        image = sharp(raw.subarray(0, width * height * channels), {
          raw: { width, height, channels: channels as 1 | 3 },
        });
      } else continue;
      image = image.resize(targetSize(width, height, placements.get(ref.toString()), opts.dpi, pagePx));
      if (channels === 1) image = image.toColourspace('b-w');
      const { data, info } = await image
        .jpeg({ quality: opts.quality, mozjpeg: true })
        .toBuffer({ resolveWithObject: true });
      if (data.length >= obj.contents.length * 0.95 || info.channels !== channels) continue;
      const d = dict.clone();
      d.set(PDFName.of('Filter'), PDFName.of('DCTDecode'));
      d.delete(PDFName.of('DecodeParms'));
      d.set(PDFName.of('Width'), PDFNumber.of(info.width));
      d.set(PDFName.of('Height'), PDFNumber.of(info.height));
      setContents(doc, ref, d, new Uint8Array(data));
      changed++;
    } catch {
      continue; // an image sharp cannot read stays as it is
    }
  }
  return changed;
}
