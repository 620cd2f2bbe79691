import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { bombFailure, decodedStreamCap, decodeTripped, guardPdfLibDecoding } from './decode-limits';
import { ToolFailure } from './tool-failure';

/** An input file as the worker receives it: its bytes and a label for messages ("files[2]", "file"). */
export interface InputFile {
  label: string;
  /** File name (given by the caller or of the stored result), for derived output names. */
  name: string;
  bytes: Uint8Array;
}

export interface Limits {
  maxBytes: number;
  maxPages: number;
}

/**
 * Opens a PDF with every check the tools rely on, each failure with the code and the input's name:
 * empty or no `%PDF-` header -> not_a_pdf; /Encrypt in the trailer -> encrypted; unreadable or
 * without pages -> corrupt_pdf; over the limits -> file_too_large / too_many_pages.
 * `updateMetadata: false` so opening never rewrites Producer or ModDate.
 */
export async function openPdf(input: InputFile, limits: Limits): Promise<PDFDocument> {
  const { label, bytes } = input;
  if (bytes.length > limits.maxBytes) {
    throw new ToolFailure('file_too_large', `${label} is ${bytes.length} bytes; the limit is ${limits.maxBytes} bytes (${mb(limits.maxBytes)}) per file.`, {
      input: label,
      bytes: bytes.length,
      limit: limits.maxBytes,
    });
  }
  if (bytes.length === 0) {
    throw new ToolFailure('not_a_pdf', `${label} is empty (0 bytes). Send the PDF's content, base64-encoded, or a file_id.`, { input: label });
  }
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) {
    throw new ToolFailure('not_a_pdf', `${label} is not a PDF (no %PDF- header). Check that the base64 decodes to a PDF file.`, { input: label });
  }
  let doc: PDFDocument;
  const cap = decodedStreamCap(limits);
  guardPdfLibDecoding(cap);
  try {
    // parseSpeed Infinity: no yielding to an event loop every 100 objects (we are in a worker).
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false, parseSpeed: Infinity });
  } catch (e) {
    if (decodeTripped()) throw bombFailure(label, cap);
    throw new ToolFailure('corrupt_pdf', `${label} is damaged and cannot be read (${shortMessage(e)}). Repair it (e.g. re-save it) and try again.`, {
      input: label,
    });
  }
  // pdf-lib's parser skips an object it cannot read: an object stream cut off at the cap is one.
  if (decodeTripped()) throw bombFailure(label, cap);
  if (doc.isEncrypted) {
    throw new ToolFailure('encrypted', `${label} is encrypted (password protected). Remove the password first, then send the decrypted file.`, {
      input: label,
    });
  }
  let pages: number;
  try {
    pages = doc.getPageCount();
  } catch (e) {
    throw new ToolFailure('corrupt_pdf', `${label} is damaged: its page tree cannot be read (${shortMessage(e)}).`, { input: label });
  }
  if (pages === 0) {
    throw new ToolFailure('corrupt_pdf', `${label} has no readable pages; it is damaged or truncated.`, { input: label });
  }
  if (pages > limits.maxPages) {
    throw new ToolFailure('too_many_pages', `${label} has ${pages} pages; the limit is ${limits.maxPages} pages per file. Split it first.`, {
      input: label,
      pages,
      limit: limits.maxPages,
    });
  }
  return doc;
}

/** Saves a document the way every tool does (object streams on, form appearances left alone). */
export async function savePdf(doc: PDFDocument): Promise<Uint8Array> {
  return doc.save({ useObjectStreams: true, updateFieldAppearances: false, objectsPerTick: Infinity });
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function mb(n: number): string {
  return `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
}

function shortMessage(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.length > 160 ? `${m.slice(0, 157)}...` : m;
}
