import { Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { CsrfService } from './csrf.service';
import { html } from '../common/html/html';
import { page, sendPage } from './render/layout';
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
      page({
        title: 'Home',
        section: 'home',
        user: req.webUser,
        csrf,
        body: html`<h1>Beacon</h1>
<p>Three tools in one place.</p>
<ul class="tools">
  <li class="card"><h2><a href="/dashboard">AI visibility dashboard</a></h2><p>How often AI assistants mention your brand, which sources they cite, and where competitors get cited instead. Sign in to see your workspace; the same figures are in the <a href="/api/v1">API</a>.</p></li>
  <li class="card"><h2><a href="/pdf">PDF tools</a></h2><p>Merge, split, rotate, compress, watermark and more: free, no account, a daily quota per tool.</p></li>
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
