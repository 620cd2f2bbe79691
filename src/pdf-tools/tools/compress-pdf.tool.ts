import { z } from 'zod';
import { compressDocument, COMPRESSION_LEVELS } from '../core/compress';
import { decodedStreamCap } from '../core/decode-limits';
import { savePdf } from '../core/pdf-open';
import { plural } from '../../common/text/plural';
import { defineTool, derivedName, ONE_PDF_TO_FILE, openAll, pdfFileArg, singleFileOutput } from './tool';

const input = z
  .object({
    file: pdfFileArg,
    level: z
      .enum(COMPRESSION_LEVELS)
      .default('recommended')
      .describe(
        '"lossless": restructure only, pixels untouched. "recommended": images as JPEG q75, at most 150 dpi. "extreme": JPEG q50, 96 dpi.',
      ),
  })
  .strict();

export const compressPdfTool = defineTool({
  name: 'compress_pdf',
  title: 'Compress a PDF',
  description:
    'Make a PDF smaller: lossless restructuring, or lossy image downsampling. Never larger than the input: if nothing can be saved, the input comes back with `unchanged` true.',
  input,
  output: singleFileOutput({
    level: z.enum(COMPRESSION_LEVELS),
    original_bytes: z.number().int(),
    saved_bytes: z.number().int(),
    saved_percent: z.number(),
    unchanged: z
      .boolean()
      .describe('true: compression would not make the file smaller, so the input is returned as is.'),
    images_recompressed: z.number().int(),
    duplicate_streams_removed: z.number().int(),
    unused_objects_removed: z.number().int(),
  }),
  ...ONE_PDF_TO_FILE,
  async run(args, inputs, ctx) {
    const [doc] = await openAll(inputs, ctx);
    // Measured against the bytes sent (not the repaired or decrypted bytes processed): never larger than them.
    const sent = inputs[0].sent ?? inputs[0].bytes;
    const stats = await compressDocument(doc, args.level, decodedStreamCap(ctx.limits));
    const compressed = await savePdf(doc);
    const unchanged = compressed.length >= sent.length;
    const bytes = unchanged ? sent : compressed;
    const saved = sent.length - bytes.length;
    const percent = sent.length ? Math.round((saved / sent.length) * 1000) / 10 : 0;
    // Returned as sent: what opening did (repair, decryption, junk dropped) is not in the result.
    const asSent = unchanged && (inputs[0].openNotes?.length ?? 0) > 0;
    if (unchanged) inputs[0].openNotes = [];
    return {
      files: [{ name: derivedName(inputs[0], 'compressed'), bytes, pages: doc.getPageCount() }],
      data: {
        level: args.level,
        original_bytes: sent.length,
        saved_bytes: saved,
        saved_percent: percent,
        unchanged,
        images_recompressed: unchanged ? 0 : stats.images_recompressed,
        duplicate_streams_removed: unchanged ? 0 : stats.duplicate_streams_removed,
        unused_objects_removed: unchanged ? 0 : stats.unused_objects_removed,
        ...(unchanged
          ? {
              note: asSent
                ? `Compression would not make the PDF smaller than the ${plural(sent.length, 'byte')} sent, so the file is returned exactly as sent (not repaired, decrypted or otherwise changed).`
                : 'The PDF is already compact: compression would not make it smaller, so the input is returned unchanged.',
            }
          : {}),
      },
      summary: unchanged
        ? 'Returned the input unchanged.'
        : `Compressed from ${sent.length} to ${bytes.length} bytes (${percent}% smaller).`,
    };
  },
});
