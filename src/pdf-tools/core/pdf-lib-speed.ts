import { createRequire } from 'node:module';
import { kMaxLength } from 'node:buffer';
import { deflateSync, inflateSync } from 'node:zlib';
import { pdfLibDecodeCap } from './decode-limits';

/** Names remembered by their bytes (see parseName below), at most. */
const MAX_SEEN_NAMES = 65_536;

let installed = false;

/**
 * Faster parsing and byte moves in pdf-lib 1.17 (unmaintained since 2021), same output bytes: a stream's
 * contents are copied into the saved file with one `set` instead of a loop byte by byte, a parsed
 * stream's contents are a view of the input instead of a copy, and a copied stream (copyPages
 * between documents) shares its contents instead of copying them. Contents of raw streams are
 * never written in place (pdf-lib and our tools replace a stream to change it), so sharing is
 * safe. Images make up most of a large PDF's bytes: for a 200-page, 4 MB image PDF merged with
 * itself this halves the time spent moving bytes (bench/pdf).
 */
export function speedUpPdfLib(): void {
  if (installed) return;
  installed = true;
  const require = createRequire(__filename);
  type Bytes = Uint8Array;
  const PDFStream = (
    require('pdf-lib/cjs/core/objects/PDFStream') as { default: { prototype: Record<string, unknown> } }
  ).default;
  const PDFRawStream = (
    require('pdf-lib/cjs/core/objects/PDFRawStream') as {
      default: { prototype: Record<string, unknown>; of(dict: unknown, contents: Bytes): unknown };
    }
  ).default;
  const ByteStream = (
    require('pdf-lib/cjs/core/parser/ByteStream') as { default: { prototype: Record<string, unknown> } }
  ).default;
  const STREAM = Uint8Array.from(Buffer.from('\nstream\n', 'latin1'));
  const ENDSTREAM = Uint8Array.from(Buffer.from('\nendstream', 'latin1'));
  PDFStream.prototype.copyBytesInto = function copyBytesInto(
    this: { updateDict(): void; dict: { copyBytesInto(b: Bytes, o: number): number }; getContents(): Bytes },
    buffer: Bytes,
    offset: number,
  ): number {
    this.updateDict();
    const start = offset;
    offset += this.dict.copyBytesInto(buffer, offset);
    buffer.set(STREAM, offset);
    offset += STREAM.length;
    const contents = this.getContents();
    buffer.set(contents, offset);
    offset += contents.length;
    buffer.set(ENDSTREAM, offset);
    offset += ENDSTREAM.length;
    return offset - start;
  };
  PDFRawStream.prototype.clone = function clone(
    this: { dict: { clone(context: unknown): unknown }; contents: Bytes },
    context: unknown,
  ) {
    return PDFRawStream.of(this.dict.clone(context), this.contents);
  };
  ByteStream.prototype.slice = function slice(this: { bytes: Bytes }, start: number, end: number): Bytes {
    return this.bytes.subarray(start, end);
  };
  // Parsing: a name is read as one latin1 slice of the input, not a string grown byte by byte
  // (ByteStream's column advances as next() would: names hold no newline), and a name without
  // '#' escapes skips pdf-lib's decoding regex (its instances stay pdf-lib's pooled ones).
  const PDFName = (require('pdf-lib/cjs/core/objects/PDFName') as { default: { of(name: string): unknown } }).default;
  const { IsWhitespace } = require('pdf-lib/cjs/core/syntax/Whitespace') as { IsWhitespace: Bytes };
  const { IsDelimiter } = require('pdf-lib/cjs/core/syntax/Delimiters') as { IsDelimiter: Bytes };
  const PDFObjectParser = (
    require('pdf-lib/cjs/core/parser/PDFObjectParser') as { default: { prototype: Record<string, unknown> } }
  ).default;
  const nameOf = PDFName.of.bind(PDFName);
  const plainNames = new Map<string, unknown>();
  PDFName.of = (name: string) => {
    if (name.includes('#')) return nameOf(name);
    let found = plainNames.get(name);
    if (found === undefined) plainNames.set(name, (found = nameOf(name)));
    return found;
  };
  // A name seen before is found by its bytes (a hash of them, then compared), without making its
  // string: a 200-page file holds thousands of the same few names. The same bytes always make the
  // same PDFName (pdf-lib pools them by their decoded value), so the cache never changes a result.
  const seenNames = new Map<number, { bytes: Bytes; name: unknown }[]>();
  let seenCount = 0;
  PDFObjectParser.prototype.parseName = function parseName(this: {
    bytes: { assertNext(c: number): void; bytes: Bytes; idx: number; column: number };
  }) {
    const stream = this.bytes;
    stream.assertNext(0x2f); // '/'
    const { bytes } = stream;
    const start = stream.idx;
    let end = start;
    let hash = 0;
    for (; end < bytes.length; end++) {
      const c = bytes[end];
      if (IsWhitespace[c] || IsDelimiter[c]) break;
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    stream.idx = end;
    const length = end - start;
    stream.column += length;
    const bucket = seenNames.get(hash);
    if (bucket)
      for (const seen of bucket) {
        if (seen.bytes.length !== length) continue;
        let i = 0;
        while (i < length && seen.bytes[i] === bytes[start + i]) i++;
        if (i === length) return seen.name;
      }
    const name = PDFName.of(Buffer.from(bytes.buffer, bytes.byteOffset + start, length).toString('latin1'));
    // Bounded, as a file could hold millions of distinct names; past the bound names are made as before.
    if (seenCount < MAX_SEEN_NAMES && length <= 127) {
      seenCount++;
      // A copy (Buffer's slice would be a view, keeping the whole input alive).
      const entry = { bytes: Uint8Array.prototype.slice.call(bytes, start, end), name };
      if (bucket) bucket.push(entry);
      else seenNames.set(hash, [entry]);
    }
    return name;
  };
  // A reference is found by its two numbers, not by the string pdf-lib makes of them for its pool
  // (the same instances: made by pdf-lib's own `of` the first time).
  const PDFRef = (require('pdf-lib/cjs/core/objects/PDFRef') as { default: { of(n: number, g?: number): unknown } })
    .default;
  const refOf = PDFRef.of.bind(PDFRef);
  const refs = new Map<number, unknown>();
  PDFRef.of = (objectNumber: number, generationNumber = 0) => {
    if (
      !Number.isInteger(objectNumber) ||
      !Number.isInteger(generationNumber) ||
      objectNumber < 0 ||
      objectNumber >= 2 ** 32 ||
      generationNumber < 0 ||
      generationNumber >= 2 ** 16
    )
      return refOf(objectNumber, generationNumber);
    const key = objectNumber * 2 ** 16 + generationNumber;
    let found = refs.get(key);
    if (found === undefined) refs.set(key, (found = refOf(objectNumber, generationNumber)));
    return found;
  };
  // Object and cross-reference streams: inflated by Node's zlib. Only when zlib inflates the whole
  // stream (a valid zlib stream, checksum included) within the decoding cap: pdf-lib's inflater gives
  // the same bytes for it. Anything else (damaged, truncated, a bomb, another filter) goes through
  // pdf-lib's own decoder as before, with its errors and its cap (decode-limits.ts).
  const ByteStreamClass = ByteStream as unknown as {
    of(bytes: Bytes): unknown;
    fromPDFRawStream(raw: { dict: { lookup(key: unknown): unknown }; contents: Bytes }): unknown;
  };
  const fromRawStream = ByteStreamClass.fromPDFRawStream.bind(ByteStreamClass);
  const FLATE = PDFName.of('FlateDecode');
  const FILTER = PDFName.of('Filter');
  ByteStreamClass.fromPDFRawStream = (raw) => {
    if (raw.dict.lookup(FILTER) === FLATE) {
      let inflated: Buffer | undefined;
      try {
        inflated = inflateSync(raw.contents, { maxOutputLength: Math.min(pdfLibDecodeCap(), kMaxLength) });
      } catch {
        inflated = undefined;
      }
      // A plain Uint8Array, as pdf-lib's decoder returns.
      if (inflated) return ByteStreamClass.of(new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.length));
    }
    return fromRawStream(raw);
  };
  // Saving: a dictionary's entries are walked in place, not copied into a new array first.
  const PDFDict = (require('pdf-lib/cjs/core/objects/PDFDict') as { default: { prototype: Record<string, unknown> } })
    .default;
  type Sized = { sizeInBytes(): number; copyBytesInto(b: Bytes, o: number): number };
  PDFDict.prototype.sizeInBytes = function sizeInBytes(this: { dict: Map<Sized, Sized> }): number {
    let size = 5;
    for (const [key, value] of this.dict) size += key.sizeInBytes() + value.sizeInBytes() + 2;
    return size;
  };
  PDFDict.prototype.copyBytesInto = function copyBytesInto(
    this: { dict: Map<Sized, Sized> },
    buffer: Bytes,
    offset: number,
  ): number {
    const start = offset;
    buffer[offset++] = 0x3c; // '<<', a newline
    buffer[offset++] = 0x3c;
    buffer[offset++] = 0x0a;
    for (const [key, value] of this.dict) {
      offset += key.copyBytesInto(buffer, offset);
      buffer[offset++] = 0x20;
      offset += value.copyBytesInto(buffer, offset);
      buffer[offset++] = 0x0a;
    }
    buffer[offset++] = 0x3e; // '>>'
    buffer[offset++] = 0x3e;
    return offset - start;
  };
  // Numbers: the text of a number is made when it is written, not when it is parsed or copied
  // (most numbers of a parsed file are never written: pages copied keep few of them).
  const PDFNumber = (
    require('pdf-lib/cjs/core/objects/PDFNumber') as {
      default: { prototype: Record<string, unknown>; of(value: number): unknown };
    }
  ).default;
  const { numberToString, copyStringIntoBuffer } = require('pdf-lib/cjs/utils') as {
    numberToString(n: number): string;
    copyStringIntoBuffer(s: string, b: Bytes, o: number): number;
  };
  type LazyNumber = { numberValue: number; text?: string };
  const numberProto = PDFNumber.prototype;
  const textOf = (n: LazyNumber): string => (n.text ??= numberToString(n.numberValue));
  Object.defineProperty(numberProto, 'stringValue', {
    get(this: LazyNumber) {
      return textOf(this);
    },
  });
  numberProto.toString = function toString(this: LazyNumber) {
    return textOf(this);
  };
  numberProto.sizeInBytes = function sizeInBytes(this: LazyNumber) {
    return textOf(this).length;
  };
  numberProto.copyBytesInto = function copyBytesInto(this: LazyNumber, buffer: Bytes, offset: number) {
    const text = textOf(this);
    copyStringIntoBuffer(text, buffer, offset);
    return text.length;
  };
  PDFNumber.of = (value: number) => {
    const n = Object.create(numberProto) as LazyNumber;
    n.numberValue = value;
    n.text = undefined;
    return n;
  };
  // pdf-lib compresses content and object streams with pako (zlib in JavaScript): Node's zlib
  // gives the same format at the same level, natively.
  const pako = createRequire(require.resolve('pdf-lib'))('pako') as { deflate(data: Bytes): Bytes };
  pako.deflate = deflateStream;
}

/** Bytes zlib keeps ahead of the window's end when it searches matches (MIN_LOOKAHEAD in zlib). */
const ZLIB_LOOKAHEAD = 262;

/**
 * `deflateSync(data)` (level 6, a 32 KB window), the same bytes, with less memory for a small
 * `data`: deflated with the smallest window that holds it whole, the window and match chains (128 KB
 * of zlib's 256 KB state) are 1-32 KB, and each fresh page of that state costs a page fault (a saved
 * split of 20 parts makes 40 object and cross-reference streams of 0.2-2 KB; docs/benchmarks.md,
 * #25 item 3, fourth pass). A window that holds the data changes no match (none reaches further
 * back than the data's start), so the compressed data are the same; only the header's window size
 * differs, and it is written as the 32 KB window's (0x78 0x9c: a reader may use the larger window
 * it announces).
 */
export function deflateStream(data: Uint8Array): Uint8Array {
  let windowBits = 9;
  while (windowBits < 15 && (1 << windowBits) - ZLIB_LOOKAHEAD < data.length) windowBits++;
  if (windowBits === 15) return deflateSync(data);
  const out = deflateSync(data, { windowBits });
  out[0] = 0x78;
  out[1] = 0x9c;
  return out;
}
