import type { UserView } from '../../accounts/accounts.service';
import type { AiPlatformStatus } from '../../common/ai/ai-providers.service';
import { html, SafeHtml } from '../../common/html/html';
import { CSRF_FIELD } from '../web-context';
import { dashboardPage, table } from './dashboard.pages';
import type { FormError } from './account.pages';
import { errorSummary, noticeLine } from '../render/layout';
import { confirmPage } from './confirm.pages';

const when = (d: Date): string => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const hidden = (csrf: string): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;

function keySource(s: AiPlatformStatus): SafeHtml | string {
  const own = s.workspaceKey;
  if (own && !own.readable) {
    return html`This workspace's key can no longer be read (the instance secret changed): set it again.${s.keySource === 'settings' ? ' Meanwhile the instance setting applies.' : ''}`;
  }
  if (s.keySource === 'workspace' && own)
    return `This workspace's key, set ${when(own.updatedAt)}${own.updatedBy ? ` by ${own.updatedBy}` : ''}`;
  if (s.keySource === 'settings') return html`The instance setting <code>${s.setting.split(' ')[0]}</code>`;
  return 'None';
}

function status(s: AiPlatformStatus): string {
  if (s.configured) return 'Configured';
  if (s.platform === 'openai_compatible') return 'Not configured: the instance needs a base URL and a model';
  return 'Not configured';
}

/** The form of one platform's workspace key (admins). */
function keyForm(s: AiPlatformStatus, csrf: string): SafeHtml {
  const id = `key-${s.platform}`;
  const has = s.workspaceKey !== null;
  return html`<form class="inline" method="post" action="/dashboard/settings/ai-providers/${s.platform}/key" autocomplete="off">${hidden(csrf)}
<div class="field key"><label for="${id}">${has ? 'Replace' : 'Set'} ${s.name} key <span class="hint">(shown never again)</span></label>
<input type="password" id="${id}" name="key" maxlength="1000" required autocomplete="off" spellcheck="false"></div>
<button type="submit">${has ? 'Replace the key' : 'Save the key'}<span class="visually-hidden"> of ${s.name}</span></button></form>
${
  has
    ? html`<p><a class="button danger" href="/dashboard/settings/ai-providers/${s.platform}/remove">Remove this workspace's key<span class="visually-hidden"> of ${s.name}</span></a></p>`
    : ''
}`;
}

/**
 * Settings > AI providers: which platforms this workspace can ask, whose key is used (the
 * workspace's own, or the instance setting that enables it), and for admins a form per platform to
 * set, replace or remove the workspace's key. A stored key is never shown, not even in part.
 */
export function aiProvidersPage(
  user: UserView,
  csrf: string,
  statuses: AiPlatformStatus[],
  o: { error?: FormError; notice?: string } = {},
): string {
  const admin = user.role === 'admin';
  return dashboardPage(
    user,
    csrf,
    'AI providers',
    'ai-providers',
    html`Settings: AI providers`,
    html`${noticeLine(o.notice)}
${errorSummary(o.error?.message, o.error?.field)}
<p>Beacon asks these platforms the prompts it tracks. A platform is available when the instance has its setting, or this workspace stores its own key (which then wins). Keys are stored encrypted and never shown again.</p>
${table(
  'AI platforms of this workspace',
  ['Platform', 'Status', 'Key used', 'Default model', 'Enabled on the instance by'],
  statuses.map((s) => [s.name, status(s), keySource(s), s.model ?? '(none)', html`<code>${s.setting}</code>`]),
  'No platform.',
  { stack: true },
)}
${
  admin
    ? html`<h2>This workspace's keys</h2>
<p>A key saved here is used for this workspace instead of the instance's. Removing it brings the instance's back (if it has one).</p>
${statuses.map((s) => html`<section aria-labelledby="h-${s.platform}"><h3 id="h-${s.platform}">${s.name}</h3>${keyForm(s, csrf)}</section>`)}`
    : html`<p class="notice">You are a member of this workspace: an admin sets its keys.</p>`
}`,
  );
}

/**
 * The confirmation before a workspace's own key of a platform is removed: what the workspace then
 * asks that platform with (the instance's key, or nothing); Cancel returns to the platform's section.
 */
export function removeAiKeyPage(user: UserView, csrf: string, s: AiPlatformStatus, instanceKey: boolean): string {
  return confirmPage({
    user,
    csrf,
    question: `Remove this workspace's ${s.name} key?`,
    consequences: html`<p>The key is deleted, not kept aside: Beacon stops using it from the next call on. To use it again, paste it again.</p>
${
  instanceKey
    ? html`<p>${s.name} stays available: this workspace then uses the instance's key (the setting <code>${s.setting.split(' ')[0]}</code>) for its collection scans and its PDF AI tools.</p>`
    : html`<p>${s.name} is then not configured for this workspace (the instance has no key for it): collection scans leave it out and say so, and cannot run if it is their only platform; a scan running now records its remaining ${s.name} calls as failed. The PDF AI tools use another configured platform, if there is one.</p>`
}`,
    action: `/dashboard/settings/ai-providers/${s.platform}/remove`,
    button: 'Remove the key',
    cancel: `/dashboard/settings/ai-providers#h-${s.platform}`,
  });
}
