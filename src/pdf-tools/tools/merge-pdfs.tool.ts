import { PDFDocument, PDFRef } from 'pdf-lib';
import { z } from 'zod';
import { OutlineNode, readOutline, writeOutline } from '../core/outline';
import { checkPageRange, parsePageRange } from '../core/page-range';
import { savePdf } from '../core/pdf-open';
import { CREATES_FILE, defineTool, fileRefSchema, openAll, pagesSchema, singleFileOutput } from './tool';
import { plural } from '../../common/text/plural';

const input = z
  .object({
    files: z
      .array(fileRefSchema.extend({ pages: pagesSchema('Pages of this input, in this order.') }))
      .min(2)
      .max(20)
      .describe('2 to 20 PDFs, merged in this order.'),
    keep_bookmarks: z
      .boolean()
      .default(true)
      .describe("Keep the inputs' bookmarks (outlines) that point to included pages. Default true."),
    filename: z.string().max(200).optional().describe('Name of the merged file. Default: "<first input>-merged.pdf".'),
  })
  .strict();

export const mergePdfsTool = defineTool({
  name: 'merge_pdfs',
  title: 'Merge PDFs',
  description:
    'Merge 2-20 PDFs into one, in the given order, optionally choosing pages of each input (e.g. "1-3,last"). Bookmarks that point to included pages are kept.',
  input,
  output: singleFileOutput({
    inputs: z
      .array(z.object({ input: z.string(), pages: z.array(z.number().int()) }))
      .describe('Pages taken from each input, in order.'),
    bookmarks: z.number().int().describe('Top-level bookmarks kept.'),
  }),
  annotations: CREATES_FILE,
  result: 'file',
  inputs: (args) => args.files.map((f, i) => ({ label: `files[${i}]${f.filename ? ` (${f.filename})` : ''}`, ref: f })),
  check: (args, pages, labels) => args.files.forEach((f, i) => checkPageRange(f.pages, pages[i], labels[i])),
  async run(args, inputs, ctx) {
    // Progress steps: open each input, copy each input's pages.
    const steps = inputs.length * 2;
    const docs = await openAll(inputs, ctx, steps);
    const out = await PDFDocument.create({ updateMetadata: false });
    const echoed: { input: string; pages: number[] }[] = [];
    const outline: OutlineNode[] = [];
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      const pages = parsePageRange(args.files[i].pages, doc.getPageCount(), inputs[i].label);
      const copied = await out.copyPages(
        doc,
        pages.map((p) => p - 1),
      );
      const pageMap = new Map<string, PDFRef>();
      const srcPages = doc.getPages();
      copied.forEach((page, j) => {
        out.addPage(page);
        pageMap.set(srcPages[pages[j] - 1].ref.toString(), page.ref);
      });
      if (args.keep_bookmarks) outline.push(...readOutline(doc, out, pageMap));
      echoed.push({ input: inputs[i].label, pages });
      ctx.progress?.(docs.length + i + 1, steps, `Merged ${inputs[i].label}`);
    }
    writeOutline(out, outline);
    const bytes = await savePdf(out);
    const total = out.getPageCount();
    return {
      files: [
        {
          name: args.filename ?? `${(inputs[0].name || 'document').replace(/\.pdf$/i, '')}-merged.pdf`,
          bytes,
          pages: total,
        },
      ],
      data: { inputs: echoed, bookmarks: outline.length },
      summary: `Merged ${docs.length} PDFs into ${plural(total, 'page')}${outline.length ? ` with ${plural(outline.length, 'bookmark')}` : ''}.`,
    };
  },
});
