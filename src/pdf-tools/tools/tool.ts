/**
 * Over 300 lines: the one contract every PDF tool is written against (argument and output schema pieces, the tool
 * shape, its definition helpers, opening and naming); splitting it would spread that contract over several files.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Limits } from '../core/limits';
import { describeOpenNotes, InputFile, OpenNote, openPdf, savePdf } from '../core/pdf-open';
import { checkPageRange, PAGE_RANGE_GRAMMAR, parsePageRange } from '../core/page-range';
import type { PDFDocument } from 'pdf-lib';
import { ToolFailure } from '../core/tool-failure';
import { fontFor } from '../core/fonts';

/** Where an input file comes from: an earlier result or upload (`file_id`), an address the server downloads (`url`), or the bytes themselves (`base64`). */
export const fileRefSchema = z
  .object({
    file_id: z
      .string()
      .min(16)
      .max(64)
      .optional()
      .describe(
        'The file_id of an earlier tool result or upload (valid until its expires_at). Preferred: chain tools without re-sending bytes.',
      ),
    url: z
      .string()
      .max(2048)
      .optional()
      .describe(
        'An http(s) address of the PDF: the server downloads it (public addresses only, same limits as any input).',
      ),
    base64: z
      .string()
      .optional()
      .describe(
        'The PDF content, base64-encoded, for small files (the file size limit applies to the decoded bytes). Give exactly one of file_id, url or base64.',
      ),
    filename: z.string().max(200).optional().describe('Optional file name, used in messages and as the download name.'),
    password: z
      .string()
      .max(1024)
      .optional()
      .describe('Password of an encrypted PDF (not needed for owner-password-only files).'),
  })
  .strict();
export type FileRef = z.infer<typeof fileRefSchema>;

/** The `file` argument of a tool that reads one PDF. */
export const pdfFileArg = fileRefSchema.describe('The PDF: file_id, url or base64.');

export const pagesSchema = (what: string) =>
  z.string().max(500).optional().describe(`${what} ${PAGE_RANGE_GRAMMAR} Default: all.`);

export const quotaSchema = z.object({
  tool: z.string(),
  limit: z
    .number()
    .int()
    .describe(
      'Calls of this tool allowed today for this client (the stricter of the MCP cap and the shared daily pool).',
    ),
  remaining: z.number().int(),
  resets_at: z.string().describe('Next reset, 00:00 UTC, ISO 8601.'),
});
export type QuotaInfo = z.infer<typeof quotaSchema>;

export const storedFileShape = {
  file_id: z.string().describe('Id to pass as file_id to another tool (chaining) until expires_at.'),
  download_url: z.string().describe('GET this URL to download the PDF until expires_at.'),
  expires_at: z.string(),
  filename: z.string(),
  bytes: z.number().int(),
  pages: z.number().int(),
  sha256: z.string(),
};
export const storedFileSchema = z.object(storedFileShape);
export type StoredFileInfo = z.infer<typeof storedFileSchema>;

/** Output schema of a tool: its own fields, then the quota and the note every result may carry. */
export function toolOutput<T extends z.ZodRawShape>(fields: T) {
  return z.object({ ...fields, quota: quotaSchema, note: z.string().optional() });
}

/** Output schema of a tool that returns one file: the file's fields, the tool's own fields, the quota. */
export function singleFileOutput<T extends z.ZodRawShape>(extra: T) {
  return toolOutput({ ...storedFileShape, ...extra });
}

/** A file produced in the worker, before it is stored. */
export interface ToolOutputFile {
  name: string;
  bytes: Uint8Array;
  pages: number;
}

export interface ToolRunResult {
  files: ToolOutputFile[];
  /** The tool's own fields of structuredContent (echoed pages, sizes, metadata, ...). */
  data: Record<string, unknown>;
  /** The document text a reading tool returns (read_pdf: Markdown), apart from its fields. */
  text?: string;
  /** What opening did to the inputs, one entry per input and thing (set by defineTool; `data.note` says it in words). */
  opened?: OpenNote[];
  /** The tool's own remark, without what opening did (set by defineTool). */
  toolNote?: string;
  /** Human sentence appended to the text content. */
  summary: string;
}

/** The per-call caps on what a call produces (the runner passes them with the file limits). */
export interface OutputLimits {
  /** Most output files of one call. */
  maxOutputFiles: number;
  /** Largest total of the output files of one call, in bytes. */
  maxOutputBytes: number;
}

export interface ToolRunContext {
  limits: Limits & Partial<OutputLimits>;
  /** Reports a step of a long loop (inputs opened and merged, parts written, pages stamped); absent when nobody follows. */
  progress?(done: number, total: number, message: string): void;
}

/**
 * Throws a clear error when the outputs so far (or `planned` outputs) go over the caps: each file at
 * most `maxBytes`, in total at most `maxOutputBytes` and `maxOutputFiles`. Tools that make many files
 * call it as they go (stopping early); the runner calls it on every result.
 */
export function checkOutputs(
  files: readonly { name: string; bytes: Uint8Array }[],
  limits: Limits & Partial<OutputLimits>,
  planned = files.length,
): void {
  const maxFiles = limits.maxOutputFiles ?? Infinity;
  if (planned > maxFiles) {
    throw new ToolFailure(
      'invalid_arguments',
      `This call would produce ${planned} files; at most ${maxFiles} per call. Ask for fewer parts.`,
      {
        files: planned,
        limit: maxFiles,
      },
    );
  }
  let total = 0;
  for (const f of files) {
    if (f.bytes.length > limits.maxBytes) {
      throw new ToolFailure(
        'file_too_large',
        `The result ${f.name} would be ${f.bytes.length} bytes; the limit is ${limits.maxBytes} bytes per file. Use fewer or smaller inputs (or compress them first).`,
        { output: f.name, bytes: f.bytes.length, limit: limits.maxBytes },
      );
    }
    total += f.bytes.length;
  }
  const maxTotal = limits.maxOutputBytes ?? Infinity;
  if (total > maxTotal) {
    throw new ToolFailure(
      'file_too_large',
      `The results of this call would total more than ${maxTotal} bytes (the limit per call). Ask for fewer or smaller parts.`,
      { bytes: total, limit: maxTotal },
    );
  }
}

/**
 * One PDF tool: its MCP description (schemas written for a model, annotations) and its `run()`,
 * which executes in a worker thread on already-resolved input bytes.
 */
export interface PdfTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  /**
   * `file`: one result file (flattened into structuredContent); `files`: a list; `optional-file`:
   * maybe none (metadata read); `text`: no file, the document's text (read_pdf).
   */
  result: 'file' | 'files' | 'optional-file' | 'text';
  /** The input files of a call, in order, with their labels for messages. */
  inputs(args: z.infer<S>): { label: string; ref: FileRef }[];
  /**
   * Checks of the arguments that need no file bytes, run before the quota is reserved (a failure
   * then costs nothing): requirements between arguments, stamp text, page ranges, and with
   * `pages` (each input's page count, in the order of `inputs()`, when known from a stored file's
   * row) whether the pages exist. `run` still does every check itself.
   */
  check?(args: z.infer<S>, pages: readonly (number | undefined)[], labels: readonly string[]): void;
  /** Images or other non-PDF base64 arguments to size-check before the run. */
  extraBase64?(args: z.infer<S>): { label: string; base64: string }[];
  run(args: z.infer<S>, inputs: InputFile[], ctx: ToolRunContext): Promise<ToolRunResult>;
}

/** The input list of a one-file tool: its `file` argument, labelled "file" (and its name, if given). */
export function singleInput(args: { file: FileRef }): { label: string; ref: FileRef }[] {
  return [{ label: `file${args.file.filename ? ` (${args.file.filename})` : ''}`, ref: args.file }];
}

/**
 * A tool as the registry holds it: its `run` followed by the note of what opening did to the inputs
 * (decrypted, repaired, ...), the same note about several inputs said once, before the tool's own.
 */
export function defineTool<S extends z.ZodObject>(tool: PdfTool<S>): PdfTool<S> {
  return {
    ...tool,
    async run(args, inputs, ctx) {
      const result = await tool.run(args, inputs, ctx);
      const notes = inputs.flatMap((i) => i.openNotes ?? []);
      const toolNote = typeof result.data.note === 'string' && result.data.note ? result.data.note : undefined;
      const typed = { ...(notes.length ? { opened: notes } : {}), ...(toolNote ? { toolNote } : {}) };
      if (!notes.length) return { ...result, ...typed };
      const note = [...describeOpenNotes(notes), result.data.note].filter(Boolean).join(' ');
      return { ...result, ...typed, data: { ...result.data, note } };
    },
  };
}

/** A tool that changes chosen pages of one PDF (its `file` and `pages` arguments) into one new PDF. */
export interface PageTool<S extends z.ZodObject> extends Omit<
  PdfTool<S>,
  'annotations' | 'result' | 'inputs' | 'check' | 'run'
> {
  /** Output name: "report.pdf" -> "report-<suffix>.pdf". */
  suffix: string;
  /** The argument checks other than the page range (before the quota; `run` makes them again before opening). */
  checkArgs?(args: z.infer<S>): void;
  /** Changes `doc` on the `selected` pages (in the order given); the file is saved after. */
  change(
    args: z.infer<S>,
    doc: PDFDocument,
    selected: number[],
    ctx: ToolRunContext,
  ): Promise<Pick<ToolRunResult, 'data' | 'summary'>>;
}

/** defineTool for a PageTool: opening, the page range (checked before the quota too), saving and naming said once. */
export function definePageTool<S extends z.ZodObject>(tool: PageTool<S>): PdfTool<S> {
  const { suffix, checkArgs, change, ...rest } = tool;
  const pagesOf = (args: z.infer<S>): string | undefined => (args as { pages?: string }).pages;
  return defineTool<S>({
    ...rest,
    ...ONE_PDF_TO_FILE,
    inputs: (args) => singleInput(args as { file: FileRef }),
    check(args, [pages], [label]) {
      checkArgs?.(args);
      checkPageRange(pagesOf(args), pages, label);
    },
    async run(args, inputs, ctx) {
      checkArgs?.(args);
      const { doc, selected } = await openSelected(pagesOf(args), inputs, ctx);
      const changed = await change(args, doc, selected, ctx);
      return { files: [await changedFile(doc, inputs, suffix)], ...changed };
    },
  });
}

/**
 * Throws the error stamping would for a character of `text` no stamp font draws (plain ASCII is
 * always drawn, by the standard Helvetica): checked before the quota. Loads the stamp fonts' glyph
 * tables once per process, on the first non-ASCII text.
 */
export function checkStampText(text: string, argument: string): void {
  for (const c of text) {
    const cp = c.codePointAt(0)!;
    // Every other character needs a stamp font with its glyph (spaces and punctuation too).
    if (cp < 0x20 || cp >= 0x7f) fontFor(cp, argument);
  }
}

/** Opens every input with the limit checks; with `steps`, each opening is one step of that many for progress (the tool's own steps follow). */
export async function openAll(inputs: InputFile[], ctx: ToolRunContext, steps?: number): Promise<PDFDocument[]> {
  const docs: PDFDocument[] = [];
  for (const input of inputs) {
    docs.push(await openPdf(input, ctx.limits));
    if (steps) ctx.progress?.(docs.length, steps, `Opened ${input.label}`);
  }
  return docs;
}

/** A one-file tool's input opened, and its `pages` argument resolved against it (in the order given). */
export async function openSelected(
  pages: string | undefined,
  inputs: InputFile[],
  ctx: ToolRunContext,
): Promise<{ doc: PDFDocument; selected: number[] }> {
  const [doc] = await openAll(inputs, ctx);
  return { doc, selected: parsePageRange(pages, doc.getPageCount(), inputs[0].label) };
}

/** The one output of a tool that changes a single PDF: `doc` saved, named after the input with `suffix`. */
export async function changedFile(
  doc: PDFDocument,
  inputs: InputFile[],
  suffix: string,
): Promise<{ name: string; bytes: Uint8Array; pages: number }> {
  return { name: derivedName(inputs[0], suffix), bytes: await savePdf(doc), pages: doc.getPageCount() };
}

/** "report.pdf" -> "report-rotated.pdf". */
export function derivedName(input: InputFile | undefined, suffix: string): string {
  const base = (input?.name || 'document')
    .replace(/\.pdf$/i, '')
    .replace(/-(merged|split-\d+|rotated|pages-removed|compressed|watermarked|numbered|metadata|flattened)$/, '');
  return `${base}-${suffix}.pdf`;
}

/** Open world: an input may be a `url` the server downloads from the internet. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};
/** Tools create a new file and never change their input: not destructive, same input -> same output; open world (`url` inputs). */
export const CREATES_FILE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/** What every tool that turns one PDF into one new PDF declares (spread into its definition). */
export const ONE_PDF_TO_FILE = { annotations: CREATES_FILE, result: 'file', inputs: singleInput } as const;
