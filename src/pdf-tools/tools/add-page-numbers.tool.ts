import { z } from 'zod';
import { anchor, parseColor, placeBox, POSITIONS, visibleFrame } from '../core/stamp';
import { StampFonts, StampText } from '../core/stamp-text';
import { ToolFailure } from '../core/tool-failure';
import { checkStampText, definePageTool, pagesSchema, pdfFileArg, singleFileOutput } from './tool';
import { plural } from '../../common/text/plural';

const input = z
  .object({
    file: pdfFileArg,
    position: z.enum(POSITIONS).default('bottom-center').describe('Where on the page, as seen by the reader (9-grid).'),
    format: z
      .string()
      .min(1)
      .max(100)
      .default('{n}')
      .describe(
        'Text of the number: {n} is the page number, {total} the last number, e.g. "Page {n} of {total}"; any script.',
      ),
    start: z.number().int().min(0).max(100000).default(1).describe('Number of the first numbered page.'),
    pages: pagesSchema('Pages to number, in order from `start` ("2-" skips a cover page).'),
    font_size: z.number().min(4).max(72).default(10),
    margin: z.number().min(0).max(200).default(24).describe('Distance from the page edge in points.'),
    color: z.string().default('#000000').describe('"#RRGGBB".'),
  })
  .strict();

function checkFormat(format: string): void {
  if (!format.includes('{n}'))
    throw new ToolFailure('invalid_arguments', '`format` must contain {n}, e.g. "Page {n} of {total}".');
}

export const addPageNumbersTool = definePageTool({
  name: 'add_page_numbers',
  title: 'Add page numbers',
  description:
    'Print page numbers on chosen pages: 9-grid position, a format such as "Page {n} of {total}", start number, font size and margin. Numbers appear upright on rotated pages.',
  input,
  output: singleFileOutput({
    numbered_pages: z.array(z.number().int()).describe('Pages that received a number.'),
    first_number: z.number().int(),
    last_number: z.number().int(),
  }),
  suffix: 'numbered',
  checkArgs(args) {
    checkFormat(args.format);
    checkStampText(args.format.replaceAll('{n}', '').replaceAll('{total}', ''), 'format');
    parseColor(args.color);
  },
  async change(args, doc, chosen, ctx) {
    const selected = chosen.sort((a, b) => a - b);
    const fonts = new StampFonts(doc);
    const color = parseColor(args.color);
    const total = args.start + selected.length - 1;
    const pages = doc.getPages();
    for (const [i, p] of selected.entries()) {
      const text = args.format.replaceAll('{n}', String(args.start + i)).replaceAll('{total}', String(total));
      const line = await StampText.build(fonts, text, args.font_size, 'format');
      const { width, height } = line;
      const page = pages[p - 1];
      const frame = visibleFrame(page);
      const c = anchor(frame, args.position, { width, height }, args.margin);
      const at = placeBox(frame, c.x, c.y, width, height, 0);
      line.draw(page, at, { size: args.font_size, color });
      ctx.progress?.(i + 1, selected.length, `Numbered page ${p}`);
    }
    return {
      data: { numbered_pages: selected, first_number: args.start, last_number: total },
      summary: `Numbered ${plural(selected.length, 'page')} from ${args.start} to ${total}.`,
    };
  },
});
