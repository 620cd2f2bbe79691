import { createRequire } from 'node:module';
import { resourceLimits } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';
import type { Limits } from './limits';
import { ToolFailure } from './tool-failure';
import { fileSize } from '../../common/text/file-size';

/**
 * Output caps for every decompression in the PDF engine (deflate bombs, issue #9).
 *
 * Decoded buffers live outside the V8 heap, so the worker's heap cap (PDF_WORKER_HEAP_MB) does not
 * bound them: a 2 MB stream can inflate to gigabytes. Every stream we decode (zlib's
 * `maxOutputLength`) and every stream pdf-lib decodes itself (object and cross-reference streams,
 * through its DecodeStream buffers) is cut off at one per-stream cap derived from the limits.
 */

/** Floor of the per-stream cap, so small file limits (tests) still decode ordinary pages. */
const MIN_CAP = 16 * 1024 * 1024;

/**
 * Largest decoded size of one stream: 8 x the file-size limit (80 MB at the default 10 MB), and
 * never more than a quarter of the worker's heap cap (so a decoded stream plus what is built from
 * it stays within what a run may hold).
 */
export function decodedStreamCap(
  limits: Pick<Limits, 'maxBytes'>,
  heapMb = resourceLimits.maxOldGenerationSizeMb,
): number {
  const byFile = Math.max(MIN_CAP, 8 * limits.maxBytes);
  const byHeap = heapMb && heapMb > 0 ? Math.max(MIN_CAP, Math.floor((heapMb * 1024 * 1024) / 4)) : Infinity;
  return Math.min(byFile, byHeap);
}

/** A stream decoded past its cap. */
export class DecodeLimitExceeded extends Error {
  constructor(readonly cap: number) {
    super(`a compressed stream expands beyond ${cap} bytes`);
    this.name = 'DecodeLimitExceeded';
  }
}

/** inflateSync that never produces more than `cap` bytes: throws {@link DecodeLimitExceeded} instead. */
export function inflateCapped(data: Uint8Array, cap: number): Buffer {
  try {
    return inflateSync(data, { maxOutputLength: cap });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new DecodeLimitExceeded(cap);
    throw e;
  }
}

let currentCap = Infinity;
let tripped: DecodeLimitExceeded | undefined;
let installed = false;

/**
 * Sets the cap pdf-lib's own decoders obey from now on in this thread (one run at a time per
 * worker) and forgets an earlier trip. Installs the guard on first use: pdf-lib's DecodeStream
 * (Flate, LZW, RunLength, ASCII85, ASCIIHex) grows its buffer through `ensureBuffer`; a request
 * beyond the cap throws and is remembered, since pdf-lib's parser swallows errors of single objects.
 */
export function guardPdfLibDecoding(cap: number): void {
  currentCap = cap;
  tripped = undefined;
  if (installed) return;
  installed = true;
  const require = createRequire(__filename);
  const mod = require('pdf-lib/cjs/core/streams/DecodeStream') as {
    default: { prototype: { ensureBuffer(requested: number): Uint8Array } };
  };
  const proto = mod.default.prototype;
  const original = proto.ensureBuffer;
  proto.ensureBuffer = function ensureBuffer(this: unknown, requested: number): Uint8Array {
    if (requested > currentCap) {
      tripped = new DecodeLimitExceeded(currentCap);
      throw tripped;
    }
    return original.call(this, requested);
  };
}

/** The cap pdf-lib's own decoders obey now in this thread (Infinity before any {@link guardPdfLibDecoding}). */
export function pdfLibDecodeCap(): number {
  return currentCap;
}

/** The trip recorded since the last {@link guardPdfLibDecoding}, if any. */
export function decodeTripped(): DecodeLimitExceeded | undefined {
  return tripped;
}

/** The tool failure for a decompression bomb in input `label`. */
export function bombFailure(label: string | undefined, cap: number): ToolFailure {
  const who = label ?? 'An input';
  return new ToolFailure(
    'file_too_large',
    `${who} has a compressed stream that expands beyond ${fileSize(cap)} when decompressed (a decompression bomb, or far more content than a PDF of the size limit holds); it was not processed.`,
    { ...(label ? { input: label } : {}), reason: 'decompressed_stream_too_large', decoded_limit: cap },
  );
}

/**
 * Bytes a PNG decodes to in pdf-lib (8-bit RGBA pixels, plus its filtered rows at up to 16 bits
 * per channel), from its IHDR alone; undefined when the header is unreadable.
 */
export function pngDecodedSize(bytes: Uint8Array): number | undefined {
  if (bytes.length < 33) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (!width || !height) return undefined;
  return width * height * 4 + height * (width * 8 + 1);
}
