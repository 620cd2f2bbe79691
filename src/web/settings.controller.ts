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
import { NO_PAGE_HERE } from './home.controller';

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
    await this.memberDone(user, req, res, `${updated.email} is now ${updated.role}.`);
  }

  /** Disable or enable a member: each asks first (a GET naming what it does), then the POST does it. */
  private memberAction(action: string): MemberAction {
    if (!Object.hasOwn(MEMBER_ACTIONS, action)) throw DomainError.notFound(NO_PAGE_HERE);
    return MEMBER_ACTIONS[action as keyof typeof MEMBER_ACTIONS];
  }

  /** The confirmation, or back to the list when the action does not apply to the member (no button leads there). */
  @Get('members/:id/:action')
  @AdminOnly()
  async confirmMemberAction(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Param('action') action: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const a = this.memberAction(action);
    const member = await this.accounts.memberView(user, id);
    if (!a.applies(member, user)) return res.redirect(303, '/dashboard/settings/members');
    sendPage(res, 200, a.confirmation(user, this.csrf.token(req, res), member));
  }

  @Post('members/:id/:action')
  @AdminOnly()
  async memberActionDone(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Param('action') action: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const a = this.memberAction(action);
    const member = await a.run(this.accounts, user, id);
    await this.memberDone(user, req, res, a.notice(member));
  }

  /** The members page after an action, with its notice. */
  private async memberDone(user: UserView, req: WebRequest, res: Response, notice: string): Promise<void> {
    sendPage(res, 200, await this.membersPage(user, this.csrf.token(req, res), { notice }));
  }
}

interface MemberAction {
  /** Whether the member's confirmation is offered (the list shows the button only then). */
  applies(member: UserView, user: UserView): boolean;
  confirmation(user: UserView, csrf: string, member: UserView): string;
  run(accounts: AccountsService, user: UserView, id: string): Promise<UserView>;
  notice(member: UserView): string;
}

/** /dashboard/settings/members/:id/disable and /enable. */
const MEMBER_ACTIONS = {
  // Not oneself, nor someone already disabled.
  disable: {
    applies: (m, user) => m.id !== user.id && !m.disabled,
    confirmation: disableMemberPage,
    run: (accounts, user, id) => accounts.disableInWorkspace(user, id),
    notice: (m) => `${m.email} is disabled and signed out.`,
  },
  // A disabled member only.
  enable: {
    applies: (m) => m.disabled,
    confirmation: enableMemberPage,
    run: (accounts, user, id) => accounts.enableInWorkspace(user, id),
    notice: (m) => `${m.email} is enabled again and can sign in with their password.`,
  },
} satisfies Record<string, MemberAction>;
