import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { inflateCapped } from './decode-limits';

/** Displayed size of an image in points: lengths of its unit square's x and y edges after the CTM. */
export interface Placement {
  width: number;
  height: number;
}

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m x n (PDF row-vector convention: `cm` pre-multiplies the current matrix). */
function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

/** Decoded content streams of a page, or undefined when one cannot be decoded or the page's total exceeds `cap`. */
function contentBytes(doc: PDFDocument, contents: unknown, cap: number): Buffer[] | undefined {
  let left = cap;
  const streams: unknown[] =
    contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
  const out: Buffer[] = [];
  for (const s of streams) {
    if (!(s instanceof PDFRawStream)) return undefined;
    const filter = s.dict.lookup(PDFName.of('Filter'));
    let bytes: Buffer;
    if (filter === undefined) bytes = Buffer.from(s.contents);
    else if (filter === PDFName.of('FlateDecode') && !s.dict.has(PDFName.of('DecodeParms'))) {
      try {
        bytes = inflateCapped(s.contents, left);
      } catch {
        return undefined; // damaged, or over the cap (a deflate bomb): the page's images get the page-size bound
      }
    } else return undefined;
    left -= bytes.length;
    if (left < 0) return undefined;
    out.push(bytes);
  }
  return out;
}

const DELIMITER = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isSpace = (c: number): boolean =>
  c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;

/**
 * Scans one content stream for `q`/`Q`/`cm` and `/Name Do`, calling `found` with the CTM of every
 * XObject drawn. Strings, hex strings, arrays, dictionaries and inline images are skipped.
 */
export function scanDraws(src: Buffer, found: (name: string, ctm: Matrix) => void): void {
  const stack: Matrix[] = [];
  let ctm: Matrix = IDENTITY;
  let operands: (number | string)[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (isSpace(c)) {
      i++;
    } else if (c === 0x25) {
      while (i < n && src[i] !== 0x0a && src[i] !== 0x0d) i++;
    } else if (c === 0x28) {
      let depth = 0;
      for (; i < n; i++) {
        if (src[i] === 0x5c) i++;
        else if (src[i] === 0x28) depth++;
        else if (src[i] === 0x29 && --depth === 0) break;
      }
      i++;
      operands.push('(string)');
    } else if (c === 0x3c && src[i + 1] !== 0x3c) {
      while (i < n && src[i] !== 0x3e) i++;
      i++;
      operands.push('<hex>');
    } else if (c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) {
      i += c === 0x3c || c === 0x3e ? 2 : 1;
    } else if (c === 0x2f) {
      const start = ++i;
      while (i < n && !isSpace(src[i]) && !DELIMITER.has(src[i])) i++;
      operands.push(`/${src.toString('latin1', start, i)}`);
    } else {
      const start = i;
      while (i < n && !isSpace(src[i]) && !DELIMITER.has(src[i])) i++;
      if (i === start) {
        i++;
        continue;
      }
      const word = src.toString('latin1', start, i);
      const num = Number(word);
      if (!Number.isNaN(num) && /^[-+.\d]/.test(word)) {
        operands.push(num);
        continue;
      }
      switch (word) {
        case 'q':
          stack.push(ctm);
          break;
        case 'Q':
          ctm = stack.pop() ?? IDENTITY;
          break;
        case 'cm': {
          const m = operands.slice(-6);
          if (m.length === 6 && m.every((v) => typeof v === 'number')) ctm = multiply(m as Matrix, ctm);
          break;
        }
        case 'Do': {
          const name = operands[operands.length - 1];
          if (typeof name === 'string' && name.startsWith('/')) found(name.slice(1), ctm);
          break;
        }
        case 'BI': {
          // inline image: skip its data up to "EI" after "ID"
          const id = src.indexOf('ID', i, 'latin1');
          const ei = id < 0 ? -1 : src.indexOf('EI', id + 3, 'latin1');
          i = ei < 0 ? n : ei + 2;
          break;
        }
        default:
          break;
      }
      operands = [];
    }
  }
}

/**
 * Largest displayed size of each image XObject (by object reference) that page content streams draw
 * directly. Images drawn only inside form XObjects, or on pages whose content cannot be decoded, are
 * absent: callers fall back to a page-size bound for them.
 */
export function imagePlacements(doc: PDFDocument, decodeCap: number): Map<string, Placement> {
  const sizes = new Map<string, Placement>();
  for (const page of doc.getPages()) {
    const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    if (!xobjects) continue;
    const streams = contentBytes(doc, page.node.Contents(), decodeCap);
    if (!streams) continue;
    const draw = (name: string, ctm: Matrix): void => {
      const ref = xobjects.get(PDFName.of(name));
      if (!(ref instanceof PDFRef)) return;
      const obj = doc.context.lookup(ref);
      if (!(obj instanceof PDFRawStream) || obj.dict.lookup(PDFName.of('Subtype')) !== PDFName.of('Image')) return;
      const width = Math.hypot(ctm[0], ctm[1]);
      const height = Math.hypot(ctm[2], ctm[3]);
      const key = ref.toString();
      const prev = sizes.get(key);
      sizes.set(key, { width: Math.max(width, prev?.width ?? 0), height: Math.max(height, prev?.height ?? 0) });
    };
    // Content streams of a page form one stream: graphics state carries across them.
    scanDraws(Buffer.concat(streams.flatMap((s) => [s, Buffer.from('\n')])), draw);
  }
  return sizes;
}
