/**
 * Over 300 lines: openPdf is one ordered chain of checks and repairs (size, header, decryption, qpdf rewrite, page-tree
 * pruning, page limits) whose notes and failures depend on what the earlier steps did, and the page-tree helpers here
 * serve only that chain.
 */
import { createHash } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFPageLeaf,
  PDFPageTree,
  PDFRef,
  PDFStream,
} from 'pdf-lib';
import { bombFailure, decodedStreamCap, decodeTripped, guardPdfLibDecoding } from './decode-limits';
import { speedUpPdfLib } from './pdf-lib-speed';
import { qpdfRewrite } from './qpdf';
import type { Limits } from './limits';
import { ToolFailure } from './tool-failure';
import { plural } from '../../common/text/plural';
import { numberRuns } from '../../common/text/number-runs';
import { fileSize } from '../../common/text/file-size';

/** An input file as the worker receives it: its bytes and a label for messages ("files[2]", "file"). */
export interface InputFile {
  label: string;
  /** File name (given by the caller or of the stored result), for derived output names. */
  name: string;
  bytes: Uint8Array;
  /**
   * The bytes as the caller sent them, kept by {@link openPdf} when it replaces `bytes` (compress_pdf
   * measures against them and returns them when it cannot do better).
   */
  sent?: Uint8Array;
  /**
   * Set by the worker when the tool failed on this input as pdf-lib read it (pdf-lib's error): the
   * next {@link openPdf} has qpdf rewrite it with a rebuilt page tree first, and says so.
   */
  rebuild?: string;
  /** Password of an encrypted input (its `password` argument). */
  password?: string;
  /**
   * What opening did to the input (decrypted, repaired, bytes before the header ignored), for the
   * result's note. Set by {@link openPdf}, which also replaces `bytes` with what it processed; the
   * tools' wrapper (defineTool) turns them into the note with {@link describeOpenNotes}.
   */
  openNotes?: OpenNote[];
}

/** One thing opening did to an input: the sentence after its label, for one input and for several. */
export interface OpenNote {
  label: string;
  one: string;
  many: string;
}

/**
 * The sentences of `notes`, the same note about several inputs said once ("Files[0..19] were
 * encrypted ..."), each starting with a capital letter.
 */
export function describeOpenNotes(notes: readonly OpenNote[]): string[] {
  const groups = new Map<string, OpenNote[]>();
  for (const n of notes) groups.set(n.one, [...(groups.get(n.one) ?? []), n]);
  return [...groups.values()].map((group) => {
    const labels = [...new Set(group.map((n) => n.label))];
    const sentence = labels.length === 1 ? `${labels[0]} ${group[0].one}` : `${joinLabels(labels)} ${group[0].many}`;
    return sentence.charAt(0).toUpperCase() + sentence.slice(1);
  });
}

/** "files[0..3, 7]" for list entries (their names left out), else "a, b and c". */
function joinLabels(labels: string[]): string {
  const indexes = labels.map((l) => /^(\w+)\[(\d+)\]/.exec(l));
  if (indexes.every((m) => m && m[1] === indexes[0]![1])) {
    const nums = [...new Set(indexes.map((m) => Number(m![2])))].sort((a, b) => a - b);
    return `${indexes[0]![1]}[${numberRuns(nums, '..')}]`;
  }
  return labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/**
 * How far into a file the `%PDF-` header is looked for. Readers accept junk before it (Acrobat
 * 1 KB; qpdf finds the header in the first 1 KB and reads a file with any amount of junk before it
 * by reconstructing it): 64 KB covers a mail or HTTP header saved in front of the file.
 */
export const HEADER_SEARCH_BYTES = 64 * 1024;

/** Where the `%PDF-` header starts (at most {@link HEADER_SEARCH_BYTES} in), or -1. */
export function findPdfHeader(bytes: Uint8Array): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, HEADER_SEARCH_BYTES + 5)).indexOf(
    '%PDF-',
    0,
    'latin1',
  );
}

interface Loaded {
  doc?: PDFDocument;
  error?: unknown;
  /** Objects pdf-lib's parser skipped or could not resolve (it warns and goes on). */
  warnings: string[];
}

/** pdf-lib's load, with the warnings it prints about damaged objects collected instead of printed. */
async function load(bytes: Uint8Array): Promise<Loaded> {
  speedUpPdfLib();
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
  try {
    // parseSpeed Infinity: no yielding to an event loop every 100 objects (we are in a worker).
    const doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
      parseSpeed: Infinity,
    });
    return { doc, warnings };
  } catch (error) {
    return { error, warnings };
  } finally {
    console.warn = warn;
  }
}

/** Whether the last `startxref` points at a cross-reference table or stream (else the file is damaged or truncated). */
export function xrefPointerValid(bytes: Uint8Array): boolean {
  const tailStart = Math.max(0, bytes.length - 2048);
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset + tailStart, bytes.length - tailStart).toString('latin1');
  const matches = [...tail.matchAll(/startxref\s+(\d+)\s+%%EOF/g)];
  if (!matches.length) return false;
  const at = Number(matches[matches.length - 1][1]);
  if (!Number.isSafeInteger(at) || at >= bytes.length) return false;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(64, bytes.length - at)).toString('latin1');
  return /^\s*(xref|\d+\s+\d+\s+obj)/.test(head);
}

/**
 * Whether every page is a dictionary whose content streams exist (a file cut short leaves pages
 * pointing at objects that are gone, and pdf-lib would write them out as broken references), and
 * whose /Parent chain leads through page tree nodes to the root (pdf-lib reads inherited attributes,
 * e.g. the page size, up that chain, and fails on anything else in it).
 */
function pagesIntact(doc: PDFDocument): boolean {
  try {
    const root = doc.catalog.lookup(PDFName.of('Pages'));
    return doc.getPages().every((page) => {
      if (!(page.node instanceof PDFDict) || (page.node as unknown) instanceof PDFStream) return false;
      let node: PDFDict = page.node;
      for (let depth = 0; node !== root; depth++) {
        const parent = node.lookup(PDFName.of('Parent'));
        if (!(parent instanceof PDFPageTree) || depth > 64) return false;
        node = parent;
      }
      const contents = page.node.get(PDFName.of('Contents'));
      const refs = contents instanceof PDFArray ? contents.asArray() : contents === undefined ? [] : [contents];
      return refs.every((r) => !(r instanceof PDFRef) || doc.context.lookup(r) instanceof PDFStream);
    });
  } catch {
    return false;
  }
}

/**
 * Drops the entries of the page tree that are not pages (a kid that is missing, or not a page or
 * page tree node: pdf-lib skips them, qpdf turns a missing one into a blank page, and either writes
 * them back as broken references) and corrects each node's /Count. Returns how many it changed.
 */
function pruneKids(doc: PDFDocument): number {
  let changed = 0;
  const walk = (node: PDFPageTree, depth: number): number => {
    const kids = node.lookup(PDFName.of('Kids'));
    if (!(kids instanceof PDFArray) || depth > 64) return 0;
    let leaves = 0;
    for (let i = kids.size() - 1; i >= 0; i--) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFPageLeaf) leaves++;
      else if (kid instanceof PDFPageTree && kid !== node) leaves += walk(kid, depth + 1);
      else {
        kids.remove(i);
        changed++;
      }
    }
    const count = node.lookup(PDFName.of('Count'));
    if (!(count instanceof PDFNumber) || count.asNumber() !== leaves) {
      node.set(PDFName.of('Count'), PDFNumber.of(leaves));
      changed++;
    }
    return leaves;
  };
  try {
    const root = doc.catalog.lookup(PDFName.of('Pages'));
    if (root instanceof PDFPageTree) walk(root, 0);
  } catch {
    // A tree pdf-lib cannot walk was refused or rebuilt before: nothing more to correct here.
  }
  return changed;
}

/**
 * Whether the catalog has no page tree, or its root has no kids: a document without pages (a page
 * tree that is there but points at an object that is gone is damage, not this).
 */
function pageTreeEmpty(doc: PDFDocument): boolean {
  try {
    if (!doc.catalog.has(PDFName.of('Pages'))) return true;
    const root = doc.catalog.lookup(PDFName.of('Pages'));
    if (!(root instanceof PDFDict)) return root === PDFNull;
    const kids = root.lookup(PDFName.of('Kids'));
    return !(kids instanceof PDFArray) || kids.size() === 0;
  } catch {
    return false;
  }
}

function pageCount(doc: PDFDocument): number | undefined {
  try {
    return doc.getPageCount();
  } catch {
    return undefined;
  }
}

/**
 * Opens a PDF as a repairing reader would, with every check the tools rely on, each failure with
 * the code and the input's name:
 * - empty, or no `%PDF-` header in the first 64 KB -> not_a_pdf; bytes before the header are ignored;
 * - encrypted: decrypted by qpdf with `password`, or with the empty user password of an
 *   owner-password-only file; a missing or wrong password -> encrypted;
 * - damaged (pdf-lib cannot parse it, skips objects, the cross-reference pointer is wrong, the page
 *   tree is unreadable, empty or has a broken /Parent chain): rewritten by qpdf first, and when
 *   pdf-lib still cannot walk its page tree (or `input.rebuild` is set: the tool failed on the file
 *   as read), rewritten with a rebuilt page tree (`qpdf --pages . --`); what qpdf cannot repair ->
 *   corrupt_pdf;
 * - no pages (no page tree, or an empty one, also after repair) -> no_pages; a stream that decodes
 *   past the cap -> file_too_large;
 * - over the limits -> file_too_large / too_many_pages.
 * What was done is added to `input.openNotes`, `input.sent` keeps the bytes sent and `input.bytes`
 * becomes the bytes processed. `updateMetadata: false` so opening never rewrites Producer or ModDate.
 */
export async function openPdf(input: InputFile, limits: Limits): Promise<PDFDocument> {
  const { label } = input;
  const sent = (input.sent ??= input.bytes);
  let bytes = sent;
  const notes: OpenNote[] = (input.openNotes = []);
  if (bytes.length > limits.maxBytes) {
    throw new ToolFailure(
      'file_too_large',
      `${label} is ${bytes.length} bytes; the limit is ${limits.maxBytes} bytes (${fileSize(limits.maxBytes)}) per file.`,
      {
        input: label,
        bytes: bytes.length,
        limit: limits.maxBytes,
      },
    );
  }
  if (bytes.length === 0) {
    throw new ToolFailure(
      'not_a_pdf',
      `${label} is empty (0 bytes). Send the PDF's content, base64-encoded, or a file_id.`,
      { input: label },
    );
  }
  const header = findPdfHeader(bytes);
  if (header < 0) {
    throw new ToolFailure(
      'not_a_pdf',
      `${label} is not a PDF (no %PDF- header). Check that the base64 decodes to a PDF file.`,
      { input: label },
    );
  }
  if (header > 0) {
    bytes = bytes.subarray(header);
    notes.push({
      label,
      one: `had ${plural(header, 'byte')} before its %PDF- header; they were ignored.`,
      many: `had ${plural(header, 'byte')} before their %PDF- headers; they were ignored.`,
    });
  }
  const cap = decodedStreamCap(limits);
  guardPdfLibDecoding(cap);
  const first = await load(bytes);
  // pdf-lib's parser skips an object it cannot read: an object stream cut off at the cap is one.
  if (decodeTripped()) throw bombFailure(label, cap);
  const firstPages = first.doc ? pageCount(first.doc) : undefined;
  const encrypted = first.doc?.isEncrypted ?? false;
  // pdf-lib cannot read the objects of an encrypted file: its damage is judged after decryption.
  const intact = first.doc !== undefined && first.warnings.length === 0 && !!firstPages && pagesIntact(first.doc);
  const damaged = input.rebuild !== undefined || !xrefPointerValid(bytes) || (!encrypted && !intact);
  let doc = first.doc;
  if (encrypted || damaged) {
    let rewritten = await qpdfRewrite(bytes, input.password, input.rebuild !== undefined);
    if (rewritten.status === 'bad_password') {
      throw new ToolFailure(
        'encrypted',
        input.password === undefined
          ? `${label} is encrypted with a password (needed to open it). Pass it as \`password\` next to the file (e.g. {"file_id": "...", "password": "..."}), or send a decrypted file.`
          : `${label} is encrypted and the given password is not correct. Check the \`password\` argument.`,
        { input: label, password_given: input.password !== undefined },
      );
    }
    if (rewritten.status === 'ok') {
      let second = await load(rewritten.bytes);
      if (decodeTripped()) throw bombFailure(label, cap);
      let rebuilt = input.rebuild !== undefined;
      // qpdf's plain rewrite keeps the page tree as it is: pdf-lib still cannot walk it (a page
      // without /Type, a /Parent that is no page tree node): rewritten again with a new page tree.
      if (!rebuilt && second.doc && !pageTreeEmpty(second.doc) && !(pageCount(second.doc) && pagesIntact(second.doc))) {
        const again = await qpdfRewrite(rewritten.bytes, undefined, true);
        const third = again.status === 'ok' ? await load(again.bytes) : undefined;
        if (decodeTripped()) throw bombFailure(label, cap);
        if (again.status === 'ok' && third?.doc) {
          rewritten = { ...again, warnings: [...rewritten.warnings, ...again.warnings] };
          second = third;
          rebuilt = true;
        }
      }
      if (!second.doc) {
        throw new ToolFailure(
          'corrupt_pdf',
          `${label} is damaged and cannot be read, even after repair (${shortMessage(second.error)}).`,
          { input: label },
        );
      }
      doc = second.doc;
      bytes = rewritten.bytes;
      if (encrypted) {
        notes.push(
          input.password
            ? {
                label,
                one: 'was opened with the given password; the result is not encrypted.',
                many: 'were opened with the given passwords; the result is not encrypted.',
              }
            : {
                label,
                one: 'was encrypted with an owner password only (it opens without a password): the result is not encrypted, and its restrictions (printing, copying, editing) were removed.',
                many: 'were encrypted with an owner password only (they open without a password): the result is not encrypted, and their restrictions (printing, copying, editing) were removed.',
              },
        );
      }
      // qpdf reports what it repaired (exit 3); an encrypted file it decrypted without a word was not damaged.
      const repaired = damaged || rebuilt || rewritten.warnings.length > 0;
      const pagesNow = pageCount(doc);
      if (input.rebuild !== undefined) {
        notes.push({
          label,
          one: `could not be processed as sent (${input.rebuild}) and was repaired (with qpdf, its page tree rebuilt) before processing; check the result.`,
          many: `could not be processed as sent (${input.rebuild}) and were repaired (with qpdf, their page trees rebuilt) before processing; check the result.`,
        });
      } else if (repaired && (encrypted || firstPages !== pagesNow) && pagesNow) {
        // An encrypted file's pages could not be counted before decryption: whether any was lost is unknown.
        const why =
          rewritten.warnings[0] ?? (first.doc ? 'its cross-reference table was wrong' : shortMessage(first.error));
        notes.push({
          label,
          one: `was damaged and was repaired (with qpdf) before processing (${why}); check the result.`,
          many: `were damaged and were repaired (with qpdf) before processing (${why}); check the result.`,
        });
      } else if (repaired && pagesNow) {
        notes.push({
          label,
          one: 'had a damaged structure and was repaired (with qpdf) before processing; no page was lost.',
          many: 'had a damaged structure and were repaired (with qpdf) before processing; no page was lost.',
        });
      }
    } else if (encrypted || !intact) {
      // qpdf failed or is missing: an encrypted file, or one pdf-lib could not read whole, cannot be processed.
      if (encrypted) {
        throw new ToolFailure(
          'encrypted',
          `${label} is encrypted and could not be decrypted (${rewritten.message}). Send a decrypted file.`,
          { input: label },
        );
      }
      if (first.doc && pageTreeEmpty(first.doc)) throw noPages(label);
      throw new ToolFailure(
        'corrupt_pdf',
        `${label} is damaged and cannot be repaired (${rewritten.status === 'failed' ? rewritten.message : shortMessage(first.error)}).`,
        {
          input: label,
        },
      );
    }
  }
  input.bytes = bytes;
  if (!doc) throw new ToolFailure('corrupt_pdf', `${label} is damaged and cannot be read.`, { input: label });
  const pages = pageCount(doc);
  if (pages === 0 || (pages === undefined && pageTreeEmpty(doc))) {
    // qpdf drops a /Pages that points at an object that is gone: the file as sent tells an empty
    // document from one whose pages were lost.
    if (first.doc ? pageTreeEmpty(first.doc) : pages === 0) throw noPages(label);
    throw new ToolFailure('corrupt_pdf', `${label} is damaged: its page tree is missing.`, { input: label });
  }
  if (pages === undefined) {
    throw new ToolFailure('corrupt_pdf', `${label} is damaged: its page tree cannot be read.`, { input: label });
  }
  if (pruneKids(doc) > 0) {
    notes.push({
      label,
      one: `had a damaged page tree (entries that are not pages, or a wrong page count); it was corrected, and its ${plural(pages, 'page')} kept.`,
      many: 'had damaged page trees (entries that are not pages, or a wrong page count); they were corrected, and their pages kept.',
    });
  }
  if (pages > limits.maxPages) {
    throw new ToolFailure(
      'too_many_pages',
      `${label} has ${pages} pages; every tool (split_pdf too) takes at most ${limits.maxPages} pages per file. Split it on your side first, e.g. \`qpdf in.pdf --pages . 1-${limits.maxPages} -- part-1.pdf\` and \`qpdf in.pdf --pages . ${limits.maxPages + 1}-z -- part-2.pdf\`, then send the parts.`,
      {
        input: label,
        pages,
        limit: limits.maxPages,
      },
    );
  }
  return doc;
}

/** A document without pages (no page tree, or an empty one): nothing for a tool to work on. */
function noPages(label: string): ToolFailure {
  const sentence = `${label.charAt(0).toUpperCase()}${label.slice(1)} has no pages: there is nothing to process. Send a PDF with at least one page.`;
  return new ToolFailure('no_pages', sentence, { input: label });
}

/** Saves a document the way every tool does (object streams on, form appearances left alone). */
export async function savePdf(doc: PDFDocument): Promise<Uint8Array> {
  return doc.save({ useObjectStreams: true, updateFieldAppearances: false, objectsPerTick: Infinity });
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function shortMessage(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.length > 160 ? `${m.slice(0, 157)}...` : m;
}
