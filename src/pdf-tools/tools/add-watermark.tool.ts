import { degrees, PDFDocument, PDFImage, PDFPage } from 'pdf-lib';
import { z } from 'zod';
import { decodedStreamCap, pngDecodedSize } from '../core/decode-limits';
import type { Limits } from '../core/limits';
import { anchor, parseColor, placeBox, POSITIONS, rotatedExtent, visibleFrame } from '../core/stamp';
import { StampFonts, StampText } from '../core/stamp-text';
import { ToolFailure } from '../core/tool-failure';
import { checkStampText, definePageTool, pagesSchema, pdfFileArg, singleFileOutput } from './tool';
import { plural } from '../../common/text/plural';
import { fileSize } from '../../common/text/file-size';

const input = z
  .object({
    file: pdfFileArg,
    text: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Watermark text, any script (e.g. Cyrillic, CJK, Arabic). Give text or image_base64.'),
    image_base64: z.string().optional().describe('PNG or JPEG image, base64-encoded, used instead of text.'),
    pages: pagesSchema('Pages to watermark.'),
    position: z
      .enum(POSITIONS)
      .default('center')
      .describe('Where on the page, as seen by the reader (9-grid). Ignored when tiled.'),
    tiled: z.boolean().default(false).describe('Repeat the watermark over the whole page.'),
    font_size: z
      .number()
      .min(4)
      .max(300)
      .default(48)
      .describe('Text size in points (smaller where the text would leave the page).'),
    color: z.string().default('#808080').describe('Text colour, "#RRGGBB".'),
    opacity: z.number().min(0.05).max(1).default(0.3).describe('0.05 (faint) to 1 (opaque).'),
    rotation: z
      .number()
      .min(-360)
      .max(360)
      .default(45)
      .describe('Angle in degrees, counter-clockwise as seen by the reader (0 = horizontal).'),
    image_scale: z.number().min(0.01).max(1).default(0.5).describe('Image width as a fraction of the page width.'),
    margin: z.number().min(0).max(200).default(36).describe('Distance from the page edge, in points.'),
  })
  .strict();

type Args = z.infer<typeof input>;

interface Mark {
  /** Size of the mark on a page of this visible width. */
  sizeFor(pageWidth: number): { width: number; height: number };
  /** Draws the mark at `size` (its {@link sizeFor}, or smaller to fit the page). */
  draw(page: PDFPage, at: { x: number; y: number; rotate: number }, size: { width: number; height: number }): void;
}

/**
 * How much a mark of `extent` (turned, as drawn) must shrink to stay inside the page within its
 * margin: 1 when it fits. Tiled marks are cut at the page edge on purpose and are not fitted.
 */
export function fitScale(
  frame: { width: number; height: number },
  extent: { width: number; height: number },
  margin: number,
): number {
  const room = { width: Math.max(1, frame.width - 2 * margin), height: Math.max(1, frame.height - 2 * margin) };
  return Math.min(1, room.width / extent.width, room.height / extent.height);
}

async function buildMark(doc: PDFDocument, args: Args, limits: Limits): Promise<Mark> {
  if (args.text) {
    const color = parseColor(args.color);
    const line = await StampText.build(new StampFonts(doc), args.text, args.font_size, 'text');
    return {
      sizeFor: () => ({ width: line.width, height: line.height }),
      draw: (page, at, size) =>
        line.draw(page, at, { size: args.font_size * (size.width / line.width), color, opacity: args.opacity }),
    };
  }
  // In an ArrayBuffer of its own: pdf-lib reads a JPEG through a DataView of the whole ArrayBuffer,
  // which for a small image decoded into Node's shared pool starts at another buffer's bytes.
  const bytes = Buffer.from(new Uint8Array(Buffer.from(args.image_base64 ?? '', 'base64')).buffer);
  let image: PDFImage;
  const isPng = bytes[0] === 0x89 && bytes.subarray(1, 4).toString('latin1') === 'PNG';
  // A PNG is decoded to pixels to embed it: refuse from its header one that would decode beyond the cap.
  const decoded = isPng ? pngDecodedSize(bytes) : undefined;
  const cap = decodedStreamCap(limits);
  if (decoded !== undefined && decoded > cap) {
    throw new ToolFailure(
      'invalid_image',
      `image_base64 is a PNG of ${bytes.readUInt32BE(16)} x ${bytes.readUInt32BE(20)} pixels, which decodes to more than ${fileSize(cap)}; use a smaller image.`,
      { input: 'image_base64', decoded_limit: cap },
    );
  }
  try {
    if (isPng) image = await doc.embedPng(bytes);
    else if (bytes[0] === 0xff && bytes[1] === 0xd8) image = await doc.embedJpg(bytes);
    else throw new Error('not PNG or JPEG');
  } catch (e) {
    throw new ToolFailure(
      'invalid_image',
      `image_base64 is not a readable PNG or JPEG image (${e instanceof Error ? e.message : String(e)}).`,
    );
  }
  return {
    sizeFor: (pageWidth) => ({
      width: pageWidth * args.image_scale,
      height: (pageWidth * args.image_scale * image.height) / image.width,
    }),
    draw: (page, at, size) =>
      page.drawImage(image, { x: at.x, y: at.y, ...size, opacity: args.opacity, rotate: degrees(at.rotate) }),
  };
}

function exactlyOneMark(args: Args): void {
  if (!args.text === !args.image_base64) {
    throw new ToolFailure('invalid_arguments', 'Give exactly one of `text` or `image_base64`.');
  }
}

export const addWatermarkTool = definePageTool({
  name: 'add_watermark',
  title: 'Add a watermark',
  description:
    'Stamp a text or image (PNG/JPEG) watermark on chosen pages: position on a 9-grid or tiled, size, colour, opacity and angle. It appears upright on rotated pages too.',
  input,
  output: singleFileOutput({ watermarked_pages: z.array(z.number().int()) }),
  suffix: 'watermarked',
  extraBase64: (args) => (args.image_base64 ? [{ label: 'image_base64', base64: args.image_base64 }] : []),
  checkArgs(args) {
    exactlyOneMark(args);
    if (args.text) checkStampText(args.text, 'text');
    parseColor(args.color);
  },
  async change(args, doc, selected, ctx) {
    const pages = doc.getPages();
    const mark = await buildMark(doc, args, ctx.limits);
    /** Pages where the mark was drawn smaller to fit, and the smallest scale used. */
    const fitted = { pages: 0, scale: 1 };
    for (const [i, p] of selected.entries()) {
      ctx.progress?.(i, selected.length, `Watermarking page ${p}`);
      const page = pages[p - 1];
      const frame = visibleFrame(page);
      let size = mark.sizeFor(frame.width);
      let extent = rotatedExtent(size.width, size.height, args.rotation);
      const fit = args.tiled ? 1 : fitScale(frame, extent, args.margin);
      if (fit < 1) {
        size = { width: size.width * fit, height: size.height * fit };
        extent = rotatedExtent(size.width, size.height, args.rotation);
        fitted.pages++;
        fitted.scale = Math.min(fitted.scale, fit);
      }
      if (args.tiled) {
        const gap = Math.max(24, size.height);
        const stepX = extent.width + gap;
        const stepY = extent.height + gap;
        for (let cy = stepY / 2; cy < frame.height + stepY / 2; cy += stepY) {
          for (let cx = stepX / 2; cx < frame.width + stepX / 2; cx += stepX) {
            mark.draw(page, placeBox(frame, cx, cy, size.width, size.height, args.rotation), size);
          }
        }
      } else {
        const c = anchor(frame, args.position, extent, args.margin);
        mark.draw(page, placeBox(frame, c.x, c.y, size.width, size.height, args.rotation), size);
      }
    }
    const shrunk = fitted.pages
      ? args.text
        ? `The text was drawn smaller on ${plural(fitted.pages, 'page')} (down to ${Math.floor(args.font_size * fitted.scale * 10) / 10} pt instead of ${args.font_size}) so that it stays on the page; give a smaller font_size or a shorter text to choose the size yourself.`
        : `The image was drawn smaller on ${plural(fitted.pages, 'page')} (down to ${Math.round(fitted.scale * 100)} % of image_scale) so that it stays on the page.`
      : undefined;
    return {
      data: { watermarked_pages: selected, ...(shrunk ? { note: shrunk } : {}) },
      summary: `Watermarked ${plural(selected.length, 'page')}.`,
    };
  },
});
