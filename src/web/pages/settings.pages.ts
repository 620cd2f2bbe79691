import type { InvitationView, UserView } from '../../accounts/accounts.service';
import type { ApiKeyView, CreatedApiKey } from '../../common/api-keys/api-keys.service';
import { html } from '../../common/html/html';
import { errorSummary } from '../render/layout';
import { confirmPage } from './confirm.pages';
import { CSRF_FIELD } from '../web-context';
import type { FormError } from './account.pages';
import { dashboardPage, table } from './dashboard.pages';

const when = (iso: string | null): string => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never');
const hidden = (csrf: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;

/** What the API keys page says above the list: the key just created (shown once), the key just revoked, a form error. */
export interface KeysPageNotes {
  created?: CreatedApiKey;
  error?: FormError;
  revoked?: string;
}

/** What the members page says above the list: the one-time password just issued, a notice, a form error. */
export interface MembersPageNotes {
  issued?: { email: string; one_time_password: string; expires_at: string };
  error?: FormError;
  notice?: string;
}

/** Settings > API keys: the list (everyone), creating and revoking (admins), a new key shown once. */
export function apiKeysPage(user: UserView, csrf: string, keys: readonly ApiKeyView[], o: KeysPageNotes = {}): string {
  const admin = user.role === 'admin';
  return dashboardPage(
    user,
    csrf,
    'API keys',
    'settings',
    html`Settings: API keys`,
    html`${
      o.created
        ? html`<div class="notice" role="status" aria-labelledby="new-key-title" tabindex="-1" autofocus>
<h2 id="new-key-title">Your new API key</h2>
<p>Copy it now: this is the only time it is shown. Only its SHA-256 hash is stored.</p>
<code class="secret" id="new-key">${o.created.key}</code>
<button type="button" class="secondary" data-copy="new-key" data-status="copy-status" hidden>Copy the key</button>
<p id="copy-status" role="status"></p>
<p>Use it as <code>Authorization: Bearer &lt;key&gt;</code> on <a href="/api/v1">/api/v1</a>.</p>
</div>`
        : ''
    }
${o.revoked ? html`<p class="notice" role="status" tabindex="-1" autofocus>Key ${o.revoked} is revoked: the API refuses it from the next request on.</p>` : ''}
${errorSummary(o.error?.message, o.error?.field)}
${
  admin
    ? html`<h2>Create a key</h2>
<form class="inline" method="post" action="/dashboard/settings/api-keys">
${hidden(csrf)}
<div class="field"><label for="label">Label <span class="hint">(what uses it, e.g. "BI export")</span></label>
<input type="text" id="label" name="label" maxlength="200" required></div>
<button type="submit">Create key</button>
</form>`
    : html`<p class="notice">You are a member of this workspace: you can see its keys; an admin creates and revokes them.</p>`
}
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
    ...(admin
      ? [
          k.revoked
            ? ''
            : html`<a href="/dashboard/settings/api-keys/${k.id}/revoke">Revoke<span class="visually-hidden"> ${k.label ?? k.prefix}</span></a>`,
        ]
      : []),
  ]),
  'No API key yet.',
  { stack: true },
)}`,
  );
}

/** The confirmation before a key is revoked. */
export function revokeKeyPage(user: UserView, csrf: string, key: ApiKeyView): string {
  return confirmPage({
    user,
    csrf,
    question: `Revoke the key "${key.label ?? key.prefix}"?`,
    consequences: html`<p>Programs using <code>${key.prefix}…</code> get 401 from their very next request. This cannot be undone.</p>`,
    action: `/dashboard/settings/api-keys/${key.id}/revoke`,
    button: 'Revoke the key',
    cancel: '/dashboard/settings/api-keys',
  });
}

/** Settings > members: the people of the workspace and the open invitations; admins invite, change roles, disable and enable again. */
export function membersPage(
  user: UserView,
  csrf: string,
  members: readonly UserView[],
  invited: readonly InvitationView[],
  o: MembersPageNotes = {},
): string {
  const admin = user.role === 'admin';
  return dashboardPage(
    user,
    csrf,
    'Members',
    'members',
    html`Members of ${user.workspace}`,
    html`${
      o.issued
        ? html`<div class="notice" role="status" tabindex="-1" autofocus><h2>Invitation for ${o.issued.email}</h2>
<p>Give them this one-time password (shown once). They sign in at <a href="/signin">/signin</a> with this email and choose their own password. It works until ${when(o.issued.expires_at)}; invite them again for a new one.</p>
<code class="secret" id="otp">${o.issued.one_time_password}</code>
<button type="button" class="secondary" data-copy="otp" data-status="copy-status" hidden>Copy the password</button><p id="copy-status" role="status"></p></div>`
        : ''
    }
${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : ''}
${errorSummary(o.error?.message, o.error?.field)}
${
  admin
    ? html`<h2>Invite a member</h2>
<form class="inline" method="post" action="/dashboard/settings/members">${hidden(csrf)}
<div class="field"><label for="email">Email</label><input type="email" id="email" name="email" required autocomplete="off"></div>
<div class="field"><label for="role">Role</label><select id="role" name="role"><option value="member">member (reads)</option><option value="admin">admin (keys and members)</option></select></div>
<button type="submit">Invite</button></form>`
    : ''
}
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
      ? [
          html`<form class="inline" method="post" action="/dashboard/settings/members/${m.id}/role">${hidden(csrf)}
<label class="visually-hidden" for="role-${m.id}">Role of ${m.email}</label>
<select id="role-${m.id}" name="role"><option${m.role === 'member' ? html` selected` : ''}>member</option><option${m.role === 'admin' ? html` selected` : ''}>admin</option></select>
<button type="submit" class="secondary">Change role<span class="visually-hidden"> of ${m.email}</span></button></form>
<a class="button danger" href="/dashboard/settings/members/${m.id}/disable">Disable<span class="visually-hidden"> ${m.email}</span></a>`,
        ]
      : admin && m.id !== user.id
        ? [
            html`<a class="button secondary" href="/dashboard/settings/members/${m.id}/enable">Enable again<span class="visually-hidden"> ${m.email}</span></a>`,
          ]
        : admin
          ? ['']
          : []),
  ]),
  'No member yet.',
  { stack: true },
)}
${
  invited.length
    ? html`<h2>Invitations</h2>
<p>No account exists until the invited person signs in with their one-time password.</p>
${table(
  'Invitations not used yet',
  ['Email', 'Role', 'One-time password works until'],
  invited.map((i) => [i.email, i.role, when(i.expires_at)]),
  'No invitation.',
  { stack: true },
)}`
    : ''
}`,
  );
}

/**
 * The confirmation before a member is disabled (what AccountsService.disableInWorkspace does: no more
 * sign-in, every session ended; an admin can enable them again); the workspace's API keys are not
 * theirs and stay.
 */
export function disableMemberPage(user: UserView, csrf: string, member: UserView): string {
  return confirmPage({
    user,
    csrf,
    question: `Disable ${member.email}?`,
    consequences: html`<p>${member.email} (${member.role}) can no longer sign in to ${user.workspace}, and is signed out at once wherever they are signed in. They stay in the list as disabled; what they made stays in the workspace.</p>
<p>The workspace's <a href="/dashboard/settings/api-keys">API keys</a> belong to the workspace, not to a person: they keep working, including any key ${member.email} made or copied. Revoke those there if they must stop too.</p>
<p>An admin can enable them again from the list of people; they then sign in again with their own password.</p>`,
    action: `/dashboard/settings/members/${member.id}/disable`,
    button: 'Disable the member',
    cancel: '/dashboard/settings/members',
  });
}

/**
 * The confirmation before a disabled member is enabled again (AccountsService.enableInWorkspace):
 * they can sign in with their own password; the sessions ended by the disable stay ended.
 */
export function enableMemberPage(user: UserView, csrf: string, member: UserView): string {
  return confirmPage({
    user,
    csrf,
    question: `Enable ${member.email} again?`,
    consequences: html`<p>${member.email} can sign in to ${user.workspace} again as ${member.role}, with the password they had before they were disabled.</p>
<p>They were signed out everywhere when they were disabled: they sign in again, no session comes back.</p>`,
    action: `/dashboard/settings/members/${member.id}/enable`,
    button: 'Enable the member',
    cancel: '/dashboard/settings/members',
    danger: false,
  });
}
