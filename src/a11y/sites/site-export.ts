import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { renderCsv } from '../export/csv';
import { gateCases, GateOptions } from '../export/gate';
import { renderJunit } from '../export/junit';
import { renderSarif } from '../export/sarif';
import { renderReportPdf } from '../render/report-pdf';
import { totals } from '../report/from-axe';
import { ReportsService } from '../report/reports.service';
import { PageCosts, pageCostsOf, siteBreakdown } from '../scoring/breakdown';
import type { Report, ReportPage } from '../report/report.types';
import { filterPage } from './grouping';
import type { Site, SiteScan } from './site.types';

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

/**
 * A finished site scan as one report, so the single-report exports (src/a11y/export, the report
 * PDF) serve a whole site: the stored report of each scanned page, with the site's ignored rules
 * and excluded selectors applied (score recomputed as the site's grouping does). Pages whose report
 * has expired, or that failed, are listed in `meta.skipped` with the reason.
 */
export function siteAsReport(site: Site, scan: SiteScan, reports: ReadonlyMap<string, Report>): Report {
  const summary = scan.summary!;
  const pages: ReportPage[] = [];
  const skipped: { url: string; error: string }[] = [];
  const costs: PageCosts[] = [];
  let first: Report | undefined;
  for (const p of summary.pages) {
    const report = p.reportId ? reports.get(p.reportId) : undefined;
    const page = report?.pages[0];
    if (!page) {
      skipped.push({ url: p.url, error: p.error ?? 'its report has expired: run the scan again' });
      continue;
    }
    first ??= report;
    const f = filterPage(page, { ignoreRules: site.ignore_rules, excludedSelectors: site.excluded_selectors });
    pages.push({ ...page, violations: f.violations, score: f.score });
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
  return {
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
}

/** Renders the exports of a site scan from its pages' stored reports. */
@Injectable()
export class SiteExportService {
  constructor(private readonly reports: ReportsService) {}

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
    const report = siteAsReport(site, scan, reports);
    if (format === 'pdf') return renderReportPdf(report, siteUrl);
    const cases = gateCases(report, GATE);
    if (format === 'csv') return Buffer.from(renderCsv(cases));
    if (format === 'junit') return Buffer.from(renderJunit(report, cases, siteUrl));
    return Buffer.from(JSON.stringify(renderSarif(report, cases, siteUrl), null, 2));
  }
}
