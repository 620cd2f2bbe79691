import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { z } from 'zod';
import { plural } from '../../common/text/plural';
import { savePdf } from '../core/pdf-open';
import { ToolFailure } from '../core/tool-failure';
import { defineTool, derivedName, fileRefSchema, ONE_PDF_TO_FILE, openAll, singleFileOutput } from './tool';

const input = z
  .object({ file: fileRefSchema.describe('The PDF with a fillable form: file_id, url or base64.') })
  .strict();

export const flattenFormTool = defineTool({
  name: 'flatten_form',
  title: 'Flatten a form',
  description:
    'Turn the form fields of a PDF into ordinary page content: the values stay visible, nothing stays editable, and no form is left.',
  input,
  output: singleFileOutput({
    fields_flattened: z.number().int(),
    field_names: z.array(z.string()).describe('Names of the fields that were flattened (at most 200 listed).'),
    widgets_removed: z.number().int().describe('Leftover widget annotations removed from pages (orphans included).'),
  }),
  ...ONE_PDF_TO_FILE,
  async run(_args, inputs, ctx) {
    const [doc] = await openAll(inputs, ctx);
    const form = doc.getForm();
    const names = form.getFields().map((f) => f.getName());
    if (names.length > 0) {
      try {
        form.flatten({ updateFieldAppearances: true });
      } catch {
        // Appearance refresh fails on values the standard fonts cannot encode: keep the existing
        // appearances (what viewers already show) instead.
        try {
          form.flatten({ updateFieldAppearances: false });
        } catch (e) {
          throw new ToolFailure(
            'corrupt_pdf',
            `The form of ${inputs[0].label} could not be flattened (${e instanceof Error ? e.message : String(e)}).`,
          );
        }
      }
    }
    doc.catalog.delete(PDFName.of('AcroForm'));
    const widgets = removeWidgets(doc);
    const bytes = await savePdf(doc);
    return {
      files: [{ name: derivedName(inputs[0], 'flattened'), bytes, pages: doc.getPageCount() }],
      data: { fields_flattened: names.length, field_names: names.slice(0, 200), widgets_removed: widgets },
      summary: names.length
        ? `Flattened ${plural(names.length, 'form field')}.`
        : 'The PDF had no form fields; returned it without a form.',
    };
  },
});

/** Removes widget annotations (and dangling annotation references) left on pages: no form remains. */
function removeWidgets(doc: PDFDocument): number {
  let removed = 0;
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    if (!annots) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const annot = annots.lookup(i);
      if (!(annot instanceof PDFDict) || annot.lookup(PDFName.of('Subtype')) === PDFName.of('Widget')) {
        annots.remove(i);
        removed++;
      }
    }
    if (annots.size() === 0) page.node.delete(PDFName.of('Annots'));
  }
  return removed;
}
