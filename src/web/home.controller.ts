import { Get, Logger, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { CsrfService } from './csrf.service';
import { StatsService } from '../pdf-tools/stats/stats.service';
import { html, SafeHtml } from '../common/html/html';
import { page, sendPage } from './render/layout';
import { Anonymous, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';
import { wantsHtml } from './web-exception.filter';

/**
 * The spec's rule for the homepage (pdf-tools-mcp.md, "Public stats"): the count of successful PDF
 * tool runs is hidden while it rests on fewer samples than this. The endpoint shows any number.
 */
export const HOME_COUNT_MIN_SAMPLES = 100;

/** The homepage's line about the PDF tools' successful runs, or nothing below the minimum sample. */
export function runsLine(stats: { window_days: number; success: number } | undefined): SafeHtml | '' {
  if (!stats || stats.success < HOME_COUNT_MIN_SAMPLES) return '';
  return html` <span id="pdf-runs">${stats.success.toLocaleString('en-US')} successful runs in the last ${stats.window_days} days.</span>`;
}

/** The landing page: the three products in three sentences (and the PDF tools' 30-day count). */
@WebController()
export class HomeController {
  private readonly logger = new Logger('Web');

  constructor(
    private readonly csrf: CsrfService,
    private readonly stats: StatsService,
  ) {}

  @Get()
  @Anonymous()
  async home(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const csrf = this.csrf.token(req, res);
    // The same function as GET /api/public-stats (cached a minute); the page never fails for it.
    const stats = await this.stats.publicStats().catch((e: Error) => {
      this.logger.warn(`public stats for the homepage: ${e.message}`);
      return undefined;
    });
    sendPage(
      res,
      200,
      page({
        title: 'Home',
        section: 'home',
        user: req.webUser,
        csrf,
        body: html`<h1>Beacon</h1>
<p>Three tools in one place.</p>
<ul class="tools">
  <li class="card"><h2><a href="/dashboard">AI visibility dashboard</a></h2><p>How often AI assistants mention your brand, which sources they cite, and where competitors get cited instead. Sign in to see your workspace; the same figures are in the <a href="/api/v1">API</a>.</p></li>
  <li class="card"><h2><a href="/pdf">PDF tools</a></h2><p>Merge, split, rotate, compress, watermark and more, <a href="/pdf/images">PDF to images</a>, <a href="/pdf/ocr">OCR</a>: free, no account, a daily quota per tool.${runsLine(stats)}</p></li>
  <li class="card"><h2><a href="/scan">Accessibility scan</a></h2><p>Check a web page against WCAG with axe-core in a real browser and get a shareable report.</p></li>
</ul>`,
      }),
      false,
    );
  }
}

/**
 * Registered last (WebModule is the last module of AppModule): a GET nobody else serves is a
 * readable 404 page for browsers, and the usual JSON 404 for API clients.
 */
@WebController()
export class WebFallbackController {
  @Get('*path')
  @Anonymous()
  notFound(@Req() req: WebRequest): never {
    if (!wantsHtml(req)) throw DomainError.notFound();
    throw DomainError.notFound('There is no page at this address. Check the link, or start from the home page.');
  }
}
