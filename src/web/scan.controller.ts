import { ArgumentsHost, Catch, Get, Injectable, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { ScanService, scanCost } from '../a11y/scan/scan.service';
import { ReportsService } from '../a11y/report/reports.service';
import { AppConfig } from '../common/config/env';
import { RateLimit, RateLimitCostOf } from '../common/decorators/rate-limit.decorator';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { clientSubject } from '../common/http/client-ip';
import { CsrfService } from './csrf.service';
import { CachedScan, scanPage, ScanForm, scanErrorInWords, withScheme } from './pages/scan.pages';
import { sendPage } from '../common/html/page';
import { Anonymous, field, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';
import { WebGuard } from './web.guard';
import { readVisitor, WebExceptionFilter, wantsHtml } from './web-exception.filter';

/** The form's crawl checkbox: the one reading of it, for the rate-limit cost and for the scan. */
const crawlOf = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && (body as Record<string, unknown>).crawl === 'true';

/** What the form sent, to show it again on any refusal. */
function formOf(req: WebRequest): ScanForm {
  return { url: field(req, 'url').trim(), crawl: crawlOf(req.body) };
}

/**
 * The scan form's errors raised before its handler runs (the throttler's 429): the form comes back
 * with what was entered and when to try again, instead of a bare error page. Anything else is the
 * website's usual error page.
 */
@Catch()
@Injectable()
export class ScanFormFilter extends WebExceptionFilter {
  constructor(
    private readonly tokens: CsrfService,
    private readonly config: AppConfig,
    guard: WebGuard,
  ) {
    super(tokens, guard);
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<WebRequest>();
    const res = host.switchToHttp().getResponse<Response>();
    if (
      !(exception instanceof DomainError) ||
      exception.code !== ErrorCode.RateLimited ||
      res.headersSent ||
      !wantsHtml(req)
    ) {
      super.catch(exception, host);
      return;
    }
    // The throttler runs before the website's guard: the visitor is read first, as for every error
    // page, for the form's CSRF token and the header (Sign out for a signed-in user, as on the form).
    readVisitor(this.guard, req, res, this.logger)
      .then(() => sendScanRefusal(res, this.tokens.token(req, res), req, formOf(req), exception, this.config, true))
      .catch((e: unknown) => super.catch(e, host));
  }
}

/** A refusal shown on the form: status and headers (Retry-After) of the error, its text in the page's words. */
function sendScanRefusal(
  res: Response,
  csrf: string,
  req: WebRequest,
  form: ScanForm,
  e: DomainError,
  config: AppConfig,
  throttled = false,
): void {
  for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
  const error = scanErrorInWords(e, {
    ...form,
    limit: config.SCAN_RATE_LIMIT,
    windowS: config.SCAN_RATE_WINDOW_S,
    throttled,
  });
  sendPage(res, e.status, scanPage(csrf, { ...form, error }, req.webUser));
}

/**
 * The scan page: a URL and the crawl option, then the public report /r/{id}; a cached answer lands
 * on this page again, saying so, with "Scan again now". Anonymous. POST /scan goes through the same
 * limits as POST /api/scan: the `scan` bucket at a crawl's cost, and one scan at a time per client.
 */
@WebController('scan')
export class ScanController {
  constructor(
    private readonly scans: ScanService,
    private readonly reports: ReportsService,
    private readonly csrf: CsrfService,
    private readonly config: AppConfig,
  ) {}

  /** The form; `?report=<id>` (after a cached answer): that report's notice; `?url=&crawl=true`: the form filled in. */
  @Get()
  @Anonymous()
  async form(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('report') reportId: unknown,
    @Query('url') url: unknown,
    @Query('crawl') crawl: unknown,
  ): Promise<void> {
    let cached: CachedScan | undefined;
    if (typeof reportId === 'string' && reportId) {
      try {
        cached = await this.reports.head(reportId);
      } catch (e) {
        if (!(e instanceof DomainError) || e.code !== ErrorCode.ReportNotFound) throw e;
      }
    }
    const form: ScanForm = cached
      ? { url: cached.url, crawl: cached.crawl, cached, now: new Date() }
      : { url: typeof url === 'string' ? url.slice(0, 2048) : '', crawl: crawl === 'true' };
    sendPage(res, 200, scanPage(this.csrf.token(req, res), form, req.webUser), false);
  }

  @Post()
  @Anonymous()
  @RateLimit('scan')
  @RateLimitCostOf((req) => scanCost(crawlOf(req.body)))
  @UseFilters(ScanFormFilter)
  async scan(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const form = formOf(req);
    const fresh = field(req, 'fresh') === 'true';
    const target = withScheme(form.url);
    try {
      if (!target.url) throw DomainError.badRequest('Enter the address of the page to scan.', 'url');
      const report = await this.scans.scan(target.url, form.crawl, clientSubject(req), { fresh });
      // A cached answer is older than this request: the scan page says so and offers a new scan.
      res.redirect(
        303,
        report.cached ? `/scan?report=${encodeURIComponent(report.id)}` : `/r/${encodeURIComponent(report.id)}`,
      );
    } catch (e) {
      if (!(e instanceof DomainError) || e.code === ErrorCode.InternalError) throw e;
      sendScanRefusal(
        res,
        this.csrf.token(req, res),
        req,
        { ...form, assumed: target.assumed ? target.url : undefined },
        e,
        this.config,
      );
    }
  }
}
