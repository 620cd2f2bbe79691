import { Get, Logger, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { CsrfService } from './csrf.service';
import { StatsService } from '../pdf-tools/stats/stats.service';
import { homePage } from './pages/home.pages';
import { sendPage } from '../common/html/page';
import { Anonymous, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';
import { wantsHtml } from './web-exception.filter';

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
    sendPage(res, 200, homePage(req.webUser, csrf, stats), false);
  }
}

/**
 * Registered last (WebModule is the last module of AppModule): a GET nobody else serves is a
 * readable 404 page for browsers, and the usual JSON 404 for API clients.
 */
/** The 404 page's words for an address no page has. */
export const NO_PAGE_HERE = 'There is no page at this address. Check the link, or start from the home page.';

@WebController()
export class WebFallbackController {
  @Get('*path')
  @Anonymous()
  notFound(@Req() req: WebRequest): never {
    if (!wantsHtml(req)) throw DomainError.notFound();
    throw DomainError.notFound(NO_PAGE_HERE);
  }
}
