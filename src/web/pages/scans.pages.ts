/**
 * Scans (issue 22 item 3): "Run now", the progress of the running scan (the page reloads itself
 * every 5 s while one runs: the controller sends `Refresh: 5`, no script), the runs so far and each run's answers.
 */
import type { UserView } from '../../accounts/accounts.service';
import { html, qs, SafeHtml } from '../../common/html/html';
import { plural } from '../../common/text/plural';
import type { CollectedAnswer, RunRow } from '../../visibility/collect/collect.types';
import type { Readiness } from '../../visibility/collect/collect.service';
import { PLATFORM_LABELS, TrackablePlatform } from '../../visibility/tracking/tracking.types';
import { page } from '../../common/html/page';
import { errorSummary } from '../render/layout';
import { CSRF_FIELD } from '../web-context';
import { dashboardNav, table } from './dashboard.pages';
import { PlatformStatus, platformStatusTable } from './tracking.pages';

const STATUS_WORDS: Record<RunRow['status'], string> = {
  queued: 'waiting to start',
  running: 'asking the platforms',
  importing: 'importing the answers',
  done: 'done',
  failed: 'failed',
};
const when = (d: Date | string | null): string =>
  d ? `${new Date(d).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '–';
const usd = (n: number): string => `US$ ${Number(n).toFixed(2)}`;
const platformName = (p: string): string => PLATFORM_LABELS[p as TrackablePlatform] ?? p;

export function progress(r: RunRow): SafeHtml {
  return html`<progress id="scan-progress" max="${Math.max(1, r.planned)}" value="${r.asked}" aria-label="Scan progress">${r.asked} of ${r.planned}</progress>
<span>${r.asked} of ${plural(r.planned, 'call')} (${r.failed} failed), estimated ${usd(r.cost_usd)}</span>`;
}

export interface ScansPageOptions {
  notice?: string;
  error?: string;
}

export function scansPage(
  user: UserView,
  csrf: string,
  ready: Readiness,
  platforms: PlatformStatus[],
  runs: RunRow[],
  o: ScansPageOptions = {},
): string {
  const admin = user.role === 'admin';
  const active = runs.find((r) => r.status === 'queued' || r.status === 'running' || r.status === 'importing');
  const body = html`<h1>Scans</h1>
${dashboardNav('scans', user)}
${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : ''}
${errorSummary(o.error)}
${
  active
    ? html`<section aria-labelledby="active-title"><h2 id="active-title">Scan running</h2>
<p>Started ${when(active.created_at)} (${active.trigger === 'schedule' ? 'scheduled' : 'Run now'}): ${STATUS_WORDS[active.status]}. <a href="/dashboard/scans/${active.id}">Its answers so far</a>.</p>
<p>${progress(active)}</p><p class="hint">This page refreshes every 5 seconds while the scan runs.</p></section>`
    : ready.ready
      ? html`<p>A scan asks ${plural(ready.platforms.length, 'platform')} (${ready.platforms.map(platformName).join(', ')}) every enabled prompt${ready.skipped.length ? html`; not asked because they are not configured: ${ready.skipped.map(platformName).join(', ')}` : ''}.</p>
${
  admin
    ? html`<form method="post" action="/dashboard/scans/run"><input type="hidden" name="${CSRF_FIELD}" value="${csrf}"><button type="submit">Run now</button></form>`
    : html`<p class="notice">An admin of this workspace starts scans.</p>`
}`
      : html`<div class="notice" id="not-ready"><h2>A scan cannot run yet</h2><ul>${ready.problems.map((p) => html`<li>${p}</li>`)}</ul>
<p>Beacon never reports a platform it did not ask.</p></div>`
}
<h2>Platforms</h2>
${platformStatusTable(platforms)}
<h2>Scans run by Beacon</h2>
${table(
  'Scans of this workspace, newest first',
  ['Started', 'How', 'Status', 'Calls', 'Estimated cost', 'Result'],
  runs.map((r) => [
    html`<a href="/dashboard/scans/${r.id}">${when(r.created_at)}</a>`,
    r.trigger === 'schedule' ? 'scheduled' : 'Run now',
    STATUS_WORDS[r.status],
    `${r.asked} of ${r.planned} (${r.failed} failed)`,
    usd(r.cost_usd),
    r.status === 'done' && r.result
      ? html`scan ${r.scan_key}: ${plural(r.result.answers.successful, 'successful answer')}${r.stop_reason ? html`. ${r.stop_reason}` : ''}`
      : (r.error ?? r.stop_reason ?? '–'),
  ]),
  'Beacon has not run a scan here yet (imported scans are on the Overview).',
  { stack: true },
)}`;
  return page({ title: 'Scans', section: 'dashboard', user, csrf, body });
}

export function runPage(
  user: UserView,
  csrf: string,
  r: RunRow,
  answers: CollectedAnswer[],
  o: { offset: number; limit: number },
): string {
  const next = answers.length === o.limit ? o.offset + o.limit : null;
  const body = html`<h1>Scan of ${when(r.created_at)}</h1>
${dashboardNav('scans', user)}
<p><a href="/dashboard/scans">All scans</a>. Status: <strong id="run-status">${STATUS_WORDS[r.status]}</strong>. ${progress(r)}</p>
${r.stop_reason ? html`<p class="notice">${r.stop_reason}</p>` : ''}
${r.error ? html`<p class="notice" role="alert">The scan failed: ${r.error}</p>` : ''}
${
  r.status === 'done' && r.result
    ? html`<p>Imported as scan <code>${r.scan_key}</code> of ${r.date}: mention rate ${r.result.mention_rate ?? '–'} %, ${plural(r.result.answers.successful, 'successful answer')}, ${r.result.answers.failed} failed. <a href="/dashboard">See the dashboard</a>.</p>`
    : ''
}
<h2>Answers collected</h2>
${table(
  'Answers of this scan',
  ['Prompt', 'Platform', 'Sample', 'Status', 'Surface', 'Model', 'Citations', 'Answer or reason'],
  answers.map((a) => [
    html`<code>${a.prompt_key}</code>`,
    platformName(a.platform),
    String(a.sample),
    a.status === 'ok' ? 'answered' : `failed (${a.status})`,
    a.surface === 'api_search' ? 'API with web search' : a.surface === 'api' ? 'API' : '–',
    a.model ?? '–',
    a.citations.length
      ? html`<ul>${a.citations.map((c) => html`<li><a href="${c.url}" rel="noopener noreferrer nofollow">${c.title ?? c.url}</a></li>`)}</ul>`
      : '–',
    a.status === 'ok'
      ? html`${a.text.length > 400 ? `${a.text.slice(0, 400)}…` : a.text}${a.search_queries.length ? html`<br><span class="hint">Searched: ${a.search_queries.join('; ')}</span>` : ''}${a.reason ? html`<br><span class="hint">${a.reason}</span>` : ''}`
      : (a.reason ?? ''),
  ]),
  'No answer yet.',
  { stack: true },
)}
<div class="pager">${o.offset > 0 ? html`<a href="/dashboard/scans/${r.id}${qs({ offset: Math.max(0, o.offset - o.limit) || undefined })}">Previous page</a> ` : ''}${next !== null ? html`<a href="/dashboard/scans/${r.id}${qs({ offset: next })}">Next page</a>` : ''}</div>`;
  return page({ title: 'Scan', section: 'dashboard', user, csrf, body });
}
