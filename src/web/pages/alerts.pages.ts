import type { UserView } from '../../accounts/accounts.service';
import type { DeliveryView, DestinationView } from '../../common/notify/alerts.service';
import { MAIL_OFF_HINT } from '../../common/notify/mail.service';
import { html, SafeHtml } from '../../common/html/html';
import { errorSummary, noticeLine } from '../render/layout';
import { CSRF_FIELD } from '../web-context';
import type { FormError } from './account.pages';
import { dashboardPage, table } from './dashboard.pages';
import { confirmPage } from './confirm.pages';

const when = (iso: string | null): string => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '');
const hidden = (csrf: string): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;

const STATUS: Record<DeliveryView['status'], string> = {
  pending: 'queued',
  retrying: 'retrying',
  delivered: 'delivered',
  failed: 'failed',
};

export interface AlertsPageModel {
  user: UserView;
  csrf: string;
  destinations: DestinationView[];
  deliveries: DeliveryView[];
  mailConfigured: boolean;
  /** A webhook just added, with its signing secret (shown this once). */
  created?: { destination: DestinationView; secret: string };
  notice?: string;
  error?: FormError;
}

/** Settings > Alerts: destinations (admins add and remove, members read), a test alert, the delivery log. */
export function alertsPage(m: AlertsPageModel): string {
  const admin = m.user.role === 'admin';
  return dashboardPage(
    m.user,
    m.csrf,
    'Alerts',
    'alerts',
    html`Settings: Alerts`,
    html`<p>When a scan finishes, Beacon sends alerts to every destination below: after a visibility scan, a significant
drop in mention rate or share of voice, a competitor ahead of the brand, a lost owned citation; after an
accessibility site scan, a new critical or serious issue, a score drop beyond the site's threshold, a page that
stopped loading. They go out as signed webhooks
(<a href="https://www.standardwebhooks.com/">Standard Webhooks</a>) and e-mail. Failed deliveries are retried
with growing waits; the log below shows each one.</p>
${
  m.created
    ? html`<div class="notice" role="status" aria-labelledby="secret-title" tabindex="-1" autofocus>
  <h2 id="secret-title">Signing secret of ${m.created.destination.target}</h2>
  <p>Copy it now: this is the only time it is shown. Your endpoint verifies the <code>webhook-signature</code> header with it.</p>
  <code class="secret" id="new-secret">${m.created.secret}</code>
  <button type="button" class="secondary" data-copy="new-secret" data-status="copy-status" hidden>Copy the secret</button>
  <p id="copy-status" role="status"></p>
</div>`
    : ''
}
${noticeLine(m.notice)}
${errorSummary(m.error?.message, m.error?.field)}
${m.mailConfigured ? '' : html`<p class="notice">${MAIL_OFF_HINT} Webhooks work without it.</p>`}
${
  admin
    ? html`<h2>Add a webhook</h2>
<form class="inline" method="post" action="/dashboard/settings/alerts/webhooks">${hidden(m.csrf)}
<div class="field"><label for="url">Address (URL) <span class="hint">(public https address of your endpoint)</span></label>
<input type="url" id="url" name="url" maxlength="2048" required placeholder="https://example.com/hooks/beacon"></div>
<button type="submit">Add webhook</button></form>
<h2>Add an e-mail address</h2>
<form class="inline" method="post" action="/dashboard/settings/alerts/emails">${hidden(m.csrf)}
<div class="field"><label for="email">E-mail</label>
<input type="email" id="email" name="email" maxlength="254" required autocomplete="off"${m.mailConfigured ? '' : html` disabled aria-describedby="mail-off"`}></div>
<button type="submit"${m.mailConfigured ? '' : html` disabled`}>Add address</button>
${m.mailConfigured ? '' : html`<p id="mail-off" class="hint">Needs the SMTP_URL setting.</p>`}</form>`
    : html`<p class="notice">You are a member of this workspace: you can see its alert destinations and deliveries; an admin changes them.</p>`
}
<h2>Destinations</h2>
${table(
  'Alert destinations of this workspace',
  ['Destination', 'Kind', 'Added', ...(admin ? ['Action'] : [])],
  m.destinations.map((d) => [
    d.target,
    d.kind === 'webhook' ? 'webhook' : 'e-mail',
    when(d.created_at),
    ...(admin
      ? [
          html`<a class="button danger" href="/dashboard/settings/alerts/${d.id}/remove">Remove<span class="visually-hidden"> ${d.target}</span></a>`,
        ]
      : []),
  ]),
  'No destination yet: alerts are not sent anywhere.',
  { stack: true },
)}
${
  admin && m.destinations.length
    ? html`<form method="post" action="/dashboard/settings/alerts/test">${hidden(m.csrf)}<button type="submit" class="secondary">Send a test alert to every destination</button></form>`
    : ''
}
<h2>Delivery log</h2>
${table(
  'The latest alert deliveries, newest first',
  ['Alert', 'Destination', 'Status', ['Attempts', 'num'], 'Last answer', 'Queued', 'Delivered'],
  m.deliveries.map((d) => [
    html`${d.title} <span class="hint">(${d.alert_kind})</span>`,
    d.target,
    STATUS[d.status],
    String(d.attempts),
    d.last_error ?? (d.last_status ? `HTTP ${d.last_status}` : d.status === 'delivered' ? 'accepted' : ''),
    when(d.created_at),
    when(d.delivered_at),
  ]),
  'No alert has been sent yet.',
  { stack: true },
)}`,
  );
}

/**
 * The confirmation before an alert destination is removed: every alert of the workspace stops going
 * there (the visibility scans' and each named site's), queued ones included; Cancel returns to the list.
 */
export function removeDestinationPage(
  user: UserView,
  csrf: string,
  d: DestinationView,
  o: { sites: string[]; others: number },
): string {
  return confirmPage({
    user,
    csrf,
    question: `Remove the alert destination ${d.target}?`,
    consequences: html`<p>This ${d.kind === 'webhook' ? 'webhook' : 'e-mail address'} receives no more alerts of this workspace: none after visibility scans, and none after the accessibility scans of ${o.sites.length ? html`${o.sites.length === 1 ? 'the site' : 'the sites'} ${o.sites.join(', ')}` : 'its sites (none yet)'}. Alerts still queued or retrying for it are not sent; the delivery log keeps the past ones.</p>
<p>${o.others ? `The other ${o.others === 1 ? 'destination keeps' : `${o.others} destinations keep`} receiving every alert.` : 'It is the only destination: alerts are then not sent anywhere.'}${d.kind === 'webhook' ? ' Its signing secret goes with it: adding the address again gives it a new one.' : ''}</p>`,
    action: `/dashboard/settings/alerts/${d.id}/remove`,
    button: 'Remove the destination',
    cancel: '/dashboard/settings/alerts',
  });
}
