import { PDFDocument } from 'pdf-lib';
import { z } from 'zod';
import { pageRangeTokens, parsePageRange } from '../core/page-range';
import { savePdf } from '../core/pdf-open';
import { ToolFailure } from '../core/tool-failure';
import {
  checkOutputs,
  CREATES_FILE,
  defineTool,
  derivedName,
  fileRefSchema,
  openAll,
  storedFileSchema,
  singleInput,
  toolOutput,
} from './tool';
import { plural } from '../../common/text/plural';

const input = z
  .object({
    file: fileRefSchema.describe('The PDF to split: file_id, url or base64.'),
    mode: z
      .enum(['ranges', 'every', 'count'])
      .describe(
        '"ranges": one document per entry of `ranges`; "every": a new document every `every` pages; "count": `count` documents of near-equal size.',
      ),
    ranges: z
      .array(z.string().max(500))
      .min(1)
      .max(200)
      .optional()
      .describe('For mode "ranges": one page range per output document, e.g. ["1-3", "4-", "odd"].'),
    every: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe('For mode "every": pages per output document, e.g. 1 for single pages.'),
    count: z.number().int().min(2).max(200).optional().describe('For mode "count": number of output documents.'),
  })
  .strict();

/** The argument a mode needs, present (checked before the quota too). */
function checkMode(args: z.infer<typeof input>): void {
  if (args.mode === 'ranges' && !args.ranges)
    throw new ToolFailure('invalid_arguments', 'mode "ranges" needs `ranges`, e.g. ["1-3", "4-"].');
  if (args.mode === 'every' && !args.every)
    throw new ToolFailure('invalid_arguments', 'mode "every" needs `every`, the number of pages per part.');
  if (args.mode === 'count' && !args.count)
    throw new ToolFailure('invalid_arguments', 'mode "count" needs `count`, the number of parts.');
}

/** Page lists (1-based) of every part. */
function plan(args: z.infer<typeof input>, pageCount: number, label: string): number[][] {
  checkMode(args);
  switch (args.mode) {
    case 'ranges':
      return args.ranges!.map((r) => parsePageRange(r, pageCount, label));
    case 'every': {
      const parts: number[][] = [];
      for (let start = 1; start <= pageCount; start += args.every!) {
        parts.push(Array.from({ length: Math.min(args.every!, pageCount - start + 1) }, (_, i) => start + i));
      }
      return parts;
    }
    case 'count': {
      const count = args.count!;
      if (count > pageCount) {
        throw new ToolFailure(
          'invalid_page_range',
          `Cannot split ${label} (${plural(pageCount, 'page')}) into ${count} parts: at most ${pageCount}.`,
          {
            page_count: pageCount,
          },
        );
      }
      const parts: number[][] = [];
      let next = 1;
      for (let i = 0; i < count; i++) {
        const size = Math.floor(pageCount / count) + (i < pageCount % count ? 1 : 0);
        parts.push(Array.from({ length: size }, (_, k) => next + k));
        next += size;
      }
      return parts;
    }
  }
}

export const splitPdfTool = defineTool({
  name: 'split_pdf',
  title: 'Split a PDF',
  description:
    'Split one PDF into several: by page ranges (one document per range), every N pages, or into N near-equal parts. Returns one download link and file_id per part.',
  input,
  output: toolOutput({
    files: z
      .array(storedFileSchema.extend({ source_pages: z.array(z.number().int()) }))
      .describe('One entry per part, in order.'),
  }),
  annotations: CREATES_FILE,
  result: 'files',
  inputs: singleInput,
  check(args, [pages], [label]) {
    checkMode(args);
    if (pages === undefined) args.ranges?.forEach((r) => pageRangeTokens(r));
    else plan(args, pages, label);
  },
  async run(args, inputs, ctx) {
    const [doc] = await openAll(inputs, ctx);
    const parts = plan(args, doc.getPageCount(), inputs[0].label);
    const files: { name: string; bytes: Uint8Array; pages: number }[] = [];
    checkOutputs(files, ctx.limits, parts.length);
    for (let i = 0; i < parts.length; i++) {
      const out = await PDFDocument.create({ updateMetadata: false });
      const copied = await out.copyPages(
        doc,
        parts[i].map((p) => p - 1),
      );
      copied.forEach((p) => out.addPage(p));
      files.push({ name: derivedName(inputs[0], `split-${i + 1}`), bytes: await savePdf(out), pages: copied.length });
      checkOutputs(files, ctx.limits, parts.length);
      ctx.progress?.(i + 1, parts.length, `Wrote part ${i + 1} of ${parts.length}`);
    }
    return {
      files,
      data: { per_file: parts.map((p) => ({ source_pages: p })) },
      summary: `Split into ${parts.length} documents.`,
    };
  },
});
