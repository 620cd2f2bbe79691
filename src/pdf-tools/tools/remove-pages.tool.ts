import { z } from 'zod';
import { PAGE_RANGE_GRAMMAR, pageRangeTokens, parsePageRange } from '../core/page-range';
import { savePdf } from '../core/pdf-open';
import { ToolFailure } from '../core/tool-failure';
import { defineTool, derivedName, ONE_PDF_TO_FILE, openAll, pdfFileArg, singleFileOutput } from './tool';
import { plural } from '../../common/text/plural';

const input = z
  .object({
    file: pdfFileArg,
    pages: z.string().min(1).max(500).describe(`Pages to remove. ${PAGE_RANGE_GRAMMAR} At least one page must remain.`),
  })
  .strict();

/** The pages to remove, ascending; at least one page must remain. */
function toRemove(spec: string, count: number, label: string): number[] {
  const removed = parsePageRange(spec, count, label).sort((a, b) => a - b);
  if (removed.length >= count) {
    throw new ToolFailure(
      'invalid_page_range',
      `"${spec}" selects every page of ${label}; at least one page must remain.`,
      { page_count: count, none_left: true },
    );
  }
  return removed;
}

export const removePagesTool = defineTool({
  name: 'remove_pages',
  title: 'Remove pages',
  description: 'Delete chosen pages from a PDF (e.g. "1,last" or "even"). At least one page must remain.',
  input,
  output: singleFileOutput({
    removed_pages: z.array(z.number().int()).describe('Pages removed (numbers in the input), ascending.'),
    kept_pages: z.array(z.number().int()).describe('Pages of the input kept, in order.'),
  }),
  ...ONE_PDF_TO_FILE,
  check: (args, [pages], [label]) =>
    pages === undefined ? void pageRangeTokens(args.pages) : void toRemove(args.pages, pages, label),
  async run(args, inputs, ctx) {
    const [doc] = await openAll(inputs, ctx);
    const count = doc.getPageCount();
    const removed = toRemove(args.pages, count, inputs[0].label);
    for (const p of [...removed].reverse()) doc.removePage(p - 1);
    const gone = new Set(removed);
    const kept = Array.from({ length: count }, (_, i) => i + 1).filter((p) => !gone.has(p));
    const bytes = await savePdf(doc);
    return {
      files: [{ name: derivedName(inputs[0], 'pages-removed'), bytes, pages: doc.getPageCount() }],
      data: { removed_pages: removed, kept_pages: kept },
      summary: `Removed ${plural(removed.length, 'page')}; ${kept.length} remain${kept.length === 1 ? 's' : ''}.`,
    };
  },
});
