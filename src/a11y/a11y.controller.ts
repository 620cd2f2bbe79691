import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../common/config/env';
import { Public } from '../common/decorators/public.decorator';
import { RateLimit, RateLimitCostOf } from '../common/decorators/rate-limit.decorator';
import { clientSubject } from '../common/http/client-ip';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { ReportsService } from './report/reports.service';
import type { Report, ScanResponse } from './report/report.types';
import { renderBadge } from './render/badge-svg';
import { renderReportHtml } from './render/report-html';
import { renderReportPdf } from './render/report-pdf';
import { RenderCache } from './render/render-cache';
import { scanCost, ScanService } from './scan/scan.service';
import { ScanRequestDto } from './scan-request.dto';
import { ResultsService } from './export/results.service';

/** Stored reports never change: clients and CDNs may keep them for an hour. */
export const REPORT_CACHE = 'public, max-age=3600';

/** The accessibility scan API (anonymous; POST /api/scan is rate limited per IP). */
@Public()
@Controller()
export class A11yController {
  constructor(
    private readonly scans: ScanService,
    private readonly reports: ReportsService,
    private readonly config: AppConfig,
    private readonly results: ResultsService,
  ) {}

  private readonly renderings = new RenderCache();

  @Post('api/scan')
  @HttpCode(200)
  @RateLimit('scan')
  @RateLimitCostOf((req) => scanCost((req.body as { crawl?: unknown } | undefined)?.crawl === true))
  scan(@Body() body: ScanRequestDto, @Req() req: Request): Promise<ScanResponse> {
    return this.scans.scan(body.url, body.crawl ?? false, clientSubject(req));
  }

  /** The stored report as JSON: rate limited and cached like its other renderings (/r/{id}, the PDF, the badge). */
  @Get('api/scan/:id')
  @RateLimit('report')
  async report(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const head = await this.reports.badgeFields(id); // 404 without reading the report
    const json = await this.cached('json', head, async () => Buffer.from(JSON.stringify(await this.reports.get(id))));
    res.status(200).set({ 'Cache-Control': REPORT_CACHE }).type('application/json').send(json);
  }

  @Get('api/report.pdf')
  @RateLimit('report')
  async pdf(@Query('id') id: unknown, @Res() res: Response): Promise<void> {
    if (typeof id !== 'string' || !id) throw DomainError.badRequest('Invalid id: the query parameter id is required.', 'id');
    const head = await this.reports.badgeFields(id); // 404 without reading the report
    const pdf = await this.cached('pdf', head, async () => {
      const report = await this.reports.get(id);
      return renderReportPdf(report, this.publicUrl(report.id), await this.results.extras(report, true));
    });
    res
      .status(200)
      .set({
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="accessibility-report-${head.id}.pdf"`,
        'Cache-Control': REPORT_CACHE,
      })
      .send(pdf);
  }

  @Get('api/badge/:id')
  @RateLimit('report')
  async badge(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const fields = await this.reports.badgeFields(id); // columns only, the report is not parsed
    const svg = await this.cached('badge', fields, async () => Buffer.from(renderBadge(fields, this.publicUrl(fields.id))));
    res
      .status(200)
      .set({ 'Cache-Control': REPORT_CACHE, ETag: `"${fields.id}"`, 'X-Content-Type-Options': 'nosniff' })
      .type('image/svg+xml')
      .send(svg);
  }

  @Get('r/:id')
  @RateLimit('report')
  async page(@Param('id') id: string, @Res() res: Response): Promise<void> {
    let report: Report;
    try {
      report = await this.reports.get(id);
    } catch (e) {
      if (e instanceof DomainError && e.code === ErrorCode.ReportNotFound) {
        res.status(404).type('html').send(notFoundHtml());
        return;
      }
      throw e;
    }
    const base = this.config.publicBaseUrl();
    const enc = encodeURIComponent(report.id);
    res
      .status(200)
      .set({ 'Cache-Control': REPORT_CACHE, 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'" })
      .type('html')
      .send(
        await this.cached('html', report, async () =>
          Buffer.from(
            renderReportHtml(
              report,
              {
                pdf: `${base}/api/report.pdf?id=${enc}`,
                json: `${base}/api/scan/${enc}`,
                badge: `${base}/api/badge/${enc}`,
                self: this.publicUrl(report.id),
              },
              await this.results.extras(report),
            ),
          ),
        ),
      );
  }

  /** A rendering of an immutable report, from the bounded in-memory cache when there. */
  private cached(kind: string, report: Pick<Report, 'id' | 'expiresAt'>, render: () => Promise<Buffer>): Promise<Buffer> {
    return this.renderings.get(`${kind}:${report.id}`, Date.parse(report.expiresAt), Date.now(), render);
  }

  private publicUrl(id: string): string {
    return `${this.config.publicBaseUrl()}/r/${encodeURIComponent(id)}`;
  }
}

function notFoundHtml(): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Report not found</title></head><body><main><h1>Report not found</h1><p>No report has this address. Reports are kept 30 days.</p></main></body></html>`;
}
