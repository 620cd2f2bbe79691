import type { Report, ReportNode, ReportPage } from '../report/report.types';
import { breakdownLines, RenderExtras, renderNote, sinceLastSummary } from './results-sections';
import type { ListItem, TaggedPdfWriter } from './tagged-pdf';

/** The PDF's "What each fix is worth" and "Since the last scan" sections (after the summary). */
export function resultsSectionsPdf(w: TaggedPdfWriter, report: Report, extras: RenderExtras): void {
  const unrendered = report.pages.filter((p) => p.render?.state === 'incomplete');
  if (unrendered.length)
    w.para(renderNote(unrendered.map((p) => p.url)), { style: 'h3', colour: '#b3261e', before: 1 });
  w.heading(2, 'What each fix is worth', { before: 1 });
  const lines = breakdownLines(report);
  if (lines.length === 0) w.para('No rule failed: nothing costs points.', { indent: 12 });
  else {
    w.para(`Points each failed rule costs; they add up to ${100 - report.score}, the distance to 100.`);
    w.lines(lines);
  }
  const d = extras.sinceLast;
  if (!d) return;
  w.heading(2, 'Since the last scan', { before: 1 });
  w.para(sinceLastSummary(d));
  if (!d.against) return;
  w.lines(
    d.rules.map(
      (r) =>
        `${r.rule} (${r.status === 'still' ? 'still failing' : r.status}): ${r.new.length} new, ${r.fixed.length} fixed, ${r.still.length} still failing`,
    ),
  );
}

/** Largest size of an element crop in the PDF (points; crops are never enlarged). */
const CROP_FIT: [number, number] = [240, 140];

/** The crop of a failing element under its markup (in its list item), when the report has one. */
export function pdfNodeImage(li: ListItem, n: ReportNode, extras: RenderExtras): void {
  const png = n.screenshot ? extras.images?.get(n.screenshot) : undefined;
  if (!png) return;
  li.figure(png, `Screenshot of the failing element ${n.marker ?? ''} (${n.target.join(' | ')}), outlined`, {
    x: 16,
    fit: CROP_FIT,
  });
}

/** The annotated full-page screenshot of a page, fitted to the rest of the PDF page (or the next one), then a new page. */
export function pdfPageImage(w: TaggedPdfWriter, p: ReportPage, extras: RenderExtras): void {
  const png = p.screenshot ? extras.images?.get(p.screenshot.url) : undefined;
  if (!png) return;
  const doc = w.doc;
  w.para('Full-page screenshot: failing elements outlined and numbered (numbers follow the element lists below).', {
    style: 'small',
    before: 0.5,
  });
  w.figure(png, `Screenshot of ${p.url} with the failing elements outlined and numbered as in the lists below`, {
    fit: [
      doc.page.width - doc.page.margins.left - doc.page.margins.right,
      doc.page.height - doc.page.margins.top - doc.page.margins.bottom,
    ],
    minHeight: 240,
  });
  doc.addPage();
}
