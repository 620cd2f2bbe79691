import PDFDocument from 'pdfkit';
import { pdfkitOutput } from '../../common/pdf/pdfkit-output';
import { nodeCount } from '../report/from-axe';
import type { Report, ReportPage, ReportRule } from '../report/report.types';
import { scoreBand } from '../scoring/score';
import { BADGE_COLOURS } from './badge-svg';
import { COVERAGE_NOTE, impactSummary, wcagCriteria } from './summary';
import type { RenderExtras } from './results-sections';
import { pdfNodeImage, pdfPageImage, resultsSectionsPdf } from './results-sections-pdf';
import { TaggedPdfWriter, winAnsi } from './tagged-pdf';
import { reviewLines } from './review-html';

const MAX_NODES_PER_RULE = 20;
const MAX_HTML = 400;

/**
 * How a site scan's PDF names its pages (src/a11y/sites/site-export.ts), as the site's page does: the
 * pages counted once however many viewports they were scanned at, and each row with its viewport.
 */
export interface PdfPageNames {
  /** What follows "Pages scanned: ". */
  scanned: string;
  /** The label of each report page, by index (its address, and its viewport). */
  labels: readonly string[];
  /** The page number of each report page, by index (the same for a page's viewports). */
  numbers: readonly number[];
}

/**
 * The audit PDF of a report (pdfkit, standard fonts), tagged for assistive technology (headings,
 * paragraphs, lists, figures with alternative text; language and title; page numbers as
 * artifacts): cover with score, URL and date; summary by impact; each violation with help text,
 * WCAG criteria, affected users and failing elements; the note that automated checks cover only
 * part of WCAG; "Page n of m" on every page.
 */
export async function renderReportPdf(
  report: Report,
  publicUrl: string,
  extras: RenderExtras & { names?: PdfPageNames } = {},
): Promise<Buffer> {
  const label = (p: ReportPage, i: number): string => extras.names?.labels[i] ?? p.url;
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: 56, right: 56 },
    bufferPages: true,
    info: {
      Title: winAnsi(`Accessibility audit: ${report.url}`),
      Author: 'Beacon',
      Subject: 'Automated accessibility audit (axe-core)',
    },
    pdfVersion: '1.7',
    lang: 'en',
    displayTitle: true,
    tagged: true,
  });
  const done = pdfkitOutput(doc);
  const w = new TaggedPdfWriter(doc);

  // Cover
  w.heading(1, 'Accessibility audit');
  w.para(`Address: ${report.url}`, { before: 0.2 });
  w.para(`Scanned: ${report.scannedAt.replace('T', ' ').slice(0, 19)} UTC`);
  w.para(`Pages scanned: ${extras.names?.scanned ?? report.pages.length}`);
  const band = scoreBand(report.score);
  w.para(`${report.score} / 100`, { style: 'score', colour: BADGE_COLOURS[band], before: 1 });
  w.para(
    `Automated score (${band}). ${report.totalNodes} failing elements, ${report.violationTypes} distinct failed rules.`,
  );
  w.para(COVERAGE_NOTE, { style: 'note', before: 1 });
  w.para(`Online report: ${publicUrl}`, { before: 1 });
  w.para(
    `Engine: axe-core ${report.meta.axeVersion} in ${report.meta.browser}; rules tagged ${report.meta.tags.join(', ')}.`,
  );

  // Summary
  w.heading(2, 'Summary by impact', { before: 1.5 });
  w.lines(impactSummary(report).map((s) => `${s.impact}: ${s.rules} rules, ${s.nodes} elements`));
  doc.moveDown(0.5);
  w.lines(report.pages.map((p, i) => `${label(p, i)}: score ${p.score}, ${p.violations.length} failed rules`));
  resultsSectionsPdf(w, report, extras);

  // Violations per page
  report.pages.forEach((p, i) => pageSection(p, i));

  function pageSection(p: ReportPage, i: number): void {
    doc.addPage();
    w.heading(2, `Page ${extras.names?.numbers[i] ?? i + 1}: ${label(p, i)}`);
    w.para(
      `Score ${p.score}/100. ${p.passes.length} rules passed, ${p.violations.length} failed, ${p.incomplete.length} need human review.`,
      { style: 'small' },
    );
    pdfPageImage(w, p, extras);
    if (p.violations.length === 0)
      w.para('No violations of the automated checks were found on this page.', { style: 'small' });
    for (const v of p.violations) violation(v);
    if (p.incomplete.length > 0) {
      w.heading(3, 'Needs human review', { before: 0.8 });
      w.lines(
        p.incomplete.map((r) => `${r.help} (${r.id}, ${nodeCount(r)} elements)`),
        { style: 'small' },
      );
    }
    if (p.review) {
      w.heading(3, `Checks beyond axe: needs review (${p.review.needsReview})`, { before: 0.8 });
      w.para("Findings of the site's own checks, for a person to review; not part of the score.", { style: 'small' });
      const lines = reviewLines(p.review);
      if (lines.length) w.lines(lines, { style: 'small' });
    }
  }

  function violation(v: ReportRule): void {
    w.heading(3, `${v.help} [${v.impact}]`, { before: 0.8 });
    const criteria = wcagCriteria(v.tags);
    w.para(
      `Rule: ${v.id}. WCAG: ${criteria.length ? criteria.join(', ') : 'best practice'}. Affected users: ${v.disabilities.join(', ') || 'not classified'}.`,
      { style: 'small' },
    );
    w.para(`How to fix: ${v.helpUrl}`, { style: 'small' });
    w.para(`Failing elements (${nodeCount(v)}):`, { style: 'small' });
    w.list(v.nodes.slice(0, MAX_NODES_PER_RULE), (n, li) => {
      li.text(n.target.join(' | '), { style: 'small' });
      li.text(n.html.length > MAX_HTML ? `${n.html.slice(0, MAX_HTML)}...` : n.html, {
        style: 'code',
        colour: '#333333',
        indent: 16,
      });
      pdfNodeImage(li, n, extras);
    });
    const unlisted = nodeCount(v) - Math.min(v.nodes.length, MAX_NODES_PER_RULE);
    if (unlisted > 0) w.para(`... and ${unlisted} more (see the online report).`, { style: 'small', indent: 8 });
  }

  w.pageNumbers();
  w.end();
  doc.end();
  return done;
}
