import PDFDocument from 'pdfkit';
import type { Report, ReportRule } from '../report/report.types';
import { scoreBand } from '../scoring/score';
import { BADGE_COLOURS } from './badge-svg';
import { COVERAGE_NOTE, impactSummary, wcagCriteria } from './summary';
import type { RenderExtras } from './results-sections';
import { resultsSectionsPdf } from './results-sections-pdf';

/** The standard PDF fonts encode WinAnsi only: anything else becomes '?'. */
function winAnsi(s: string): string {
  return s.replace(/[^\t\n\r\x20-\x7e\xa0-\xff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, '?');
}

const MAX_NODES_PER_RULE = 20;
const MAX_HTML = 400;

/**
 * The audit PDF of a report (pdfkit, standard fonts): cover with score, URL and date; summary by
 * impact; each violation with help text, WCAG criteria, affected users and failing elements; the
 * note that automated checks cover only part of WCAG; page numbers "Page n of m" on every page.
 */
export async function renderReportPdf(report: Report, publicUrl: string, extras: RenderExtras = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: 56, right: 56 },
    bufferPages: true,
    info: { Title: winAnsi(`Accessibility audit: ${report.url}`), Author: 'Beacon', Subject: 'Automated accessibility audit (axe-core)' },
    pdfVersion: '1.7',
    lang: 'en',
    displayTitle: true,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = (s: string, opts?: PDFKit.Mixins.TextOptions) => doc.text(winAnsi(s), opts);

  // Cover
  doc.font('Helvetica-Bold').fontSize(26).fillColor('#1a1a1a');
  text('Accessibility audit');
  doc.moveDown(0.5).font('Helvetica').fontSize(12);
  text(`Address: ${report.url}`);
  text(`Scanned: ${report.scannedAt.replace('T', ' ').slice(0, 19)} UTC`);
  text(`Pages scanned: ${report.pages.length}`);
  doc.moveDown(1);
  const band = scoreBand(report.score);
  doc.font('Helvetica-Bold').fontSize(48).fillColor(BADGE_COLOURS[band]);
  text(`${report.score} / 100`);
  doc.font('Helvetica').fontSize(12).fillColor('#1a1a1a');
  text(`Automated score (${band}). ${report.totalNodes} failing elements, ${report.violationTypes} distinct failed rules.`);
  doc.moveDown(1);
  doc.font('Helvetica-Oblique');
  text(COVERAGE_NOTE);
  doc.font('Helvetica').moveDown(1);
  text(`Online report: ${publicUrl}`);
  text(`Engine: axe-core ${report.meta.axeVersion} in ${report.meta.browser}; rules tagged ${report.meta.tags.join(', ')}.`);

  // Summary
  doc.moveDown(1.5).font('Helvetica-Bold').fontSize(16);
  text('Summary by impact');
  doc.font('Helvetica').fontSize(12).moveDown(0.3);
  for (const s of impactSummary(report)) text(`${s.impact}: ${s.rules} rules, ${s.nodes} elements`, { indent: 12 });
  doc.moveDown(0.5);
  for (const p of report.pages) text(`${p.url}: score ${p.score}, ${p.violations.length} failed rules`, { indent: 12 });
  resultsSectionsPdf(doc, text, report, extras);

  // Violations per page
  report.pages.forEach((p, i) => {
    doc.addPage().font('Helvetica-Bold').fontSize(16).fillColor('#1a1a1a');
    text(`Page ${i + 1}: ${p.url}`);
    doc.font('Helvetica').fontSize(11);
    text(`Score ${p.score}/100. ${p.passes.length} rules passed, ${p.violations.length} failed, ${p.incomplete.length} need human review.`);
    if (p.violations.length === 0) text('No violations of the automated checks were found on this page.');
    for (const v of p.violations) violation(v);
    if (p.incomplete.length > 0) {
      doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12);
      text('Needs human review');
      doc.font('Helvetica').fontSize(10);
      for (const r of p.incomplete) text(`- ${r.help} (${r.id}, ${r.nodes.length} elements)`, { indent: 8 });
    }
  });

  function violation(v: ReportRule): void {
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).fillColor('#1a1a1a');
    text(`${v.help} [${v.impact}]`);
    doc.font('Helvetica').fontSize(10);
    const criteria = wcagCriteria(v.tags);
    text(`Rule: ${v.id}. WCAG: ${criteria.length ? criteria.join(', ') : 'best practice'}. Affected users: ${v.disabilities.join(', ') || 'not classified'}.`);
    text(`How to fix: ${v.helpUrl}`);
    text(`Failing elements (${v.nodes.length}):`);
    for (const n of v.nodes.slice(0, MAX_NODES_PER_RULE)) {
      doc.font('Helvetica').fillColor('#1a1a1a');
      text(`- ${n.target.join(' | ')}`, { indent: 8 });
      doc.font('Courier').fontSize(8).fillColor('#333333');
      text(n.html.length > MAX_HTML ? `${n.html.slice(0, MAX_HTML)}...` : n.html, { indent: 16 });
      doc.fontSize(10);
    }
    if (v.nodes.length > MAX_NODES_PER_RULE) text(`... and ${v.nodes.length - MAX_NODES_PER_RULE} more (see the online report).`, { indent: 8 });
    doc.font('Helvetica').fillColor('#1a1a1a');
  }

  // Page numbers
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(9).fillColor('#555555');
    doc.text(`Page ${i + 1} of ${range.count}`, doc.page.margins.left, doc.page.height - 36, {
      width: doc.page.width - doc.page.margins.left - doc.page.margins.right,
      align: 'center',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
