/**
 * "What to track" (issue 22 item 2): the brand, competitors, platforms, samples, schedule and budget
 * of the workspace's scans, and its prompts. Admins edit; members read the same values as text.
 */
import type { UserView } from '../../accounts/accounts.service';
import { html, qs, Renderable, SafeHtml } from '../../common/html/html';
import { plural } from '../../common/text/plural';
import { LIMITS } from '../../visibility/import/import-schema';
import { CSV_COLUMNS } from '../../visibility/tracking/tracking-bulk';
import {
  PLATFORM_LABELS,
  SCHEDULES,
  TRACKABLE_PLATFORMS,
  TrackablePlatform,
  TrackedPrompt,
  TrackingSettings,
  TRACKING_LIMITS,
} from '../../visibility/tracking/tracking.types';
import { errorSummary, noticeLine } from '../render/layout';
import { CSRF_FIELD } from '../web-context';
import { confirmPage } from './confirm.pages';
import { dashboardPage, table } from './dashboard.pages';
import type { FormError } from './account.pages';

const hidden = (csrf: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;
const invalid = (e: FormError | undefined, f: string) =>
  e?.field === f ? html` aria-invalid="true" aria-describedby="error-title"` : '';
const checked = (on: boolean) => (on ? html` checked` : '');

/** Which platform a setting enables, as the provider layer reports it. */
export interface PlatformStatus {
  platform: TrackablePlatform;
  configured: boolean;
  /** The setting(s) that enable it, e.g. "OPENAI_API_KEY". */
  setting: string;
  /** Where its key comes from when configured ("OPENAI_API_KEY", "workspace key"). */
  source?: string;
}

export const SCHEDULE_WORDS: Record<(typeof SCHEDULES)[number], string> = {
  weekly: 'weekly (Mondays, 06:00 UTC)',
  daily: 'daily (06:00 UTC)',
  manual: 'manual only ("Run now")',
};

const brandText = (b: { name: string; aliases: string[]; domains: string[] }): SafeHtml =>
  html`<strong>${b.name || '(not set)'}</strong>${b.aliases.length ? html`; also spelled ${b.aliases.join(', ')}` : ''}${b.domains.length ? html`; domains ${b.domains.join(', ')}` : ''}`;

export interface TrackingPageOptions {
  error?: FormError;
  notice?: string;
  /** What the admin typed, kept on a refused form. */
  values?: Record<string, string>;
}

export function trackingPage(
  user: UserView,
  csrf: string,
  s: TrackingSettings,
  platforms: PlatformStatus[],
  o: TrackingPageOptions = {},
): string {
  const admin = user.role === 'admin';
  const v = (name: string, fallback: string) => o.values?.[name] ?? fallback;
  const e = o.error;
  return dashboardPage(
    user,
    csrf,
    'What to track',
    'tracking',
    html`What to track`,
    html`${noticeLine(o.notice)}
${errorSummary(e?.message, e?.field)}
${admin ? '' : html`<p class="notice">You are a member of this workspace: you see what it tracks; an admin changes it.</p>`}
<p>Beacon asks every enabled prompt to every chosen platform, as many times as the samples say, and reports the answers as it reports an imported scan. <a href="/dashboard/tracking/prompts">Prompts: ${plural(s.prompts_total, 'prompt')} (${s.prompts_enabled} enabled)</a>.</p>
<h2>Brand</h2>
${
  admin
    ? html`<form class="stack" method="post" action="/dashboard/tracking/brand" novalidate>${hidden(csrf)}
<div class="field"><label for="business">Business name <span class="hint">(the report's title)</span></label><br>
<input type="text" id="business" name="business" maxlength="200" required value="${v('business', s.business)}"${invalid(e, 'business')}></div>
<div class="field"><label for="brand-name">Brand name <span class="hint">(found in answers on word boundaries, any case)</span></label><br>
<input type="text" id="brand-name" name="name" maxlength="200" required value="${v('name', s.brand.name)}"${invalid(e, 'brand-name')}></div>
<div class="field"><label for="brand-aliases">Other spellings <span class="hint">(one per line or separated by commas)</span></label><br>
<textarea id="brand-aliases" name="aliases" rows="3"${invalid(e, 'brand-aliases')}>${v('aliases', s.brand.aliases.join('\n'))}</textarea></div>
<div class="field"><label for="brand-domains">Owned domains <span class="hint">(e.g. acme.com; subdomains count too)</span></label><br>
<textarea id="brand-domains" name="domains" rows="2"${invalid(e, 'brand-domains')}>${v('domains', s.brand.domains.join('\n'))}</textarea></div>
<div><button type="submit">Save the brand</button></div></form>`
    : html`<p>Business: <strong>${s.business || '(not set)'}</strong>. Brand: ${brandText(s.brand)}.</p>`
}
<h2 id="competitors">Competitors</h2>
${table(
  'Tracked competitors',
  ['Name', 'Other spellings', 'Domains', ...(admin ? ['Action'] : [])],
  s.competitors.map((c, i) => [
    c.name,
    c.aliases.join(', ') || '–',
    c.domains.join(', ') || '–',
    ...(admin
      ? [
          html`<a class="button danger" href="/dashboard/tracking/competitors/${i}/delete">Remove<span class="visually-hidden"> ${c.name}</span></a>`,
        ]
      : []),
  ]),
  'No competitor tracked yet.',
  { stack: true },
)}
${
  admin
    ? html`<h3>Add a competitor</h3>
<form class="stack" method="post" action="/dashboard/tracking/competitors" novalidate>${hidden(csrf)}
<div class="field"><label for="competitor-name">Name</label><br><input type="text" id="competitor-name" name="name" maxlength="200" required value="${v('competitor-name', '')}"${invalid(e, 'competitor-name')}></div>
<div class="field"><label for="competitor-aliases">Other spellings <span class="hint">(one per line or separated by commas)</span></label><br><textarea id="competitor-aliases" name="aliases" rows="2"${invalid(e, 'competitor-aliases')}>${v('competitor-aliases', '')}</textarea></div>
<div class="field"><label for="competitor-domains">Domains</label><br><textarea id="competitor-domains" name="domains" rows="2"${invalid(e, 'competitor-domains')}>${v('competitor-domains', '')}</textarea></div>
<div><button type="submit">Add the competitor</button></div></form>`
    : ''
}
<h2 id="scans-settings">Platforms, samples, schedule and budget</h2>
${platformStatusTable(platforms)}
${
  admin
    ? html`<form class="stack" method="post" action="/dashboard/tracking/scans" novalidate>${hidden(csrf)}
<fieldset><legend>Platforms to ask</legend>
${TRACKABLE_PLATFORMS.map((p) => {
  const st = platforms.find((x) => x.platform === p);
  return html`<div class="choice"><input type="checkbox" id="platform-${p}" name="platforms" value="${p}"${checked(s.platforms.includes(p))}>
<label for="platform-${p}">${PLATFORM_LABELS[p]}</label>${st && !st.configured ? html` <span class="hint">(not configured: set ${st.setting})</span>` : ''}</div>`;
})}
</fieldset>
<div class="field"><label for="samples">Samples per prompt and platform <span class="hint">(answers vary from run to run: more samples, narrower intervals; 1 to ${TRACKING_LIMITS.samplesMax})</span></label><br>
<input type="number" id="samples" name="samples" min="1" max="${TRACKING_LIMITS.samplesMax}" required value="${v('samples', String(s.samples))}"${invalid(e, 'samples')}></div>
<fieldset><legend>Schedule</legend>
${SCHEDULES.map((k) => html`<div class="choice"><input type="radio" id="schedule-${k}" name="schedule" value="${k}"${checked(s.schedule === k)}><label for="schedule-${k}">${SCHEDULE_WORDS[k]}</label></div>`)}
</fieldset>
<div class="field"><label for="budget_calls">Most calls per scan <span class="hint">(a scan stops cleanly when it is reached)</span></label><br>
<input type="number" id="budget_calls" name="budget_calls" min="1" max="${TRACKING_LIMITS.budgetCallsMax}" required value="${v('budget_calls', String(s.budget_calls))}"${invalid(e, 'budget_calls')}></div>
<div class="field"><label for="budget_usd">Most estimated cost per scan, US dollars</label><br>
<input type="text" inputmode="decimal" id="budget_usd" name="budget_usd" required value="${v('budget_usd', String(s.budget_usd))}"${invalid(e, 'budget_usd')}></div>
<div><button type="submit">Save the scan settings</button></div></form>`
    : html`<p>Platforms: ${s.platforms.length ? s.platforms.map((p) => PLATFORM_LABELS[p]).join(', ') : 'none chosen'}. ${plural(s.samples, 'sample')} per prompt and platform. Schedule: ${SCHEDULE_WORDS[s.schedule]}. Budget: at most ${plural(s.budget_calls, 'call')} and US$ ${s.budget_usd} estimated per scan.</p>`
}`,
  );
}

export function platformStatusTable(platforms: PlatformStatus[]): SafeHtml {
  return table(
    'Which setting enables which platform',
    ['Platform', 'Status', 'Enabled by'],
    platforms.map((p) => [
      PLATFORM_LABELS[p.platform],
      p.configured ? `configured${p.source ? ` (${p.source})` : ''}` : 'not configured',
      html`<code>${p.setting}</code>`,
    ]),
    'No platform.',
    { stack: true },
  );
}

export interface PromptsPageOptions extends TrackingPageOptions {
  offset: number;
  limit: number;
  /** Answered to a form: the address the page script shows (see PageOptions.address). */
  address?: string;
}

export function promptsPage(
  user: UserView,
  csrf: string,
  list: { prompts: TrackedPrompt[]; total: number; enabled: number },
  o: PromptsPageOptions,
): string {
  const admin = user.role === 'admin';
  const e = o.error;
  const v = (name: string) => o.values?.[name] ?? '';
  const next = o.offset + list.prompts.length < list.total ? o.offset + o.limit : null;
  const bulkQuery = qs({ [CSRF_FIELD]: csrf });
  return dashboardPage(
    user,
    csrf,
    'Tracked prompts',
    'tracking',
    html`Tracked prompts`,
    html`${noticeLine(o.notice)}
${errorSummary(e?.message, e?.field)}
<p><a href="/dashboard/tracking">Back to what to track</a>. ${plural(list.total, 'prompt')}, ${list.enabled} enabled (at most ${LIMITS.prompts.toLocaleString('en')}).</p>
${
  admin
    ? html`<h2>Add a prompt</h2>
<form class="stack" method="post" action="/dashboard/tracking/prompts" novalidate>${hidden(csrf)}
${promptFieldsMarkup({ text: v('text'), tags: v('tags'), intent: v('intent'), country: v('country'), enabled: true }, e)}
<div><button type="submit">Add the prompt</button></div></form>
<h2>Add many prompts</h2>
<p>Paste one prompt per line, or choose a CSV file whose first row names its columns: <code>${CSV_COLUMNS.join(',')}</code> (only <code>text</code> is required; tags separated by <code>;</code>; enabled yes or no). A bad row is named with its reason and nothing is added; prompts already tracked are skipped.</p>
<form class="stack" method="post" action="/dashboard/tracking/prompts/bulk${bulkQuery}" enctype="multipart/form-data" novalidate>
<div class="field"><label for="lines">Prompts, one per line</label><br><textarea id="lines" name="lines" rows="6"${invalid(e, 'lines')}></textarea></div>
<div class="field"><label for="file">CSV file <span class="hint">(at most ${TRACKING_LIMITS.bulkBytes / 1024 / 1024} MB)</span></label><br><input type="file" id="file" name="file" accept=".csv,text/csv"${invalid(e, 'file')}></div>
<div><button type="submit">Add the prompts</button></div></form>`
    : ''
}
<h2>Prompts</h2>
${table(
  'Tracked prompts',
  ['Prompt', 'Id', 'Tags', 'Intent', 'Country', 'Enabled', ...(admin ? ['Actions'] : [])],
  list.prompts.map((p) => [
    p.text,
    html`<code>${p.id}</code>`,
    p.tags.join(', ') || '–',
    p.intent ?? '–',
    p.country ?? '–',
    p.enabled ? 'yes' : 'no',
    ...(admin
      ? [
          html`<a class="button secondary" href="/dashboard/tracking/prompts/${p.id}/edit">Edit<span class="visually-hidden"> prompt ${p.id}</span></a>
<a class="button danger" href="/dashboard/tracking/prompts/${p.id}/delete${qs({ offset: o.offset || undefined })}">Delete<span class="visually-hidden"> prompt ${p.id}</span></a>`,
        ]
      : []),
  ]),
  'No prompt tracked yet.',
  { stack: true },
)}
<div class="pager">${o.offset > 0 ? html`<a href="/dashboard/tracking/prompts${qs({ offset: Math.max(0, o.offset - o.limit) || undefined })}">Previous page</a> ` : ''}${next !== null ? html`<a href="/dashboard/tracking/prompts${qs({ offset: next })}">Next page</a>` : ''}</div>`,
    o.address,
  );
}

function promptFieldsMarkup(
  p: { text: string; tags: string; intent: string; country: string; enabled: boolean },
  e: FormError | undefined,
): Renderable {
  return html`<div class="field"><label for="text">Prompt <span class="hint">(a question a buyer asks an AI assistant)</span></label><br><textarea id="text" name="text" rows="2" maxlength="2000" required${invalid(e, 'text')}>${p.text}</textarea></div>
<div class="field"><label for="tags">Tags <span class="hint">(separated by commas)</span></label><br><input type="text" id="tags" name="tags" value="${p.tags}"${invalid(e, 'tags')}></div>
<div class="field"><label for="intent">Intent <span class="hint">(e.g. comparison, purchase)</span></label><br><input type="text" id="intent" name="intent" maxlength="64" value="${p.intent}"${invalid(e, 'intent')}></div>
<div class="field"><label for="country">Country <span class="hint">(two letters, e.g. US; empty: any)</span></label><br><input type="text" id="country" name="country" maxlength="2" size="3" value="${p.country}"${invalid(e, 'country')}></div>
<div class="choice"><input type="checkbox" id="enabled" name="enabled" value="yes"${checked(p.enabled)}><label for="enabled">Enabled (asked by scans)</label></div>`;
}

export function editPromptPage(user: UserView, csrf: string, p: TrackedPrompt, o: TrackingPageOptions = {}): string {
  const v = o.values;
  return dashboardPage(
    user,
    csrf,
    `Edit prompt ${p.id}`,
    'tracking',
    html`Edit prompt <code>${p.id}</code>`,
    html`${errorSummary(o.error?.message, o.error?.field)}
<form class="stack" method="post" action="/dashboard/tracking/prompts/${p.id}" novalidate>${hidden(csrf)}
${promptFieldsMarkup(
  v
    ? {
        text: v.text ?? '',
        tags: v.tags ?? '',
        intent: v.intent ?? '',
        country: v.country ?? '',
        enabled: v.enabled === 'yes',
      }
    : { text: p.text, tags: p.tags.join(', '), intent: p.intent ?? '', country: p.country ?? '', enabled: p.enabled },
  o.error,
)}
<div><button type="submit">Save the prompt</button> <a href="/dashboard/tracking/prompts">Cancel</a></div></form>`,
  );
}

/** The list of prompts at `offset` (the page a confirmation's Cancel and its action return to). */
export const promptsAt = (offset: number): string =>
  `/dashboard/tracking/prompts${qs({ offset: offset || undefined })}`;

/** The confirmation before a tracked prompt is deleted; Cancel and the action return to the list at `offset`. */
export function deletePromptPage(user: UserView, csrf: string, p: TrackedPrompt, offset: number): string {
  return confirmPage({
    user,
    csrf,
    question: `Delete the prompt "${p.text}"?`,
    consequences: html`<p>Scans stop asking it (id <code>${p.id}</code>${p.tags.length ? `, tags ${p.tags.join(', ')}` : ''}), and it leaves the prompt lists of the dashboard and of the API at once. Answers already collected for it stay in the scans that have them.</p>
<p>This cannot be undone: to track it again, add it again.</p>`,
    action: `/dashboard/tracking/prompts/${p.id}/delete`,
    fields: offset ? { offset: String(offset) } : {},
    button: 'Delete the prompt',
    cancel: promptsAt(offset),
  });
}

/** The confirmation before a competitor stops being tracked; Cancel returns to the competitors. */
export function removeCompetitorPage(
  user: UserView,
  csrf: string,
  c: { name: string; aliases: string[]; domains: string[] },
  index: number,
): string {
  return confirmPage({
    user,
    csrf,
    question: `Stop tracking the competitor "${c.name}"?`,
    consequences: html`<p>Scans from now on no longer look for <strong>${c.name}</strong> in answers${c.aliases.length ? ` (nor for ${c.aliases.join(', ')})` : ''}${c.domains.length ? `, nor for links to ${c.domains.join(', ')} among their sources` : ''}: the share of voice and the competitor tables of new scans leave it out. Scans already made keep their figures for it.</p>
<p>To track it again, add it again with its other spellings and domains.</p>`,
    action: `/dashboard/tracking/competitors/${index}/delete`,
    // The name travels with the index: the one confirmed is the one removed, even if the list changed meanwhile.
    fields: { name: c.name },
    button: 'Stop tracking it',
    cancel: '/dashboard/tracking#competitors',
  });
}
