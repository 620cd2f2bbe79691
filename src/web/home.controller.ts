import { Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { CsrfService } from './csrf.service';
import { homePage } from './pages/home.pages';
import { sendPage } from './render/layout';
import { Anonymous, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';
import { wantsHtml } from './web-exception.filter';

/** The landing page: the three products in three sentences. */
@WebController()
export class HomeController {
  constructor(private readonly csrf: CsrfService) {}

  @Get()
  @Anonymous()
  home(@Req() req: WebRequest, @Res() res: Response): void {
    const csrf = this.csrf.token(req, res);
    sendPage(
      res,
      200,
      homePage(req.webUser, csrf),
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
