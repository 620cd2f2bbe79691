import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AccountsService, parseRole, UserView } from '../accounts/accounts.service';
import { SessionsService } from '../accounts/sessions.service';
import { ApiKeysService, ApiKeyView, CreatedApiKey } from '../common/api-keys/api-keys.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { CsrfService } from './csrf.service';
import {
  apiKeysPage,
  disableMemberPage,
  enableMemberPage,
  KeysPageNotes,
  membersPage,
  MembersPageNotes,
  revokeKeyPage,
} from './pages/settings.pages';
import { sendPage } from '../common/html/page';
import { AdminOnly, field, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

/**
 * Settings: API keys (everyone reads the list; admins create and revoke) and members (admins
 * invite with a one-time password, change roles, disable and enable again). Every object is looked up inside the
 * signed-in user's workspace: another workspace's key or member is a 404 from here.
 */
@WebController('dashboard/settings')
export class SettingsController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly csrf: CsrfService,
  ) {}

  // ---- API keys ---------------------------------------------------------------------------------

  private async keysPage(user: UserView, csrf: string, o: KeysPageNotes = {}): Promise<string> {
    return apiKeysPage(user, csrf, await this.apiKeys.listKeys(user.workspace), o);
  }

  /** A key of this workspace, or 404 (another workspace's key does not exist from here). */
  private async keyOf(user: UserView, id: string): Promise<ApiKeyView> {
    const key = (await this.apiKeys.listKeys(user.workspace)).find((k) => k.id === id);
    if (!key) throw new DomainError(ErrorCode.NotFound, 'No such API key in this workspace.');
    return key;
  }

  @Get('api-keys')
  async keys(
    @WebUserParam() user: UserView,
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('revoked') revoked?: string,
    @Query('created') created?: string,
  ): Promise<void> {
    // The key created by the POST before the redirect, kept for this page only (a reload shows the list).
    const flash = created ? await this.sessions.takeFlash(req.sessionId) : null;
    const key = flash ? (JSON.parse(flash) as { newApiKey?: CreatedApiKey }).newApiKey : undefined;
    sendPage(
      res,
      200,
      await this.keysPage(user, this.csrf.token(req, res), {
        created: key,
        revoked: typeof revoked === 'string' ? revoked.slice(0, 20) : undefined,
      }),
    );
  }

  @Post('api-keys')
  @AdminOnly()
  async createKey(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const label = field(req, 'label').trim();
    const csrf = this.csrf.token(req, res);
    if (!label || label.length > 200) {
      sendPage(
        res,
        400,
        await this.keysPage(user, csrf, {
          error: { message: 'Give the key a label of 1 to 200 characters.', field: 'label' },
        }),
      );
      return;
    }
    const created = await this.apiKeys.createKey(user.workspace, label);
    // Post/redirect/get: the key waits in a short-lived, sealed server-side flash of this session and
    // is shown once by the page the redirect leads to (never in a URL); reloading that page does not
    // post again.
    await this.sessions.flash(req.sessionId!, JSON.stringify({ newApiKey: created }));
    res.redirect(303, '/dashboard/settings/api-keys?created=1');
  }

  @Get('api-keys/:id/revoke')
  @AdminOnly()
  async confirmRevoke(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const key = await this.keyOf(user, id);
    const csrf = this.csrf.token(req, res);
    sendPage(res, 200, revokeKeyPage(user, csrf, key));
  }

  @Post('api-keys/:id/revoke')
  @AdminOnly()
  async revoke(@WebUserParam() user: UserView, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const key = await this.keyOf(user, id);
    await this.apiKeys.revokeKey(key.id);
    res.redirect(303, `/dashboard/settings/api-keys?revoked=${encodeURIComponent(key.prefix)}`);
  }

  // ---- members ----------------------------------------------------------------------------------

  private async membersPage(user: UserView, csrf: string, o: MembersPageNotes = {}): Promise<string> {
    const [members, invited] = await Promise.all([
      this.accounts.listInWorkspace(user.workspace_id),
      this.accounts.listInvitations(user.workspace_id),
    ]);
    return membersPage(user, csrf, members, invited, o);
  }

  @Get('members')
  async members(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    sendPage(res, 200, await this.membersPage(user, this.csrf.token(req, res)));
  }

  @Post('members')
  @AdminOnly()
  async invite(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const csrf = this.csrf.token(req, res);
    try {
      const issued = await this.accounts.invite(user, field(req, 'email'), parseRole(field(req, 'role') || 'member'));
      sendPage(res, 201, await this.membersPage(user, csrf, { issued }));
    } catch (e) {
      if (!(e instanceof DomainError) || (e.code !== ErrorCode.BadRequest && e.code !== ErrorCode.Conflict)) throw e;
      sendPage(
        res,
        e.status,
        await this.membersPage(user, csrf, {
          error: { message: e.message, field: (e.details.field as string | undefined) ?? 'email' },
        }),
      );
    }
  }

  @Post('members/:id/role')
  @AdminOnly()
  async role(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const updated = await this.accounts.setRole(user, id, parseRole(field(req, 'role')));
    sendPage(
      res,
      200,
      await this.membersPage(user, this.csrf.token(req, res), { notice: `${updated.email} is now ${updated.role}.` }),
    );
  }

  @Get('members/:id/disable')
  @AdminOnly()
  async confirmDisable(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const member = await this.accounts.memberView(user, id);
    // Oneself, or someone already disabled: nothing to confirm (the list has no Disable button for them).
    if (member.id === user.id || member.disabled) return res.redirect(303, '/dashboard/settings/members');
    sendPage(res, 200, disableMemberPage(user, this.csrf.token(req, res), member));
  }

  @Post('members/:id/disable')
  @AdminOnly()
  async disable(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const disabled = await this.accounts.disableInWorkspace(user, id);
    sendPage(
      res,
      200,
      await this.membersPage(user, this.csrf.token(req, res), {
        notice: `${disabled.email} is disabled and signed out.`,
      }),
    );
  }

  @Get('members/:id/enable')
  @AdminOnly()
  async confirmEnable(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const member = await this.accounts.memberView(user, id);
    // An active member: nothing to confirm (the list has no Enable again button for them).
    if (!member.disabled) return res.redirect(303, '/dashboard/settings/members');
    sendPage(res, 200, enableMemberPage(user, this.csrf.token(req, res), member));
  }

  @Post('members/:id/enable')
  @AdminOnly()
  async enable(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const enabled = await this.accounts.enableInWorkspace(user, id);
    sendPage(
      res,
      200,
      await this.membersPage(user, this.csrf.token(req, res), {
        notice: `${enabled.email} is enabled again and can sign in with their password.`,
      }),
    );
  }
}
