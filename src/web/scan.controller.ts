import { Get, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ScanService } from '../a11y/scan/scan.service';
import { MAX_CRAWL_PAGES } from '../a11y/scan/crawl';
import { RateLimit } from '../common/decorators/rate-limit.decorator';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { CsrfService } from './csrf.service';
import { FormError } from './pages/account.pages';
import { html } from './render/html';
import { plural } from '../common/text/plural';
import { errorSummary, page, sendPage } from './render/layout';
import { Anonymous, CSRF_FIELD, field, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';

/** What a visitor should do about each refusal of the scan service. */
const ADVICE: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.TargetNotAllowed]: 'Beacon only scans public web addresses (http or https, not private or local networks).',
  [ErrorCode.TargetBlocked]: 'The site refused the scanner (a bot check or firewall). Scan a page that allows automated visits.',
  [ErrorCode.TargetHttpError]: 'The page answered with an error status. Check the address in a browser.',
  [ErrorCode.TargetUnreachable]: 'The site could not be reached. Check the address, or try again later.',
  [ErrorCode.RateLimited]: 'You started many scans in a short time.',
  [ErrorCode.ServiceUnavailable]: 'Many scans are running right now.',
  [ErrorCode.ScanFailed]: 'The browser could not finish the scan.',
};

function scanPage(csrf: string, o: { url?: string; crawl?: boolean; error?: FormError } = {}, user?: WebRequest['webUser']): string {
  return page({
    title: 'Accessibility scan',
    section: 'scan',
    user,
    csrf,
    body: html`<h1>Accessibility scan</h1>
<p>Scans a page in a real browser with axe-core (WCAG 2.2 A and AA) and gives a public report you can share. The API (<code>POST /api/scan</code>) uses the same engine.</p>
${errorSummary(o.error?.message, o.error?.field)}
<form class="stack" method="post" action="/scan">
  <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
  <div><label for="url">Page address</label><br>
  <input type="url" id="url" name="url" required placeholder="https://example.com/" value="${o.url ?? ''}" aria-describedby="url-hint"${o.error ? html` aria-invalid="true"` : ''}>
  <br><span class="hint" id="url-hint">A public http or https address.</span></div>
  <div><input type="checkbox" id="crawl" name="crawl" value="true"${o.crawl ? html` checked` : ''}> <label for="crawl">Also scan up to ${plural(MAX_CRAWL_PAGES - 1, 'more page', 'more pages')} of the same site (crawl)</label></div>
  <div><button type="submit">Scan</button> <span class="hint">A scan takes a few seconds (longer with crawl).</span></div>
</form>`,
  });
}

/** The scan page: a URL and the crawl option, then the public report /r/{id}. Anonymous. */
@WebController('scan')
export class ScanController {
  constructor(
    private readonly scans: ScanService,
    private readonly csrf: CsrfService,
  ) {}

  @Get()
  @Anonymous()
  form(@Req() req: WebRequest, @Res() res: Response): void {
    // prefilled by the report page's "Scan this address again" (/scan?url=...&crawl=true)
    const { url, crawl } = req.query;
    sendPage(res, 200, scanPage(this.csrf.token(req, res), { url: typeof url === 'string' ? url : undefined, crawl: crawl === 'true' }, req.webUser), false);
  }

  @Post()
  @Anonymous()
  @RateLimit('scan')
  async scan(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const url = field(req, 'url').trim();
    const crawl = field(req, 'crawl') === 'true';
    try {
      if (!url) throw DomainError.badRequest('Enter the address of the page to scan.', 'url');
      const report = await this.scans.scan(url, crawl);
      res.redirect(303, `/r/${encodeURIComponent(report.id)}`);
    } catch (e) {
      if (!(e instanceof DomainError) || e.code === ErrorCode.InternalError) throw e;
      for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
      const advice = ADVICE[e.code];
      sendPage(res, e.status, scanPage(this.csrf.token(req, res), { url, crawl, error: { message: `${e.message}${advice ? ` ${advice}` : ''}`, field: 'url' } }, req.webUser));
    }
  }
}
