import { degrees } from 'pdf-lib';
import { z } from 'zod';
import { definePageTool, pagesSchema, pdfFileArg, singleFileOutput } from './tool';
import { plural } from '../../common/text/plural';

const input = z
  .object({
    file: pdfFileArg,
    angle: z
      .union([z.literal(90), z.literal(180), z.literal(270)])
      .describe("Clockwise rotation in degrees, added to each page's current rotation."),
    pages: pagesSchema('Pages to rotate.'),
  })
  .strict();

export const rotatePagesTool = definePageTool({
  name: 'rotate_pages',
  title: 'Rotate pages',
  description:
    'Rotate chosen pages of a PDF clockwise by 90, 180 or 270 degrees, added to any rotation they already have. Other pages are unchanged.',
  input,
  output: singleFileOutput({
    rotated_pages: z.array(z.number().int()).describe('The pages rotated (resolved from `pages`).'),
    rotations: z.array(z.number().int()).describe('Resulting rotation of every page of the output, in page order.'),
  }),
  suffix: 'rotated',
  async change(args, doc, selected) {
    const pages = doc.getPages();
    for (const p of selected) {
      const page = pages[p - 1];
      const current = ((page.getRotation().angle % 360) + 360) % 360;
      page.setRotation(degrees((current + args.angle) % 360));
    }
    return {
      data: { rotated_pages: selected, rotations: pages.map((pg) => ((pg.getRotation().angle % 360) + 360) % 360) },
      summary: `Rotated ${plural(selected.length, 'page')} by ${args.angle} degrees.`,
    };
  },
});
