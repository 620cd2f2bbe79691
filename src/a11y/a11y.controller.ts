import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../common/config/env';
import { Public } from '../common/decorators/public.decorator';
import { RateLimit, RateLimitCostOf } from '../common/decorators/rate-limit.decorator';
import { clientSubject } from '../common/http/client-ip';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { BadgeFields, cacheKeyOf, ReportsService } from './report/reports.service';
import { parseTargetUrl } from '../common/egress/target-guard';
import { sendPage } from '../common/html/page';
import { qs } from '../common/html/html';
import type { Report, ScanResponse } from './report/report.types';
import { renderBadge, renderMissingBadge } from './render/badge-svg';
import { renderReportHtml } from './render/report-html';
import { noCurrentReportHtml, notFoundHtml } from './render/report-missing-html';
import { renderReportPdf } from './render/report-pdf';
import { RenderCache } from './render/render-cache';
import { scanCost, ScanService } from './scan/scan.service';
import { ScanRequestDto } from './scan-request.dto';
import { ResultsService } from './export/results.service';
import { ADDRESS_BADGE_CACHE, EXPORT_HEADERS, PDF_HEADERS, REPORT_CACHE } from './report-headers';

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
    if (typeof id !== 'string' || !id)
      throw DomainError.badRequest('Invalid id: the query parameter id is required.', 'id');
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
        ...PDF_HEADERS,
      })
      .send(pdf);
  }

  /**
   * The badge of a report. When the report expired, the badge of the latest report of the same
   * address (and crawl flag); when there is none, an "expired" or "no report" badge (an image, not
   * an error: it is embedded in READMEs).
   */
  @Get('api/badge/:id')
  @RateLimit('report')
  async badge(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const own = await this.reports.badgeFields(id).catch((e: unknown) => {
      if (e instanceof DomainError && e.code === ErrorCode.ReportNotFound) return undefined;
      throw e;
    });
    if (own) return this.sendBadge(res, own, REPORT_CACHE); // columns only, the report is not parsed
    const key = await this.reports.cacheKeyOfId(id);
    const latest = key ? await this.reports.latestBadgeFields(key) : undefined;
    if (latest) return this.sendBadge(res, latest, ADDRESS_BADGE_CACHE);
    this.sendMissingBadge(res, key ? 'expired' : 'none', '/scan');
  }

  /** The stable badge of an address: its latest report's (`crawl=true`: of its crawls). */
  @Get('api/badge')
  @RateLimit('report')
  async addressBadge(@Query('url') url: unknown, @Query('crawl') crawl: unknown, @Res() res: Response): Promise<void> {
    const address = parseAddress(url, crawl);
    const latest = await this.reports.latestBadgeFields(cacheKeyOf(address.url, address.crawl));
    if (latest) return this.sendBadge(res, latest, ADDRESS_BADGE_CACHE);
    this.sendMissingBadge(res, 'none', `/scan${qs({ url: address.url, crawl: address.crawl || undefined })}`);
  }

  /** The stable address of an address's latest report (what the embed snippet links to): a redirect to it. */
  @Get('r')
  @RateLimit('report')
  async latestPage(@Query('url') url: unknown, @Query('crawl') crawl: unknown, @Res() res: Response): Promise<void> {
    const address = parseAddress(url, crawl);
    const latest = await this.reports.latestBadgeFields(cacheKeyOf(address.url, address.crawl));
    if (latest) {
      res.set('Cache-Control', ADDRESS_BADGE_CACHE).redirect(302, `/r/${encodeURIComponent(latest.id)}`);
      return;
    }
    this.sendReportPage(res, 404, noCurrentReportHtml(address), 'no-cache');
  }

  @Get('r/:id')
  @RateLimit('report')
  async page(@Param('id') id: string, @Res() res: Response): Promise<void> {
    let report: Report;
    try {
      report = await this.reports.get(id);
    } catch (e) {
      if (e instanceof DomainError && e.code === ErrorCode.ReportNotFound) {
        this.sendReportPage(res, 404, notFoundHtml(), 'no-cache');
        return;
      }
      throw e;
    }
    const base = this.config.publicBaseUrl();
    const enc = encodeURIComponent(report.id);
    const address = qs({ url: report.url, crawl: report.crawl || undefined });
    const markup = await this.cached('html', report, async () =>
      Buffer.from(
        renderReportHtml(
          report,
          {
            pdf: `/api/report.pdf?id=${enc}`,
            json: `/api/scan/${enc}`,
            badge: `/api/badge/${enc}`,
            self: this.publicUrl(report.id),
            stableBadge: `${base}/api/badge${address}`,
            stableReport: `${base}/r${address}`,
            scanAgain: `/scan${address}`,
          },
          await this.results.extras(report),
        ),
      ),
    );
    this.sendReportPage(res, 200, markup, REPORT_CACHE);
  }

  /** A report page in the website's layout, with the website's headers, kept out of search engines, cacheable as given. */
  private sendReportPage(res: Response, status: number, markup: string | Buffer, cacheControl: string): void {
    res.set('X-Robots-Tag', 'noindex');
    sendPage(res, status, markup, cacheControl);
  }

  private async sendBadge(res: Response, fields: BadgeFields, cacheControl: string): Promise<void> {
    const svg = await this.cached('badge', fields, async () =>
      Buffer.from(renderBadge(fields, this.publicUrl(fields.id))),
    );
    res
      .status(200)
      .set({ 'Cache-Control': cacheControl, ETag: `"${fields.id}"`, ...EXPORT_HEADERS })
      .type('image/svg+xml')
      .send(svg);
  }

  private sendMissingBadge(res: Response, kind: 'expired' | 'none', scanPath: string): void {
    res
      .status(200)
      .set({ 'Cache-Control': ADDRESS_BADGE_CACHE, ...EXPORT_HEADERS })
      .type('image/svg+xml')
      .send(renderMissingBadge(kind, `${this.config.publicBaseUrl()}${scanPath}`));
  }

  /** A rendering of an immutable report, from the bounded in-memory cache when there. */
  private cached(
    kind: string,
    report: Pick<Report, 'id' | 'expiresAt'>,
    render: () => Promise<Buffer>,
  ): Promise<Buffer> {
    return this.renderings.get(`${kind}:${report.id}`, Date.parse(report.expiresAt), Date.now(), render);
  }

  private publicUrl(id: string): string {
    return `${this.config.publicBaseUrl()}/r/${encodeURIComponent(id)}`;
  }
}

/** The address (normalised as scans store it) and crawl flag of `?url=&crawl=`. */
function parseAddress(url: unknown, crawl: unknown): { url: string; crawl: boolean } {
  return { url: parseTargetUrl(url).href, crawl: crawl === 'true' };
}
