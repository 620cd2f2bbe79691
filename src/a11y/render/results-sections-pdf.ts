import type { Report, ReportNode, ReportPage } from '../report/report.types';
import { breakdownLines, RenderExtras, renderNote, sinceLastSummary } from './results-sections';

/** The PDF's "What each fix is worth" and "Since the last scan" sections (after the summary). */
export function resultsSectionsPdf(
  doc: PDFKit.PDFDocument,
  text: (s: string, opts?: PDFKit.Mixins.TextOptions) => unknown,
  report: Report,
  extras: RenderExtras,
): void {
  const unrendered = report.pages.filter((p) => p.render?.state === 'incomplete');
  if (unrendered.length) {
    doc.moveDown(1).font('Helvetica-Bold').fontSize(12).fillColor('#b3261e');
    text(renderNote(unrendered.map((p) => p.url)));
  }
  doc.moveDown(1).font('Helvetica-Bold').fontSize(16).fillColor('#1a1a1a');
  text('What each fix is worth');
  doc.font('Helvetica').fontSize(12).moveDown(0.3);
  const lines = breakdownLines(report);
  if (lines.length === 0) text('No rule failed: nothing costs points.', { indent: 12 });
  else {
    text(`Points each failed rule costs; they add up to ${100 - report.score}, the distance to 100.`);
    for (const l of lines) text(l, { indent: 12 });
  }
  const d = extras.sinceLast;
  if (!d) return;
  doc.moveDown(1).font('Helvetica-Bold').fontSize(16);
  text('Since the last scan');
  doc.font('Helvetica').fontSize(12).moveDown(0.3);
  text(sinceLastSummary(d));
  if (!d.against) return;
  for (const r of d.rules) {
    const status = r.status === 'still' ? 'still failing' : r.status;
    text(`${r.rule} (${status}): ${r.new.length} new, ${r.fixed.length} fixed, ${r.still.length} still failing`, { indent: 12 });
  }
}

/** Largest size of an element crop in the PDF (points). */
const CROP_FIT: [number, number] = [240, 140];

/** The crop of a failing element under its markup, when the report has one. */
export function pdfNodeImage(doc: PDFKit.PDFDocument, n: ReportNode, extras: RenderExtras): void {
  const png = n.screenshot ? extras.images?.get(n.screenshot) : undefined;
  if (!png) return;
  const h = Math.min(CROP_FIT[1], (n.crop?.height ?? CROP_FIT[1]) * Math.min(1, CROP_FIT[0] / (n.crop?.width ?? CROP_FIT[0])));
  if (doc.y + h > doc.page.height - doc.page.margins.bottom) doc.addPage();
  doc.image(png, doc.page.margins.left + 16, doc.y + 2, { fit: CROP_FIT });
  doc.y += h + 6;
}

/** The annotated full-page screenshot of a page, on its own PDF page, fitted to the page. */
export function pdfPageImage(doc: PDFKit.PDFDocument, p: ReportPage, extras: RenderExtras): void {
  const png = p.screenshot ? extras.images?.get(p.screenshot.url) : undefined;
  if (!png) return;
  const w = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const h = doc.page.height - doc.page.margins.top - doc.page.margins.bottom - 40;
  doc.moveDown(0.5);
  doc.text('Full-page screenshot: failing elements outlined and numbered (numbers follow the element lists below).');
  doc.image(png, doc.page.margins.left, doc.y + 4, { fit: [w, h] });
  doc.addPage();
}
