/**
 * Over 300 lines: the sites list, the site page and the one settings form they share (with its
 * viewports, checks and login steps) render the same Site and SiteScan rows with the same helpers.
 */
import type { UserView } from '../../accounts/accounts.service';
import { html, SafeHtml } from '../../common/html/html';
import {
  PAGE_SOURCES,
  type PageSource,
  type Site,
  type SitePageResult,
  type SiteScan,
  type SiteScanSummary,
} from '../../a11y/sites/site.types';
import { MAX_LOGIN_FIELDS } from '../../a11y/sites/site-checks-input';
import { VIEWPORT_LABELS, VIEWPORT_NAMES } from '../../a11y/scan/scan-options';
import { pageLabel, SITE_EXPORTS } from '../../a11y/sites/site-export';
import { DEFAULT_ALERT_DROP, DEFAULT_PAGE_BUDGET, MAX_PAGE_BUDGET } from '../../a11y/sites/site-input';
import { lineChart } from '../render/chart';
import { page } from '../../common/html/page';
import { errorSummary, noticeLine } from '../render/layout';
import { confirmPage } from './confirm.pages';
import { plural } from '../../common/text/plural';
import { CSRF_FIELD } from '../web-context';
import type { FormError } from './account.pages';
import { dashboardNav, table } from './dashboard.pages';

const when = (iso: string | null): string => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '');
const hidden = (csrf: string): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;
const pts = (n: number): string => (Math.round(n * 10) / 10).toFixed(1);
/** Groups listed on the site page (the rest are counted). */
const GROUPS_SHOWN = 50;

export interface SitesPageModel {
  user: UserView;
  csrf: string;
  sites: Site[];
  error?: FormError;
  /** What was typed, shown again after an error. */
  form?: Record<string, string>;
  /** What was just done (a site removed). */
  notice?: string;
}

/** The form's field helpers; the field a refused form's error is about (`invalid`) is marked aria-invalid. */
function fieldsFor(invalid?: string) {
  const mark = (id: string): SafeHtml | '' => (id === invalid ? html` aria-invalid="true"` : '');
  return {
    input: (id: string, label: string, value: string, hint = '', type = 'text'): SafeHtml =>
      html`<div class="field"><label for="${id}">${label}</label>${hint ? html`<span class="hint" id="${id}-hint">${hint}</span>` : ''}
<input id="${id}" name="${id}" type="${type}" value="${value}"${hint ? html` aria-describedby="${id}-hint"` : ''}${mark(id)}></div>`,
    area: (id: string, label: string, value: string, hint: string): SafeHtml =>
      html`<div class="field"><label for="${id}">${label}</label><span class="hint" id="${id}-hint">${hint}</span>
<textarea id="${id}" name="${id}" rows="3" aria-describedby="${id}-hint"${mark(id)}>${value}</textarea></div>`,
    secret: (id: string, label: string, hint: string): SafeHtml =>
      html`<div class="field"><label for="${id}">${label}</label><span class="hint" id="${id}-hint">${hint}</span>
<input id="${id}" name="${id}" type="password" value="" autocomplete="new-password" aria-describedby="${id}-hint"${mark(id)}></div>`,
  };
}

/** A login value box: always empty (stored values are never written into the page); the browser's own password is not offered. */
const box = (id: string, label: string, on: boolean): SafeHtml =>
  html`<div class="check"><input type="checkbox" id="${id}" name="${id}" value="yes"${on ? html` checked` : ''}><label for="${id}">${label}</label></div>`;

/**
 * Viewports, checks beyond axe and login steps of the site form. Login values are never written
 * into the page: a stored one shows as "set" (`loginSet[i]`), an empty box keeps it.
 */
function checksFields(f: Record<string, string>, loginSet: readonly boolean[], invalid?: string): SafeHtml {
  const { input, secret } = fieldsFor(invalid);
  const noneChosen = !VIEWPORT_NAMES.some((v) => f[`viewport_${v}`] === 'yes');
  const fields = Array.from({ length: MAX_LOGIN_FIELDS }, (_, k) => {
    const i = k + 1;
    const set = loginSet[k] === true;
    return html`${input(`login_field${i}_selector`, `Field ${i}: selector`, f[`login_field${i}_selector`] ?? '', i === 1 ? 'A CSS selector of the field, e.g. #email.' : '')}
${secret(`login_field${i}_value`, `Field ${i}: value`, set ? 'Set: stored encrypted, never shown again. Leave empty to keep it, or type a new value to replace it.' : 'Stored encrypted with the instance secret; never shown again.')}
${input(`login_field${i}_next`, `After field ${i}: button to press`, f[`login_field${i}_next`] ?? '', i === 1 ? 'Optional, for a login over several pages (user name, Next, password): e.g. #next. What comes next is waited for.' : '')}`;
  });
  return html`<fieldset><legend>Viewports</legend>
${VIEWPORT_NAMES.map((v) => box(`viewport_${v}`, `Scan each page at ${VIEWPORT_LABELS[v]} px`, f[`viewport_${v}`] === 'yes' || (noneChosen && v === 'desktop')))}
<span class="hint">The site score and the fix plan count every page at every viewport ticked; the checks beyond axe run once per page, at desktop when it is ticked.</span>
</fieldset>
<fieldset><legend>Checks beyond axe (needs review, not in the score)</legend>
${box('reflow_check', 'Reflow at 320 px (WCAG 1.4.10): sideways scrolling, cut or covered controls', f.reflow_check === 'yes')}
${box('keyboard_walk', 'Keyboard walk: focus order, visible focus, keyboard traps, controls Tab never reaches', f.keyboard_walk === 'yes')}
</fieldset>
<fieldset><legend>Login steps (optional: pages behind a sign-in)</legend>
${input('login_url', 'Login page', f.login_url ?? '', 'On the same origin; opened before each scan.', 'url')}
${fields}
${input('login_submit', 'Button to press', f.login_submit ?? '', 'A CSS selector, e.g. button[type=submit].')}
${input('login_check', 'Check: selector present after the login', f.login_check ?? '', 'e.g. #account. Give this or the address pattern (or both).')}
${input('login_check_url', 'Check: address after the login', f.login_check_url ?? '', 'A pattern matched against the path, * for any characters (/account*).')}
${loginSet.length ? box('login_remove', 'Remove the login steps (scan signed out)', f.login_remove === 'yes') : ''}
</fieldset>`;
}

/** What each page source choice is called on the form and the site page. */
const PAGE_SOURCE_LABELS: Record<PageSource, string> = {
  sitemap: 'the sitemap',
  list: 'the list of pages only',
  crawl: 'a crawl from the start URL (links on the same origin)',
};

/** The page source choice; a form without one shows what the site did before the choice existed. */
function pageSourceField(f: Record<string, string>): SafeHtml {
  const chosen = f.page_source || (f.sitemap_url ? 'sitemap' : f.urls?.trim() ? 'list' : 'crawl');
  return html`<div class="field"><label for="page_source">Pages come from</label><span class="hint" id="page_source-hint">Besides the start URL. The crawl follows the links of the HTML the server sends.</span>
<select id="page_source" name="page_source" aria-describedby="page_source-hint">${PAGE_SOURCES.map((v) => html`<option value="${v}"${chosen === v ? html` selected` : ''}>${PAGE_SOURCE_LABELS[v][0].toUpperCase()}${PAGE_SOURCE_LABELS[v].slice(1)}</option>`)}</select></div>`;
}

/** Where the site's pages come from, as the site page says it. */
function pagesFrom(s: Site): string {
  const listed = `${s.urls.length} listed page${s.urls.length === 1 ? '' : 's'}`;
  if (s.page_source === 'list') return `pages from the list (${listed})`;
  const more = s.urls.length ? ` and ${listed}` : '';
  if (s.page_source === 'sitemap') return `pages from the sitemap ${s.sitemap_url ?? ''}${more}`;
  return `pages found by a crawl from the start URL${more}`;
}

/** The site settings form (add and edit), filled with `f`. */
function siteForm(
  action: string,
  csrf: string,
  f: Record<string, string>,
  submit: string,
  loginSet: readonly boolean[] = [],
  invalid?: string,
): SafeHtml {
  const { input, area } = fieldsFor(invalid);
  return html`<form class="site-form" method="post" action="${action}">${hidden(csrf)}
${input('name', 'Name', f.name ?? '', 'Optional: the host name otherwise.')}
${input('start_url', 'Start URL', f.start_url ?? '', 'The home page, e.g. https://www.example.com/.', 'url')}
${pageSourceField(f)}
${input('sitemap_url', 'Sitemap', f.sitemap_url ?? '', 'For the sitemap choice: a sitemap.xml or sitemap index on the same origin (gzipped is fine).', 'url')}
${area('urls', 'Pages to scan', f.urls ?? '', 'One address per line, on the same origin: the pages of the list choice; with the other choices, scanned too, after the start URL.')}
${area('include_patterns', 'Include patterns', f.include_patterns ?? '', 'Optional: one per line, * for any characters, matched against the path (/blog/*).')}
${area('exclude_patterns', 'Exclude patterns', f.exclude_patterns ?? '', 'Optional: one per line, as above.')}
${input('page_budget', 'Page budget per scan', f.page_budget ?? String(DEFAULT_PAGE_BUDGET), `1 to ${MAX_PAGE_BUDGET}; an unproved site scans at most 5 pages.`, 'number')}
<div class="field"><label for="respect_robots">robots.txt</label><select id="respect_robots" name="respect_robots"><option value="yes">Respected</option><option value="no"${f.respect_robots === 'no' ? html` selected` : ''}>Ignored (my own site)</option></select></div>
${input('ignore_rules', 'Rules to ignore', f.ignore_rules ?? '', 'Optional: axe rule ids separated by spaces or commas (color-contrast).')}
${area('excluded_selectors', 'Excluded selectors', f.excluded_selectors ?? '', 'Optional: one per line, a selector, a bar and the reason kept for the audit trail (#chat | vendor widget, audited separately).')}
<div class="field"><label for="schedule">Schedule</label><select id="schedule" name="schedule"><option value="off">Off (Run now only)</option><option value="daily"${f.schedule === 'daily' ? html` selected` : ''}>Daily (04:00 UTC)</option><option value="weekly"${f.schedule === 'weekly' ? html` selected` : ''}>Weekly (Monday 04:00 UTC)</option></select></div>
${input('alert_drop', 'Alert on a score drop of at least (points)', f.alert_drop ?? String(DEFAULT_ALERT_DROP), '', 'number')}
${checksFields(f, loginSet, invalid)}
<p><button type="submit">${submit}</button></p>
</form>`;
}

/** A saved site as the form's text fields. */
export function formOfSite(s: Site): Record<string, string> {
  return {
    name: s.name,
    start_url: s.start_url,
    sitemap_url: s.sitemap_url ?? '',
    urls: s.urls.join('\n'),
    page_source: s.page_source,
    include_patterns: s.include_patterns.join('\n'),
    exclude_patterns: s.exclude_patterns.join('\n'),
    page_budget: String(s.page_budget),
    respect_robots: s.respect_robots ? 'yes' : 'no',
    ignore_rules: s.ignore_rules.join(' '),
    excluded_selectors: s.excluded_selectors.map((x) => `${x.selector} | ${x.reason}`).join('\n'),
    schedule: s.schedule,
    alert_drop: String(s.alert_drop),
    ...checksFormOfSite(s),
  };
}

/** The viewports, checks and login steps of a saved site as form fields (never the login values). */
function checksFormOfSite(s: Site): Record<string, string> {
  const f: Record<string, string> = {};
  for (const v of s.viewports ?? ['desktop']) f[`viewport_${v}`] = 'yes';
  if (s.reflow_check) f.reflow_check = 'yes';
  if (s.keyboard_walk) f.keyboard_walk = 'yes';
  if (s.login) {
    f.login_url = s.login.url;
    s.login.fields.forEach((x, k) => {
      f[`login_field${k + 1}_selector`] = x.selector;
      f[`login_field${k + 1}_next`] = s.login?.next?.[k] ?? '';
    });
    f.login_submit = s.login.submit;
    f.login_check = s.login.check_selector ?? '';
    f.login_check_url = s.login.check_url ?? '';
  }
  return f;
}

/** A scan that counted more than one viewport (its fix plan says which each issue occurs on). */
const manyViewports = (s: SiteScanSummary): boolean => (s.viewports?.length ?? 1) > 1;

/** The checks beyond axe of a scan's pages: findings to review, per page (absent when the site runs none). */
function reviewTable(pages: readonly SitePageResult[]): SafeHtml | '' {
  const rows = pages.filter((p) => p.review);
  if (!rows.length) return '';
  return html`<h3>Checks beyond axe: needs review</h3>
<p>Findings of the 320 px reflow check and the keyboard walk are for a person to review; they are not in the score. Each page's report lists them with the elements.</p>
${table(
  'Reflow and keyboard findings per page',
  ['Page', ['Reflow at 320 px', 'num'], ['Keyboard walk', 'num'], 'Keyboard trap', 'Report'],
  rows.map((p) => [
    pageLabel(p),
    p.review!.reflow,
    p.review!.keyboard,
    p.review!.trapped ? 'yes' : 'no',
    p.reportId ? html`<a href="/r/${p.reportId}">report</a>` : '',
  ]),
  'No page.',
  { stack: true },
)}`;
}

/** Accessibility sites of the workspace: the list, and for admins the form to add one. */
export function sitesPage(m: SitesPageModel): string {
  const f = m.form ?? {};
  const admin = m.user.role === 'admin';
  return page({
    title: 'Accessibility sites',
    section: 'dashboard',
    user: m.user,
    csrf: m.csrf,
    body: html`<h1>Accessibility sites</h1>
${dashboardNav('sites', m.user)}
<p>A site is scanned page by page with the same engine as the public scan (axe-core in Chromium), on demand or
on a schedule; its issues are grouped across pages into a fix plan. See <a href="https://www.w3.org/WAI/standards-guidelines/wcag/">WCAG</a>.</p>
${noticeLine(m.notice)}
${errorSummary(m.error?.message, m.error?.field)}
${table(
  'Sites',
  ['Site', 'Start URL', 'Ownership', 'Schedule'],
  m.sites.map((s) => [
    html`<a href="/dashboard/sites/${s.id}">${s.name}</a>`,
    s.start_url,
    s.verified_at ? `proved (${s.verified_by})` : 'not proved yet',
    s.schedule,
  ]),
  'No site yet.',
  { stack: true },
)}
${
  admin
    ? html`<h2>Add a site</h2>
${siteForm('/dashboard/sites', m.csrf, f, 'Add the site', [], m.error?.field)}`
    : html`<p>Only workspace admins add sites.</p>`
}`,
  });
}

export interface SitePageModel {
  user: UserView;
  csrf: string;
  site: Site;
  /** Newest first. */
  scans: SiteScan[];
  verificationPath: string;
  txtPrefix: string;
  notice?: string;
  /** A settings form sent back with an error. */
  error?: FormError;
  form?: Record<string, string>;
}

const STATUS: Record<SiteScan['status'], string> = {
  queued: 'queued',
  running: 'running',
  done: 'done',
  failed: 'failed',
};

/** One site: ownership proof, Run now, progress, score trend (chart and table), fix plan, pages. */
export function sitePage(m: SitePageModel): string {
  const { site } = m;
  const admin = m.user.role === 'admin';
  const active = m.scans.find((s) => s.status === 'queued' || s.status === 'running');
  const latest = m.scans.find((s) => s.status === 'done' && s.summary);
  const done = [...m.scans].filter((s) => s.status === 'done' && s.score !== null).reverse();
  const sum = latest?.summary;
  return page({
    title: site.name,
    section: 'dashboard',
    user: m.user,
    csrf: m.csrf,
    body: html`<h1>${site.name}: accessibility</h1>
${dashboardNav('sites', m.user)}
${m.notice ? html`<p class="notice" role="status" tabindex="-1" autofocus>${m.notice}</p>` : ''}
<p>Start URL: <a href="${site.start_url}">${site.start_url}</a>; ${pagesFrom(site)}. Page budget ${site.page_budget},
robots.txt ${site.respect_robots ? 'respected' : 'ignored'}, schedule: ${site.schedule}.</p>
<p>Viewports: ${(site.viewports ?? ['desktop']).map((v) => VIEWPORT_LABELS[v]).join(', ')} px. Checks beyond axe: ${[site.reflow_check ? 'reflow at 320 px' : '', site.keyboard_walk ? 'keyboard walk' : ''].filter(Boolean).join(', ') || 'none'}. ${site.login ? `Signed in before each scan at ${site.login.url} (${site.login.fields.length} field${site.login.fields.length === 1 ? '' : 's'}${site.login.next?.some(Boolean) ? ` in ${site.login.next.filter(Boolean).length + 1} steps` : ''}, values set).` : 'Scanned signed out.'}</p>
${site.ignore_rules.length ? html`<p>Rules ignored: ${site.ignore_rules.join(', ')}.</p>` : ''}
${
  site.excluded_selectors.length
    ? table(
        'Excluded selectors',
        ['Selector', 'Reason'],
        site.excluded_selectors.map((s) => [html`<code>${s.selector}</code>`, s.reason]),
      )
    : ''
}
<h2>Ownership</h2>
${
  site.verified_at
    ? html`<p>Proved by ${site.verified_by === 'dns' ? 'DNS TXT record' : 'verification file'} on ${when(site.verified_at)}: scans go up to the page budget.</p>`
    : html`<p>Not proved yet: scans stop at 5 pages, as the public scan does. Prove it with either a file at
<code>${new URL(m.verificationPath, site.start_url).href}</code> containing <code id="token">${site.verification_token}</code>,
or a DNS TXT record on ${new URL(site.start_url).hostname} with the value <code>${m.txtPrefix}${site.verification_token}</code>.</p>
${admin ? html`<form class="inline" method="post" action="/dashboard/sites/${site.id}/verify">${hidden(m.csrf)}<button type="submit" class="secondary">Check ownership now</button></form>` : ''}`
}
<h2>Scans</h2>
${
  active
    ? html`<p role="status" id="progress">Scan ${STATUS[active.status]}: ${active.pages_done} of ${active.pages_total || '?'} pages scanned. Reload the page for progress.</p>`
    : admin
      ? html`<form class="inline" method="post" action="/dashboard/sites/${site.id}/run">${hidden(m.csrf)}<button type="submit">Run now</button></form>`
      : ''
}
${m.scans[0]?.status === 'failed' ? html`<p class="notice">The last scan failed: ${m.scans[0].error}</p>` : ''}
${
  done.length
    ? html`${lineChart(
        done.map((s) => ({ label: (s.finished_at ?? s.created_at).slice(0, 10), value: s.score })),
        {
          title: `${site.name}: score over its scans`,
          desc: `Score from 0 to 100 of each finished scan, oldest first; the table after the chart has the same figures.`,
          max: 100,
        },
      )}
${table(
  'Score of each scan',
  ['Finished', ['Score', 'num'], ['Pages', 'num'], ['Issues', 'num']],
  [...done]
    .reverse()
    .map((s) => [
      when(s.finished_at),
      s.score,
      s.summary?.pages.filter((p) => !p.secondary).length ?? 0,
      s.summary?.groups.length ?? 0,
    ]),
)}`
    : html`<p>No finished scan yet.</p>`
}
${
  sum
    ? html`<h2>Fix plan (scan of ${when(latest.finished_at)}, score ${sum.score})</h2>
<p>Each issue is one defect grouped across pages by its element fingerprint; points are what fixing it alone would add to the site score${manyViewports(sum) ? ' (the mean over every page at every viewport)' : ''}.</p>
${table(
  'Issues grouped across pages, most points first',
  [
    'Rule',
    'Impact',
    ['Pages', 'num'],
    ...(manyViewports(sum) ? ['Viewports'] : []),
    ['Occurrences', 'num'],
    ['Points', 'num'],
    'Element',
  ],
  sum.groups
    .slice(0, GROUPS_SHOWN)
    .map((g) => [
      html`<a href="${g.helpUrl}">${g.rule}</a>: ${g.help}`,
      g.impact,
      g.pages.length,
      ...(manyViewports(sum) ? [(g.viewports ?? []).map((v) => VIEWPORT_LABELS[v]).join(', ')] : []),
      g.occurrences,
      `+${pts(g.points)}`,
      html`<code>${g.target}</code>`,
    ]),
  'No issue found: every page passed every rule that applied.',
  { stack: true },
)}
${exportLinks(site.id, latest.id)}
${sum.groups.length > GROUPS_SHOWN ? html`<p>${sum.groups.length - GROUPS_SHOWN} more issues with fewer points are not listed.</p>` : ''}
${table(
  'Pages',
  ['Page', ['Score', 'num'], 'Since the previous scan', 'Report'],
  sum.pages.map((p) => [
    pageLabel(p),
    p.score ?? '–',
    p.diff ? `${p.diff.new} new, ${p.diff.fixed} fixed, ${p.diff.unchanged} unchanged` : '–',
    p.reportId ? html`<a href="/r/${p.reportId}">report</a>` : (p.error ?? ''),
  ]),
  'No page.',
  { stack: true },
)}
${reviewTable(sum.pages)}
${
  sum.skipped.length
    ? table(
        'Not scanned',
        ['Address', 'Why'],
        sum.skipped.map((s) => [s.url, s.reason]),
      )
    : ''
}`
    : ''
}
${
  admin
    ? html`<h2>Settings</h2>
${errorSummary(m.error?.message, m.error?.field)}
${siteForm(
  `/dashboard/sites/${site.id}`,
  m.csrf,
  m.form ?? formOfSite(site),
  'Save the settings',
  site.login?.fields.map(() => true) ?? [],
  m.error?.field,
)}`
    : ''
}
${admin ? html`<h2>Remove</h2><p><a class="button secondary" href="/dashboard/sites/${site.id}/remove">Remove this site and its scans</a></p>` : ''}`,
  });
}

/** Download links of a finished scan's exports (routes in sites.controller.ts). */
function exportLinks(siteId: string, scanId: string) {
  const base = `/dashboard/sites/${siteId}/scans/${scanId}`;
  return html`<p>Download this scan: <a href="${base}/${SITE_EXPORTS.csv.file}" download>CSV</a>,
<a href="${base}/${SITE_EXPORTS.junit.file}" download>JUnit XML</a>, <a href="${base}/${SITE_EXPORTS.sarif.file}" download>SARIF 2.1.0</a>,
<a href="${base}/${SITE_EXPORTS.pdf.file}" download>PDF report</a> (each page's stored report, with the site's ignored rules and excluded elements left out).</p>`;
}

/** The confirmation before a site is removed: its scans and schedule go with it; Cancel returns to the site. */
export function removeSitePage(user: UserView, csrf: string, site: Site, scans: number): string {
  return confirmPage({
    user,
    csrf,
    question: `Remove the site "${site.name}"?`,
    consequences: html`<p><strong>${site.start_url}</strong> is no longer monitored. Its settings and ${scans ? plural(scans, 'scan') : 'its scans (none yet)'} go with it: the score trend, the fix plans, the page lists and their exports. ${site.schedule === 'off' ? '' : `Its ${site.schedule} scans stop. `}${site.verified_at ? 'Adding it again needs a new proof of ownership.' : ''}</p>
<p>This cannot be undone.</p>`,
    action: `/dashboard/sites/${site.id}/remove`,
    button: 'Remove the site and its scans',
    cancel: `/dashboard/sites/${site.id}`,
  });
}
