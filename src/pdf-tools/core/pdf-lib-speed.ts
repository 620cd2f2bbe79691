import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';

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
  PDFObjectParser.prototype.parseName = function parseName(this: {
    bytes: { assertNext(c: number): void; bytes: Bytes; idx: number; column: number };
  }) {
    const stream = this.bytes;
    stream.assertNext(0x2f); // '/'
    const { bytes } = stream;
    const start = stream.idx;
    let end = start;
    while (end < bytes.length && !IsWhitespace[bytes[end]] && !IsDelimiter[bytes[end]]) end++;
    stream.idx = end;
    stream.column += end - start;
    return PDFName.of(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1'));
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
  // pdf-lib compresses content and object streams with pako (zlib in JavaScript): Node's zlib
  // gives the same format at the same level, natively.
  const pako = createRequire(require.resolve('pdf-lib'))('pako') as { deflate(data: Bytes): Bytes };
  pako.deflate = (data: Bytes) => deflateSync(data);
}
