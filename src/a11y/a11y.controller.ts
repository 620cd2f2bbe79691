import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AppConfig } from '../common/config/env';
import { Public } from '../common/decorators/public.decorator';
import { RateLimit } from '../common/decorators/rate-limit.decorator';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { ReportsService } from './report/reports.service';
import type { Report, ScanResponse } from './report/report.types';
import { renderBadge } from './render/badge-svg';
import { renderReportHtml } from './render/report-html';
import { renderReportPdf } from './render/report-pdf';
import { ScanService } from './scan/scan.service';
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

  @Post('api/scan')
  @HttpCode(200)
  @RateLimit('scan')
  scan(@Body() body: ScanRequestDto): Promise<ScanResponse> {
    return this.scans.scan(body.url, body.crawl ?? false);
  }

  @Get('api/scan/:id')
  report(@Param('id') id: string): Promise<Report> {
    return this.reports.get(id);
  }

  @Get('api/report.pdf')
  async pdf(@Query('id') id: unknown, @Res() res: Response): Promise<void> {
    if (typeof id !== 'string' || !id) throw DomainError.badRequest('Invalid id: the query parameter id is required.', 'id');
    const report = await this.reports.get(id);
    const pdf = await renderReportPdf(report, this.publicUrl(report.id), { sinceLast: await this.results.sinceLast(report) });
    res
      .status(200)
      .set({
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="accessibility-report-${report.id}.pdf"`,
        'Cache-Control': REPORT_CACHE,
      })
      .send(pdf);
  }

  @Get('api/badge/:id')
  async badge(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const report = await this.reports.get(id);
    res
      .status(200)
      .set({ 'Cache-Control': REPORT_CACHE, ETag: `"${report.id}"`, 'X-Content-Type-Options': 'nosniff' })
      .type('image/svg+xml')
      .send(renderBadge(report, this.publicUrl(report.id)));
  }

  @Get('r/:id')
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
        renderReportHtml(report, {
          pdf: `${base}/api/report.pdf?id=${enc}`,
          json: `${base}/api/scan/${enc}`,
          badge: `${base}/api/badge/${enc}`,
          self: this.publicUrl(report.id),
        }, { sinceLast: await this.results.sinceLast(report) }),
      );
  }

  private publicUrl(id: string): string {
    return `${this.config.publicBaseUrl()}/r/${encodeURIComponent(id)}`;
  }
}

function notFoundHtml(): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Report not found</title></head><body><main><h1>Report not found</h1><p>No report has this address. Reports are kept 30 days.</p></main></body></html>`;
}
