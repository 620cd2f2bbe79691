import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AccountsService, parseRole, UserView } from '../accounts/accounts.service';
import { SessionsService } from '../accounts/sessions.service';
import { ApiKeysService, ApiKeyView, CreatedApiKey } from '../common/api-keys/api-keys.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { CsrfService } from './csrf.service';
import { dashboardNav, table } from './pages/dashboard.pages';
import { FormError } from './pages/account.pages';
import { html } from '../common/html/html';
import { errorSummary, page, sendPage } from './render/layout';
import { AdminOnly, CSRF_FIELD, field, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

const when = (iso: string | null): string => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never');
const hidden = (csrf: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;

/**
 * Settings: API keys (everyone reads the list; admins create and revoke) and members (admins
 * invite with a one-time password, change roles, disable). Every object is looked up inside the
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

  private async keysPage(user: UserView, csrf: string, o: { created?: CreatedApiKey; error?: FormError; revoked?: string } = {}): Promise<string> {
    const keys = await this.apiKeys.listKeys(user.workspace);
    const admin = user.role === 'admin';
    return page({
      title: 'API keys',
      section: 'dashboard',
      user,
      csrf,
      body: html`<h1>Settings: API keys</h1>
${dashboardNav('settings', user)}
${o.created ? html`<div class="notice" role="status" aria-labelledby="new-key-title" tabindex="-1" autofocus>
  <h2 id="new-key-title">Your new API key</h2>
  <p>Copy it now: this is the only time it is shown. Only its SHA-256 hash is stored.</p>
  <code class="secret" id="new-key">${o.created.key}</code>
  <button type="button" class="secondary" data-copy="new-key" data-status="copy-status" hidden>Copy the key</button>
  <p id="copy-status" role="status"></p>
  <p>Use it as <code>Authorization: Bearer &lt;key&gt;</code> on <a href="/api/v1">/api/v1</a>.</p>
</div>` : ''}
${o.revoked ? html`<p class="notice" role="status" tabindex="-1" autofocus>Key ${o.revoked} is revoked: the API refuses it from the next request on.</p>` : ''}
${errorSummary(o.error?.message, o.error?.field)}
${admin
  ? html`<h2>Create a key</h2>
<form class="inline" method="post" action="/dashboard/settings/api-keys">
  ${hidden(csrf)}
  <div class="field"><label for="label">Label <span class="hint">(what uses it, e.g. "BI export")</span></label>
  <input type="text" id="label" name="label" maxlength="200" required></div>
  <button type="submit">Create key</button>
</form>`
  : html`<p class="notice">You are a member of this workspace: you can see its keys; an admin creates and revokes them.</p>`}
<h2>Keys of ${user.workspace}</h2>
${table(
  'API keys of this workspace',
  ['Label', 'Prefix', 'Created', 'Last used', 'Status', ...(admin ? ['Action'] : [])],
  keys.map((k: ApiKeyView) => [
    k.label ?? '(no label)',
    html`<code>${k.prefix}…</code>`,
    when(k.created_at),
    when(k.last_used_at),
    k.revoked ? `revoked ${when(k.revoked_at)}` : 'active',
    ...(admin ? [k.revoked ? '' : html`<a href="/dashboard/settings/api-keys/${k.id}/revoke">Revoke<span class="visually-hidden"> ${k.label ?? k.prefix}</span></a>`] : []),
  ]),
  'No API key yet.',
  { stack: true },
)}`,
    });
  }

  /** A key of this workspace, or 404 (another workspace's key does not exist from here). */
  private async keyOf(user: UserView, id: string): Promise<ApiKeyView> {
    const key = (await this.apiKeys.listKeys(user.workspace)).find((k) => k.id === id);
    if (!key) throw new DomainError(ErrorCode.NotFound, 'No such API key in this workspace.');
    return key;
  }

  @Get('api-keys')
  async keys(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response, @Query('revoked') revoked?: string, @Query('created') created?: string): Promise<void> {
    // The key created by the POST before the redirect, kept for this page only (a reload shows the list).
    const flash = created ? await this.sessions.takeFlash(req.sessionId) : null;
    const key = flash ? (JSON.parse(flash) as { newApiKey?: CreatedApiKey }).newApiKey : undefined;
    sendPage(res, 200, await this.keysPage(user, this.csrf.token(req, res), { created: key, revoked: typeof revoked === 'string' ? revoked.slice(0, 20) : undefined }));
  }

  @Post('api-keys')
  @AdminOnly()
  async createKey(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const label = field(req, 'label').trim();
    const csrf = this.csrf.token(req, res);
    if (!label || label.length > 200) {
      sendPage(res, 400, await this.keysPage(user, csrf, { error: { message: 'Give the key a label of 1 to 200 characters.', field: 'label' } }));
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
  async confirmRevoke(@WebUserParam() user: UserView, @Param('id') id: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const key = await this.keyOf(user, id);
    const csrf = this.csrf.token(req, res);
    sendPage(
      res,
      200,
      page({
        title: 'Revoke API key',
        section: 'dashboard',
        user,
        csrf,
        body: html`<h1>Revoke the key "${key.label ?? key.prefix}"?</h1>
<p>Programs using <code>${key.prefix}…</code> get 401 from their very next request. This cannot be undone.</p>
<form method="post" action="/dashboard/settings/api-keys/${key.id}/revoke">${hidden(csrf)}
<button type="submit" class="danger">Revoke the key</button> <a href="/dashboard/settings/api-keys">Cancel</a></form>`,
      }),
    );
  }

  @Post('api-keys/:id/revoke')
  @AdminOnly()
  async revoke(@WebUserParam() user: UserView, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const key = await this.keyOf(user, id);
    await this.apiKeys.revokeKey(key.id);
    res.redirect(303, `/dashboard/settings/api-keys?revoked=${encodeURIComponent(key.prefix)}`);
  }

  // ---- members ----------------------------------------------------------------------------------

  private async membersPage(user: UserView, csrf: string, o: { issued?: { email: string; one_time_password: string; expires_at: string }; error?: FormError; notice?: string } = {}): Promise<string> {
    const members = await this.accounts.listInWorkspace(user.workspace_id);
    const invited = await this.accounts.listInvitations(user.workspace_id);
    const admin = user.role === 'admin';
    return page({
      title: 'Members',
      section: 'dashboard',
      user,
      csrf,
      body: html`<h1>Members of ${user.workspace}</h1>
${dashboardNav('members', user)}
${o.issued ? html`<div class="notice" role="status" tabindex="-1" autofocus><h2>Invitation for ${o.issued.email}</h2>
<p>Give them this one-time password (shown once). They sign in at <a href="/signin">/signin</a> with this email and choose their own password. It works until ${when(o.issued.expires_at)}; invite them again for a new one.</p>
<code class="secret" id="otp">${o.issued.one_time_password}</code>
<button type="button" class="secondary" data-copy="otp" data-status="copy-status" hidden>Copy the password</button><p id="copy-status" role="status"></p></div>` : ''}
${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : ''}
${errorSummary(o.error?.message, o.error?.field)}
${admin
  ? html`<h2>Invite a member</h2>
<form class="inline" method="post" action="/dashboard/settings/members">${hidden(csrf)}
<div class="field"><label for="email">Email</label><input type="email" id="email" name="email" required autocomplete="off"></div>
<div class="field"><label for="role">Role</label><select id="role" name="role"><option value="member">member (reads)</option><option value="admin">admin (keys and members)</option></select></div>
<button type="submit">Invite</button></form>`
  : ''}
<h2>People</h2>
${table(
  'Members of this workspace',
  ['Email', 'Role', 'Status', 'Last sign-in', ...(admin ? ['Actions'] : [])],
  members.map((m) => [
    m.email,
    m.role,
    m.disabled ? 'disabled' : m.must_change_password ? 'invited (one-time password)' : 'active',
    when(m.last_sign_in_at),
    ...(admin && m.id !== user.id && !m.disabled
      ? [html`<form class="inline" method="post" action="/dashboard/settings/members/${m.id}/role">${hidden(csrf)}
<label class="visually-hidden" for="role-${m.id}">Role of ${m.email}</label>
<select id="role-${m.id}" name="role"><option${m.role === 'member' ? html` selected` : ''}>member</option><option${m.role === 'admin' ? html` selected` : ''}>admin</option></select>
<button type="submit" class="secondary">Change role<span class="visually-hidden"> of ${m.email}</span></button></form>
<form method="post" action="/dashboard/settings/members/${m.id}/disable">${hidden(csrf)}<button type="submit" class="danger">Disable<span class="visually-hidden"> ${m.email}</span></button></form>`]
      : admin
        ? ['']
        : []),
  ]),
  'No member yet.',
  { stack: true },
)}
${invited.length
  ? html`<h2>Invitations</h2>
<p>No account exists until the invited person signs in with their one-time password.</p>
${table(
  'Invitations not used yet',
  ['Email', 'Role', 'One-time password works until'],
  invited.map((i) => [i.email, i.role, when(i.expires_at)]),
  'No invitation.',
  { stack: true },
)}`
  : ''}`,
    });
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
      sendPage(res, e.status, await this.membersPage(user, csrf, { error: { message: e.message, field: (e.details.field as string | undefined) ?? 'email' } }));
    }
  }

  @Post('members/:id/role')
  @AdminOnly()
  async role(@WebUserParam() user: UserView, @Param('id') id: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const updated = await this.accounts.setRole(user, id, parseRole(field(req, 'role')));
    sendPage(res, 200, await this.membersPage(user, this.csrf.token(req, res), { notice: `${updated.email} is now ${updated.role}.` }));
  }

  @Post('members/:id/disable')
  @AdminOnly()
  async disable(@WebUserParam() user: UserView, @Param('id') id: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const disabled = await this.accounts.disableInWorkspace(user, id);
    sendPage(res, 200, await this.membersPage(user, this.csrf.token(req, res), { notice: `${disabled.email} is disabled and signed out.` }));
  }
}
