import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { SessionsService } from '../accounts/sessions.service';
import { SitesService } from '../a11y/sites/sites.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { AlertsService, DestinationView } from '../common/notify/alerts.service';
import { CsrfService } from './csrf.service';
import { FormError } from './pages/account.pages';
import { alertsPage, removeDestinationPage } from './pages/alerts.pages';
import { sendPage } from '../common/html/page';
import { AdminOnly, field, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

/**
 * Settings > Alerts (docs/alerts.md): every member reads the destinations and the delivery log;
 * admins add webhooks (the signing secret shown once, after a post/redirect/get through the
 * session's flash) and e-mail addresses, remove them, and send a test alert.
 */
@WebController('dashboard/settings/alerts')
export class AlertsController {
  constructor(
    private readonly alerts: AlertsService,
    private readonly sessions: SessionsService,
    private readonly csrf: CsrfService,
    private readonly sites: SitesService,
  ) {}

  private async render(
    res: Response,
    req: WebRequest,
    user: UserView,
    status: number,
    o: { created?: { destination: DestinationView; secret: string }; notice?: string; error?: FormError } = {},
  ): Promise<void> {
    const [destinations, deliveries] = await Promise.all([
      this.alerts.destinations(user.workspace_id),
      this.alerts.deliveries(user.workspace_id),
    ]);
    sendPage(
      res,
      status,
      alertsPage({
        user,
        csrf: this.csrf.token(req, res),
        destinations,
        deliveries,
        mailConfigured: this.alerts.mailConfigured,
        ...o,
      }),
    );
  }

  @Get()
  async show(
    @WebUserParam() user: UserView,
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('created') created?: string,
    @Query('notice') notice?: string,
  ): Promise<void> {
    const flash = created ? await this.sessions.takeFlash(req.sessionId) : null;
    const made = flash
      ? (JSON.parse(flash) as { newWebhook?: { destination: DestinationView; secret: string } }).newWebhook
      : undefined;
    await this.render(res, req, user, 200, { created: made, notice: NOTICES[notice ?? ''] });
  }

  @Post('webhooks')
  @AdminOnly()
  async addWebhook(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    try {
      const created = await this.alerts.addWebhook(user.workspace_id, field(req, 'url'));
      await this.sessions.flash(req.sessionId!, JSON.stringify({ newWebhook: created }));
      res.redirect(303, '/dashboard/settings/alerts?created=1');
    } catch (e) {
      await this.formError(e, res, req, user, 'url');
    }
  }

  @Post('emails')
  @AdminOnly()
  async addEmail(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    try {
      await this.alerts.addEmail(user.workspace_id, field(req, 'email'));
      res.redirect(303, '/dashboard/settings/alerts?notice=email-added');
    } catch (e) {
      await this.formError(e, res, req, user, 'email');
    }
  }

  @Post('test')
  @AdminOnly()
  async test(@WebUserParam() user: UserView, @Res() res: Response): Promise<void> {
    const n = await this.alerts.sendTest(user.workspace_id, user.email);
    res.redirect(303, `/dashboard/settings/alerts?notice=${n ? 'test-sent' : 'no-destination'}`);
  }

  @Get(':id/remove')
  @AdminOnly()
  async confirmRemove(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const [destinations, sites] = await Promise.all([
      this.alerts.destinations(user.workspace_id),
      this.sites.list(user.workspace_id),
    ]);
    const d = destinations.find((x) => x.id === id);
    if (!d) throw new DomainError(ErrorCode.NotFound, NO_DESTINATION);
    sendPage(
      res,
      200,
      removeDestinationPage(user, this.csrf.token(req, res), d, {
        sites: sites.map((s) => s.name),
        others: destinations.length - 1,
      }),
    );
  }

  @Post(':id/remove')
  @AdminOnly()
  async remove(@WebUserParam() user: UserView, @Param('id') id: string, @Res() res: Response): Promise<void> {
    if (!(await this.alerts.removeDestination(user.workspace_id, id)))
      throw new DomainError(ErrorCode.NotFound, NO_DESTINATION);
    res.redirect(303, '/dashboard/settings/alerts?notice=removed');
  }

  private async formError(
    e: unknown,
    res: Response,
    req: WebRequest,
    user: UserView,
    fallbackField: string,
  ): Promise<void> {
    if (!(e instanceof DomainError) || e.code !== ErrorCode.BadRequest) throw e;
    await this.render(res, req, user, 400, {
      error: { message: e.message, field: (e.details.field as string | undefined) ?? fallbackField },
    });
  }
}

const NO_DESTINATION = 'No such alert destination in this workspace.';

/** Status messages after a redirect (fixed texts: nothing from the query string is shown). */
const NOTICES: Record<string, string> = {
  'email-added': 'The e-mail address is added: it receives the next alerts.',
  'test-sent':
    'A test alert is on its way to every destination: the delivery log below shows how it went (reload the page).',
  'no-destination': 'There is no destination to send a test alert to: add one first.',
  removed: 'The destination is removed: it receives no more alerts.',
};
