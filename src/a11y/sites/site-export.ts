import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { renderCsv } from '../export/csv';
import { gateCases, GateOptions, NewElements } from '../export/gate';
import { renderJunit } from '../export/junit';
import { renderSarif } from '../export/sarif';
import { PdfPageNames, renderReportPdf } from '../render/report-pdf';
import { totals } from '../report/from-axe';
import { ReportsService } from '../report/reports.service';
import { PageCosts, pageCostsOf, siteBreakdown } from '../scoring/breakdown';
import type { Report, ReportPage } from '../report/report.types';
import { type ViewportName, VIEWPORT_LABELS } from '../scan/scan-options';
import { filterPage, printsByPage } from './grouping';
import type { Site, SitePageResult, SiteScan, SiteScanSummary } from './site.types';
import { SitesStore } from './sites.store';

/** The exports of a finished site scan (docs/a11y-monitoring.md, "Exports"). */
export const SITE_EXPORTS = {
  csv: { file: 'accessibility.csv', type: 'text/csv; charset=utf-8' },
  junit: { file: 'accessibility-junit.xml', type: 'application/xml' },
  sarif: { file: 'accessibility.sarif', type: 'application/sarif+json' },
  pdf: { file: 'accessibility-report.pdf', type: 'application/pdf' },
} as const;
export type SiteExportFormat = keyof typeof SITE_EXPORTS;

/** Every violation fails the gate (a site scan's exports have no query options). */
const GATE: GateOptions = { failOn: 'minor', newOnly: false };

/** A page result's address, with its viewport when the site scans more than one (as the site page lists it). */
export const pageLabel = (p: SitePageResult): string =>
  p.viewport ? `${p.url} (${VIEWPORT_LABELS[p.viewport]})` : p.url;

/** A site scan as one report, and the site's result row of each of its pages (`rows[i]` is `report.pages[i]`'s). */
export interface SiteReport {
  report: Report;
  rows: SitePageResult[];
}

/**
 * A finished site scan as one report, so the single-report exports (src/a11y/export, the report
 * PDF) serve a whole site: the stored report of each scanned page (at each viewport), with the site's
 * ignored rules and excluded selectors applied (score recomputed as the site's grouping does). The
 * score, its breakdown and the totals count every page at every viewport, as the site score does. Pages
 * whose report has expired, or that failed, are listed in `meta.skipped` with the reason.
 */
export function siteAsReport(site: Site, scan: SiteScan, reports: ReadonlyMap<string, Report>): SiteReport {
  const summary = scan.summary!;
  const pages: ReportPage[] = [];
  const rows: SitePageResult[] = [];
  const skipped: { url: string; error: string }[] = [];
  const costs: PageCosts[] = [];
  let first: Report | undefined;
  for (const p of summary.pages) {
    const report = p.reportId ? reports.get(p.reportId) : undefined;
    const page = report?.pages[0];
    if (!page) {
      skipped.push({ url: pageLabel(p), error: p.error ?? 'its report has expired: run the scan again' });
      continue;
    }
    first ??= report;
    const f = filterPage(page, { ignoreRules: site.ignore_rules, excludedSelectors: site.excluded_selectors });
    const filtered = { ...page, violations: f.violations, score: f.score };
    pages.push(filtered);
    rows.push(p);
    // the page's rule costs with the site's ignored rules left out (a page that did not render keeps its own)
    const failing = new Set(f.violations.map((v) => v.id));
    costs.push(
      page.render?.state === 'incomplete'
        ? pageCostsOf(page)
        : { breakdown: (page.scoreBreakdown ?? []).filter((c) => failing.has(c.id)), appliedWeight: f.appliedWeight },
    );
  }
  if (!first)
    throw new DomainError(ErrorCode.NotFound, "The reports of this scan's pages have expired: run the scan again.");
  const report: Report = {
    id: scan.id,
    url: site.start_url,
    crawl: true,
    score: summary.score,
    ...totals(pages),
    scoreBreakdown: siteBreakdown(costs, summary.score),
    scannedAt: scan.finished_at ?? scan.created_at,
    expiresAt: first.expiresAt,
    pages,
    meta: {
      ...first.meta,
      skipped,
      timings: { totalMs: Date.parse(scan.finished_at ?? scan.updated_at) - Date.parse(scan.created_at) },
    },
  };
  return { report, rows };
}

/**
 * How the site PDF names its pages, as the site page does: the number of pages (each counted once,
 * with the viewports it was scanned at), each row with its viewport.
 */
export function pdfNamesOf(summary: SiteScanSummary, rows: readonly SitePageResult[]): PdfPageNames {
  const urls = [...new Set(summary.pages.filter((p) => !p.secondary).map((p) => p.url))];
  const views = [...new Set(summary.pages.map((p) => p.viewport).filter((v) => v !== undefined))];
  const scanned =
    views.length > 1
      ? `${urls.length}, each at ${views.map((v) => VIEWPORT_LABELS[v]).join(' and ')} (${summary.pages.length} results)`
      : String(urls.length);
  return {
    scanned,
    labels: rows.map(pageLabel),
    numbers: rows.map((r) => urls.indexOf(r.url) + 1),
  };
}

/**
 * The viewport of each row (`rows[i]`'s): its own when the scan had more than one, else the scan's one
 * viewport (desktop for scans from before viewports existed).
 */
export const viewportsOf = (summary: SiteScanSummary, rows: readonly SitePageResult[]): ViewportName[] =>
  rows.map((r) => r.viewport ?? summary.viewports?.[0] ?? 'desktop');

/**
 * Which elements are new since the previous finished scan, as the site page's per-page diff counts
 * them (by fingerprint, at the first viewport); undefined for a page the previous scan did not scan,
 * a row at another viewport, or when there is no previous scan (the CSV's `new` column stays empty).
 */
export function newSince(
  rows: readonly SitePageResult[],
  before: SiteScanSummary | undefined,
): NewElements | undefined {
  if (!before) return undefined;
  const prints = printsByPage(before.groups);
  const scannedBefore = new Set(before.pages.filter((p) => p.reportId && !p.secondary).map((p) => p.url));
  return (i, _rule, fingerprint) => {
    const row = rows[i];
    if (row.secondary || !scannedBefore.has(row.url)) return undefined;
    return !prints.get(row.url)?.has(fingerprint);
  };
}

/** Renders the exports of a site scan from its pages' stored reports. */
@Injectable()
export class SiteExportService {
  constructor(
    private readonly reports: ReportsService,
    private readonly store: SitesStore,
  ) {}

  /** The file of `format` for a finished scan; `siteUrl` is the site's page on this instance (named in the files). */
  async render(site: Site, scan: SiteScan, format: SiteExportFormat, siteUrl: string): Promise<Buffer> {
    if (scan.status !== 'done' || !scan.summary)
      throw new DomainError(ErrorCode.NotFound, 'This scan has not finished: its exports come when it has.');
    const reports = new Map<string, Report>();
    for (const p of scan.summary.pages)
      if (p.reportId) {
        const r = await this.reports.get(p.reportId).catch(() => undefined); // expired: listed as skipped
        if (r) reports.set(p.reportId, r);
      }
    const { report, rows } = siteAsReport(site, scan, reports);
    if (format === 'pdf') return renderReportPdf(report, siteUrl, { names: pdfNamesOf(scan.summary, rows) });
    const before = scan.finished_at ? await this.store.doneBefore(site.id, scan.finished_at) : undefined;
    const cases = gateCases(
      report,
      GATE,
      newSince(rows, before?.summary ?? undefined),
      viewportsOf(scan.summary, rows),
    );
    if (format === 'csv') return Buffer.from(renderCsv(cases));
    if (format === 'junit') return Buffer.from(renderJunit(report, cases, siteUrl));
    return Buffer.from(JSON.stringify(renderSarif(report, cases, siteUrl), null, 2));
  }
}
