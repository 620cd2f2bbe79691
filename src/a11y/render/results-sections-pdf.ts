import type { Report } from '../report/report.types';
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
