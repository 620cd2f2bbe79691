import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { SITE_EXPORTS, SiteExportFormat, SiteExportService } from '../a11y/sites/site-export';
import type { Site } from '../a11y/sites/site.types';
import { SitesService, VERIFICATION_PATH, VERIFICATION_TXT_PREFIX } from '../a11y/sites/sites.service';
import { AppConfig } from '../common/config/env';
import { CsrfService } from './csrf.service';
import { removeSitePage, sitePage, SitePageModel, sitesPage } from './pages/sites.pages';
import { sendPage } from '../common/html/page';
import { AdminOnly, CSRF_FIELD, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

/** The form's text fields (everything but the CSRF token). */
const formOf = (req: WebRequest): Record<string, string> => {
  const body = (req.body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== CSRF_FIELD),
  );
};

/**
 * A refused site form as the page shows it (the field named; the start URL's errors name `url`); other
 * errors rethrown. The address check's own refusals of the start URL (400, written for the API: "Invalid
 * url: ...") are said in the page's words, as on the scan page.
 */
function formErrorOf(e: unknown, form: Record<string, string>): { message: string; field: string } {
  if (!(e instanceof DomainError) || (e.code !== ErrorCode.BadRequest && e.code !== ErrorCode.TargetNotAllowed))
    throw e;
  const field = e.details.field as string | undefined;
  if (field !== 'url' && field) return { message: e.message, field };
  if (e.code === ErrorCode.BadRequest)
    return {
      message: (form.start_url ?? '').trim()
        ? 'The start URL is not a web address Beacon can scan: enter it like https://www.example.com/.'
        : 'Enter the start URL, the home page of the site, e.g. https://www.example.com/.',
      field: 'start_url',
    };
  return { message: e.message, field: 'start_url' };
}

/** Accessibility sites (docs/a11y-monitoring.md): members read, admins add, prove, run and remove. */
@WebController('dashboard/sites')
export class SitesController {
  constructor(
    private readonly sites: SitesService,
    private readonly csrf: CsrfService,
    private readonly exports: SiteExportService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    sendPage(
      res,
      200,
      sitesPage({
        user,
        csrf: this.csrf.token(req, res),
        sites: await this.sites.list(user.workspace_id),
        // After a removal (a fixed text: nothing from the address is shown).
        notice: req.query.notice === 'removed' ? NOTICES.removed : undefined,
      }),
    );
  }

  @Post()
  @AdminOnly()
  async create(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const form = formOf(req);
    try {
      const site = await this.sites.create(user.workspace_id, form);
      res.redirect(303, `/dashboard/sites/${site.id}?notice=added`);
    } catch (e) {
      await this.refused(e, form, user, req, res);
    }
  }

  @Get(':id')
  async show(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('notice') notice?: string,
  ): Promise<void> {
    const site = await this.sites.get(user.workspace_id, id);
    await this.sendSite(site, { notice: NOTICES[notice ?? ''] }, user, req, res);
  }

  @Post(':id')
  @AdminOnly()
  async update(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const site = await this.sites.get(user.workspace_id, id);
    const form = formOf(req);
    try {
      await this.sites.update(site, form);
      res.redirect(303, `/dashboard/sites/${site.id}?notice=saved`);
    } catch (e) {
      await this.refused(e, form, user, req, res, site);
    }
  }

  /** A refused settings form sent back (400) with its error and what was typed: on the site's page, or the list's. */
  private async refused(
    e: unknown,
    form: Record<string, string>,
    user: UserView,
    req: WebRequest,
    res: Response,
    site?: Site,
  ): Promise<void> {
    const error = formErrorOf(e, form);
    if (site) return this.sendSite(site, { error, form }, user, req, res, 400);
    const sites = await this.sites.list(user.workspace_id);
    sendPage(res, 400, sitesPage({ user, csrf: this.csrf.token(req, res), sites, error, form }));
  }

  /** The site's page with its scans, a notice after a redirect or a refused form. */
  private async sendSite(
    site: Site,
    extra: Pick<SitePageModel, 'notice' | 'error' | 'form'>,
    user: UserView,
    req: WebRequest,
    res: Response,
    status = 200,
  ): Promise<void> {
    const scans = await this.sites.scansOf(site.id);
    const csrf = this.csrf.token(req, res);
    const model = { user, csrf, site, scans, verificationPath: VERIFICATION_PATH, txtPrefix: VERIFICATION_TXT_PREFIX };
    sendPage(res, status, sitePage({ ...model, ...extra }));
  }

  /** CSV, JUnit XML, SARIF 2.1.0 or the PDF report of a finished scan (members read). */
  @Get(':id/scans/:scanId/:file')
  async download(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Param('scanId') scanId: string,
    @Param('file') file: string,
    @Res() res: Response,
  ): Promise<void> {
    const format = (Object.keys(SITE_EXPORTS) as SiteExportFormat[]).find((f) => SITE_EXPORTS[f].file === file);
    if (!format)
      throw new DomainError(ErrorCode.NotFound, 'No such export: CSV, JUnit XML, SARIF and PDF are offered.');
    const site = await this.sites.get(user.workspace_id, id);
    const scan = await this.sites.scanOf(site, scanId);
    const body = await this.exports.render(
      site,
      scan,
      format,
      `${this.config.publicBaseUrl()}/dashboard/sites/${site.id}`,
    );
    res
      .status(200)
      .set({
        'Content-Type': SITE_EXPORTS[format].type,
        'Content-Disposition': `attachment; filename="${scan.created_at.slice(0, 10)}-${file}"`,
        'Cache-Control': 'private, no-store',
      })
      .send(body);
  }

  @Post(':id/verify')
  @AdminOnly()
  async verify(@WebUserParam() user: UserView, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const ok = await this.sites.verify(await this.sites.get(user.workspace_id, id));
    res.redirect(303, `/dashboard/sites/${id}?notice=${ok ? 'verified' : 'not-verified'}`);
  }

  @Post(':id/run')
  @AdminOnly()
  async run(@WebUserParam() user: UserView, @Param('id') id: string, @Res() res: Response): Promise<void> {
    await this.sites.runNow(await this.sites.get(user.workspace_id, id));
    res.redirect(303, `/dashboard/sites/${id}?notice=queued`);
  }

  @Get(':id/remove')
  @AdminOnly()
  async confirmRemove(
    @Param('id') id: string,
    @WebUserParam() user: UserView,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    // The confirmation says how many scans go with the site.
    const site = await this.sites.get(user.workspace_id, id);
    sendPage(res, 200, removeSitePage(user, this.csrf.token(req, res), site, await this.sites.scanCount(site.id)));
  }

  @Post(':id/remove')
  @AdminOnly()
  async remove(@WebUserParam() user: UserView, @Param('id') id: string, @Res() res: Response): Promise<void> {
    await this.sites.remove(user.workspace_id, id);
    res.redirect(303, '/dashboard/sites?notice=removed');
  }
}

/** Status messages after a redirect (fixed texts: nothing from the query string is shown). */
const NOTICES: Record<string, string> = {
  added: 'The site is added. Prove its ownership to scan more than 5 pages, then run a scan.',
  verified: 'Ownership proved: scans now go up to the page budget.',
  'not-verified': "Neither the verification file nor the DNS TXT record carries this site's token yet.",
  saved: 'The settings are saved: the next scan uses them.',
  queued: 'The scan is queued: progress shows below (reload the page).',
  removed: 'The site is removed, with its scans.',
};
