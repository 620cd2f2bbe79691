import { z } from 'zod';
import { numberRuns } from '../../common/text/number-runs';
import { plural } from '../../common/text/plural';
import { checkPageRange, parsePageRange } from '../core/page-range';
import { openPdf, sha256 } from '../core/pdf-open';
import { openText } from '../core/pdf-text';
import { bodySize, pageMarkdown } from '../core/text-layout';
import { ToolFailure } from '../core/tool-failure';
import { defineTool, pagesSchema, pdfFileArg, READ_ONLY, singleInput, toolOutput } from './tool';

/** The character budget of one call: the default keeps a result near 5,000 tokens. */
export const READ_DEFAULT_CHARS = 20_000;
export const READ_MAX_CHARS = 100_000;
/** A page with less text than this takes the body font size of the pages before it (headings by size). */
const OWN_BODY_MIN_CHARS = 200;

const input = z
  .object({
    file: pdfFileArg,
    pages: pagesSchema('Pages to read, in this order.'),
    max_chars: z
      .number()
      .int()
      .min(500)
      .max(READ_MAX_CHARS)
      .default(READ_DEFAULT_CHARS)
      .describe(`Most characters of Markdown this call returns (default ${READ_DEFAULT_CHARS}).`),
    cursor: z
      .string()
      .max(200)
      .optional()
      .describe('next_cursor of the previous call, to read on (same file and pages).'),
  })
  .strict();

/** Where a call stops in the document: a page and a character offset into its Markdown, tied to the file. */
interface Cursor {
  page: number;
  offset: number;
  /** The first 16 hex digits of the file's sha256: a cursor of another file is refused. */
  file: string;
}

const encodeCursor = (c: Cursor): string => Buffer.from(`${c.file}.${c.page}.${c.offset}`).toString('base64url');

function decodeCursor(text: string): Cursor {
  const m = /^([0-9a-f]{16})\.(\d{1,6})\.(\d{1,7})$/.exec(Buffer.from(text, 'base64url').toString('latin1'));
  if (!m)
    throw new ToolFailure(
      'invalid_arguments',
      'cursor: not a cursor of read_pdf. Pass next_cursor of the previous result as it is, or leave cursor out to read from the start.',
    );
  return { file: m[1], page: Number(m[2]), offset: Number(m[3]) };
}

/** Where to cut `text` at most `max` characters in: a paragraph, line or word end in its second half, never inside a surrogate pair. */
function cutAt(text: string, max: number): number {
  const half = Math.floor(max / 2);
  for (const sep of ['\n\n', '\n', ' ']) {
    const at = text.lastIndexOf(sep, max - sep.length);
    if (at >= half) return at + sep.length;
  }
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}

export const readPdfTool = defineTool({
  name: 'read_pdf',
  title: 'PDF to text',
  description:
    "Read a PDF's text as Markdown: <!-- page N --> before each page, headings, lists, plain grids as tables, columns in reading order. At most max_chars per call; if more is left, call again with the same file and pages and cursor: next_cursor. A scan without text fails: no_text_layer.",
  input,
  output: toolOutput({
    pages_read: z.array(z.number().int()).describe('Pages whose text (or its start) this call returned.'),
    page_count: z.number().int(),
    characters: z.number().int().describe('Length of the Markdown returned.'),
    next_cursor: z.string().nullable().describe('Pass as cursor to read on; null when the pages asked for are read.'),
    pages_without_text: z.array(z.number().int()).optional(),
  }),
  annotations: READ_ONLY,
  result: 'text',
  inputs: singleInput,
  check(args, [pages], [label]) {
    checkPageRange(args.pages, pages, label);
    if (args.cursor !== undefined) decodeCursor(args.cursor);
  },
  async run(args, inputs, ctx) {
    const file = inputs[0];
    const fileKey = sha256(file.bytes).slice(0, 16);
    const doc = await openPdf(file, ctx.limits);
    const count = doc.getPageCount();
    const selected = parsePageRange(args.pages, count, file.label);
    let at = 0;
    let offset = 0;
    if (args.cursor !== undefined) {
      const c = decodeCursor(args.cursor);
      at = selected.indexOf(c.page);
      if (c.file !== fileKey || at < 0) {
        throw new ToolFailure(
          'invalid_arguments',
          'cursor: it belongs to another file or other pages. Pass the same file and pages as the call that returned it, or leave cursor out to read from the start.',
        );
      }
      offset = c.offset;
    }
    // openPdf left the bytes it read (decrypted, repaired) in file.bytes.
    const text = await openText(file.bytes);
    const parts: string[] = [];
    const read: number[] = [];
    const empty: number[] = [];
    let used = 0;
    let next: string | null = null;
    let body: number | undefined;
    try {
      for (let i = at; i < selected.length; i++) {
        const n = selected[i];
        const runs = await text.page(n);
        const chars = runs.reduce((k, r) => k + r.text.trim().length, 0);
        if (chars >= OWN_BODY_MIN_CHARS || body === undefined) body = bodySize(runs) ?? body;
        const markdown = pageMarkdown(runs, body ?? 10);
        if (!markdown) empty.push(n);
        const head = `<!-- page ${n}${offset ? ' (continued)' : ''}${markdown ? '' : ': no text'} -->`;
        const rest = markdown.slice(offset);
        const room = args.max_chars - used - head.length - (parts.length ? 2 : 0);
        if (room < Math.min(rest.length, 200) && parts.length) {
          next = encodeCursor({ file: fileKey, page: n, offset });
          break;
        }
        const cut = rest.length > room ? cutAt(rest, Math.max(1, room - 2)) : rest.length;
        parts.push(rest ? `${head}\n\n${rest.slice(0, cut)}` : head);
        used = parts.join('\n\n').length;
        read.push(n);
        ctx.progress?.(i - at + 1, selected.length - at, `Read page ${n}`);
        if (cut < rest.length) {
          next = encodeCursor({ file: fileKey, page: n, offset: offset + cut });
          break;
        }
        offset = 0;
      }
    } finally {
      await text.close();
    }
    if (args.cursor === undefined && next === null && empty.length === read.length) {
      throw new ToolFailure(
        'no_text_layer',
        `No text layer: run OCR on the website. ${file.label} has no text on ${read.length === 1 ? `page ${read[0]}` : `pages ${numberRuns(read)}`} (the pages are images, e.g. a scan).`,
        { input: file.label, pages: read },
      );
    }
    const markdown = parts.join('\n\n');
    const more = next ? ` More is left: call read_pdf again with the same file and pages and cursor "${next}".` : '';
    return {
      files: [],
      text: markdown,
      data: {
        pages_read: read,
        page_count: count,
        characters: markdown.length,
        next_cursor: next,
        ...(empty.length ? { pages_without_text: empty } : {}),
      },
      summary: `Read ${read.length === 1 ? `page ${read[0]}` : plural(read.length, 'page')} of ${count}: ${plural(markdown.length, 'character')} of Markdown.${more}`,
    };
  },
});
