/**
 * Over 300 lines: the overview page plus the pieces every dashboard tab shares (tab navigation, tables, filter form,
 * pager, highlighted answers), kept together so the tabs look and read alike by construction.
 */
import type { UserView } from '../../accounts/accounts.service';
import type { Delta, ScanChanges } from '../../visibility/derive/changes';
import type { Ci } from '../../visibility/derive/intervals';
import type { AnswerItem, History, Visibility } from '../../visibility/dto/responses';
import { scanImportCommand } from '../../visibility/visibility.cli';
import { lineChart } from '../render/chart';
import { html, qs, Renderable, SafeHtml } from '../../common/html/html';
import { page } from '../../common/html/page';
import { errorSummary } from '../render/layout';
import { oneDecimal, percent } from '../render/values';
import { plural } from '../../common/text/plural';

// The bodies the dashboard reads from VisibilityQueryService: the API's own types (visibility/dto/responses.ts).
export type SummaryView = Visibility;
export type HistoryView = History;

export type DashboardTab = 'overview' | 'trends' | 'prompts' | 'answers' | 'sources' | 'urls' | 'gaps';

const TABS: Array<[DashboardTab, string, string]> = [
  ['overview', 'Overview', '/dashboard'],
  ['trends', 'Trends', '/dashboard/trends'],
  ['prompts', 'Prompts', '/dashboard/prompts'],
  ['answers', 'Answers', '/dashboard/answers'],
  ['sources', 'Sources', '/dashboard/sources'],
  ['urls', 'URLs', '/dashboard/urls'],
  ['gaps', 'Gaps', '/dashboard/gaps'],
];

/** A count as it is; a rate (percent or percentage points) with the one decimal of every percentage on the dashboard. */
type Format = (v: number) => string;
const count: Format = (v) => String(v);
const signed = (v: number | null, f: Format): SafeHtml =>
  v === null
    ? html`–`
    : v > 0
      ? html`<span class="up">+${f(v)}</span>`
      : v < 0
        ? html`<span class="down">${f(v)}</span>`
        : html`${f(0)}`;
/** A rate's 95 % Wilson interval as the API gives it (`<rate>_ci`), e.g. "95 % interval 19.6–43.1 %". */
export const interval = (ci: Ci): string =>
  ci ? `95 % interval ${oneDecimal(ci.low)}–${oneDecimal(ci.high)} %` : 'no interval (no sample)';
/** Whether a week-over-week change is statistically significant (the API's two-proportion test at 95 %), in words. */
export const significance = (d: Delta): string =>
  d.significant === null ? 'not tested' : `${d.significant ? 'yes' : 'no'} (p = ${d.p_value})`;
const GRADE_REASONS: Record<string, string> = {
  insufficient_data: 'not graded: fewer than 20 successful answers in the scan',
};
/**
 * The API's change codes (grade_up, gaps_gained, ...) in words, as the header above the table says
 * them, each with what changed as the API counts it: "grade up (C to B), gaps gained: 3, gaps lost: 1".
 */
export function changeWords(changes: ScanChanges | null | undefined): string {
  if (!changes?.detected.length) return '–';
  const detail = (code: string): string => {
    const [what, how] = [code.slice(0, code.lastIndexOf('_')), code.slice(code.lastIndexOf('_') + 1)];
    if (what === 'grade' && changes.grade)
      return ` (${changes.grade.from ?? 'no grade'} to ${changes.grade.to ?? 'no grade'})`;
    if (what === 'mention_rate' && changes.mention_rate.delta !== null)
      return ` (${changes.mention_rate.delta > 0 ? '+' : ''}${oneDecimal(changes.mention_rate.delta)} points)`;
    const set = what === 'sources' ? changes.sources : what === 'gaps' ? changes.gaps : null;
    if (set && how === 'gained') return `: ${set.gained_count}`;
    if (set && how === 'lost') return `: ${set.lost_count}`;
    return '';
  };
  return changes.detected.map((c) => `${c.replace(/_/g, ' ')}${detail(c)}`).join(', ');
}

/** Why a failed answer failed, from the status stored with it (import: "ok" or a failure status such as "error"). */
const FAILURES: Record<string, string> = {
  error: 'the platform answered with an error',
  timeout: 'the platform did not answer in time',
  refused: 'the platform refused to answer',
  rate_limited: 'the platform refused more questions for a while (rate limit)',
  blocked: 'the question was blocked',
  empty: 'the platform gave an empty answer',
};
export const failureReason = (status: string): string =>
  FAILURES[status] ?? `the platform's status was "${status.replace(/_/g, ' ')}"`;
const gradeText = (grade: string | null, reason: string | null): string =>
  grade ?? `No grade (${reason ? (GRADE_REASONS[reason] ?? reason) : 'unknown'})`;

/** A page of the dashboard section: its heading, then the dashboard's navigation (`tab` current), then `body`. */
export function dashboardPage(
  user: UserView,
  csrf: string,
  title: string,
  tab: Parameters<typeof dashboardNav>[0],
  heading: SafeHtml,
  body: SafeHtml,
  address?: string,
): string {
  return page({
    title,
    section: 'dashboard',
    user,
    csrf,
    address,
    body: html`<h1>${heading}</h1>
${dashboardNav(tab, user)}
${body}`,
  });
}

export function dashboardNav(
  active: DashboardTab | 'settings' | 'members' | 'ai-providers' | 'alerts' | 'sites' | 'tracking' | 'scans',
  user: UserView,
): SafeHtml {
  const cur = (on: boolean) => (on ? html` aria-current="page"` : '');
  return html`<nav class="subnav" aria-label="Dashboard"><ul>
${TABS.map(([t, label, href]) => html`<li><a href="${href}"${cur(t === active)}>${label}</a></li>`)}
<li><a href="/dashboard/tracking"${cur(active === 'tracking')}>What to track</a></li>
<li><a href="/dashboard/scans"${cur(active === 'scans')}>Scans</a></li>
<li><a href="/dashboard/sites"${cur(active === 'sites')}>Accessibility sites</a></li>
<li><a href="/dashboard/settings/api-keys"${cur(active === 'settings')}>Settings: API keys</a></li>
<li><a href="/dashboard/settings/members"${cur(active === 'members')}>Members${user.role === 'admin' ? '' : ' (view)'}</a></li>
<li><a href="/dashboard/settings/ai-providers"${cur(active === 'ai-providers')}>AI providers</a></li>
<li><a href="/dashboard/settings/alerts"${cur(active === 'alerts')}>Alerts${user.role === 'admin' ? '' : ' (view)'}</a></li>
</ul></nav>`;
}

/**
 * A data table with a caption, column headers and row headers. `stack`: on a phone (under 40rem)
 * each row becomes a card of "Header: value" lines instead of a table wider than the screen; the
 * roles are spelled out so the table keeps its semantics whatever the CSS display, and the visible
 * labels are CSS content with empty alternative text (screen readers hear the column headers).
 */
export function table(
  caption: string,
  head: Array<string | [string, 'num']>,
  rows: Renderable[][],
  empty = 'Nothing to show.',
  o: { stack?: boolean } = {},
): SafeHtml {
  if (rows.length === 0) return html`<p>${empty}</p>`;
  const isNum = head.map((h) => Array.isArray(h));
  const names = head.map((h) => (Array.isArray(h) ? h[0] : h));
  const role = (r: string) => (o.stack ? html` role="${r}"` : '');
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table${o.stack ? html` class="stack" role="table"` : ''}>
<caption>${caption}</caption>
<thead${role('rowgroup')}><tr${role('row')}>${head.map((h) => (Array.isArray(h) ? html`<th scope="col" class="num"${role('columnheader')}>${h[0]}</th>` : html`<th scope="col"${role('columnheader')}>${h}</th>`))}</tr></thead>
<tbody${role('rowgroup')}>${rows.map(
    (r) =>
      html`<tr${role('row')}>${r.map((c, i) =>
        i === 0
          ? html`<th scope="row"${role('rowheader')}>${c}</th>`
          : html`<td${isNum[i] ? html` class="num"` : ''}${o.stack ? html` role="cell" data-label="${names[i]}"` : ''}>${c}</td>`,
      )}</tr>`,
  )}</tbody>
</table></div>`;
}

export function emptyDashboard(user: UserView, csrf: string): string {
  return dashboardPage(
    user,
    csrf,
    'Dashboard',
    'overview',
    html`Dashboard`,
    html`<div class="notice"><h2>No visibility data yet</h2>
<p>Workspace <strong>${user.workspace}</strong> has no scan yet. Once a scan is imported (<code>npm run admin -- ${scanImportCommand.name} ${user.workspace} scan.json</code>), its grade, mention rate, prompts, answers and sources appear here, and the same figures in the API.</p>
<p>You can already create an API key under <a href="/dashboard/settings/api-keys">Settings: API keys</a>.</p></div>`,
  );
}

export function overviewPage(user: UserView, csrf: string, s: SummaryView, h: HistoryView): string {
  const l = s.latest;
  const c = s.comparison;
  const scans = [...h.scans].reverse();
  const deltaRow = (label: string, d: Delta, f: Format = oneDecimal) => [
    label,
    d.latest === null ? '–' : f(d.latest),
    d.previous === null ? '–' : f(d.previous),
    signed(d.delta, f),
    significance(d),
  ];
  return dashboardPage(
    user,
    csrf,
    'Dashboard',
    'overview',
    html`${s.business}: AI visibility`,
    html`<p class="meta">Latest scan ${l.scan_id} of ${l.date}${s.previous ? html`, compared with ${s.previous.scan_id} of ${s.previous.date}` : ''}. Platforms: ${s.platforms.join(', ')}. ${plural(s.scans_total, 'scan')} in total.</p>
<h2>Overview</h2>
<ul class="cards">
  <li class="card"><span class="label">Grade</span><span class="value grade" id="grade">${l.grade ?? '–'}</span><span>${l.grade ? 'Mention-rate grade (A best, F worst)' : gradeText(l.grade, l.grade_reason)}</span></li>
  <li class="card"><span class="label">Mention rate</span><span class="value" id="mention-rate">${percent(l.mention_rate)}</span><span class="ci" id="mention-rate-ci">${interval(l.mention_rate_ci)}</span><span>${l.mentions} of ${plural(l.answers, 'successful answer')} (${s.answers.failed} failed, not counted)</span></li>
  <li class="card"><span class="label">Share of voice</span><span class="value" id="share-of-voice">${percent(l.share_of_voice)}</span><span class="ci" id="share-of-voice-ci">${interval(l.share_of_voice_ci)}</span><span>of ${plural(l.share_of_voice_sample, 'mention')} of your brand and competitors</span></li>
  <li class="card"><span class="label">Citation rate</span><span class="value" id="citation-rate">${percent(s.funnel.citation_rate)}</span><span class="ci" id="citation-rate-ci">${interval(s.funnel.citation_rate_ci)}</span><span>${s.funnel.with_citations} of ${plural(s.funnel.answers, 'answer')} cite a source</span></li>
</ul>
${s.changes && s.changes.detected.length ? html`<p id="changes"><strong>Changes since the previous scan:</strong> ${changeWords(s.changes)}</p>` : ''}
<h2>Week over week</h2>
${
  c
    ? table(
        'Latest scan against the previous one; a change is significant when a two-proportion test at 95 % says it is unlikely to be chance',
        ['Figure', ['Latest', 'num'], ['Previous', 'num'], ['Change', 'num'], 'Significant at 95 %'],
        [
          ['Grade', c.grade.latest ?? '–', c.grade.previous ?? '–', c.grade.direction, 'not tested'],
          deltaRow('Mention rate (%)', c.mention_rate),
          deltaRow('Share of voice (%)', c.share_of_voice),
          deltaRow('Citation rate (%)', c.citation_rate),
          deltaRow('Owned citation rate (%)', c.owned_citation_rate),
          deltaRow('Successful answers', c.answers, count),
          ...c.platforms.map((p) => deltaRow(`Mention rate on ${p.platform} (%)`, p)),
          ...c.competitors.map((p) => deltaRow(`${p.name}: mention rate (%)`, p)),
        ],
        'Nothing to compare.',
        { stack: true },
      )
    : html`<p>Only one scan so far: the comparison appears after the next scan.</p>`
}
<h2>Citation funnel</h2>
${table(
  'How answers cite sources',
  ['Step', ['Answers', 'num'], ['Rate', 'num']],
  [
    ['Successful answers', s.funnel.answers, ''],
    ['Citing any source', s.funnel.with_citations, percent(s.funnel.citation_rate)],
    ['Citing your domains', s.funnel.with_owned_citation, percent(s.funnel.owned_citation_rate)],
    [
      'Mentioning you and citing your domains',
      s.funnel.mentioned_with_owned_citation,
      percent(s.funnel.mentioned_with_owned_citation_rate),
    ],
  ],
)}
<h2>Platforms</h2>
${table(
  'Figures per AI platform in the latest scan',
  [
    'Platform',
    ['Answers', 'num'],
    ['Failed', 'num'],
    ['Mentions', 'num'],
    ['Mention rate', 'num'],
    ['Share of voice', 'num'],
    'Grade',
  ],
  s.by_platform.map((p) => [
    p.platform,
    p.answers,
    p.failed,
    p.mentions,
    percent(p.mention_rate),
    percent(p.share_of_voice),
    gradeText(p.grade, p.grade_reason),
  ]),
  'No platform yet.',
  { stack: true },
)}
<h2>Competitors</h2>
${table(
  'Tracked competitors in the latest scan',
  ['Competitor', ['Answers mentioning', 'num'], ['Mention rate', 'num'], ['Share of voice', 'num']],
  s.competitors.map((x) => [x.name, x.mentions, percent(x.mention_rate), percent(x.share_of_voice)]),
  'No competitors are tracked.',
  { stack: true },
)}
<h2 id="history">History</h2>
<div class="chart-scroll" tabindex="0" role="region" aria-label="History chart (scrolls sideways on a narrow screen)">${lineChart(
      scans.map((x) => ({ label: x.date, value: x.mention_rate, note: x.grade })),
      {
        title: 'Mention rate and grade per scan',
        desc: `Mention rate in percent for ${plural(scans.length, 'scan')} from ${scans[0]?.date ?? ''} to ${scans[scans.length - 1]?.date ?? ''}, with the grade above each point. The table below has the same data.`,
        unit: '%',
      },
    )}</div>
${table(
  'Scan history (the data of the chart), newest first',
  [
    'Date',
    'Scan',
    'Grade',
    ['Mention rate', 'num'],
    ['Share of voice', 'num'],
    ['Citation rate', 'num'],
    ['Answers', 'num'],
    'Changes',
  ],
  h.scans.map((x) => [
    x.date,
    x.scan_id,
    gradeText(x.grade, x.grade_reason),
    percent(x.mention_rate),
    percent(x.share_of_voice),
    percent(x.citation_rate),
    x.answers.successful,
    changeWords(x.changes),
  ]),
  'No scan yet.',
  { stack: true },
)}
${h.next_cursor ? html`<p>Older scans: <a href="/dashboard${qs({ history_cursor: h.next_cursor })}#history">next page</a>.</p>` : ''}`,
  );
}

/** A filter of a list page: a text field, or a list of the values the data has (value, or [value, words]). */
export interface FilterField {
  name: string;
  label: string;
  value?: string;
  options?: Array<string | [string, string]>;
}
/** A filter the API refused, in the page's words, on the form field `field` (the parameter's name). */
export interface FilterProblem {
  field: string;
  message: string;
}
export const PER_PAGE = ['25', '50', '100', '500'];

/**
 * Filters as a GET form: every field labelled, values kept. A refused filter is named in an error
 * summary above the form and on its field (aria-invalid, its message beside it), the others kept.
 * A list shows the value in use even when the data does not have it (the filter is still applied).
 */
export function filterForm(
  action: string,
  fields: FilterField[],
  limit?: string,
  problem?: FilterProblem | null,
): SafeHtml {
  const all: FilterField[] = [...fields, { name: 'limit', label: 'Per page', value: limit ?? '50', options: PER_PAGE }];
  const onForm = problem && all.some((f) => f.name === problem.field);
  const invalid = (f: FilterField): SafeHtml =>
    problem?.field === f.name ? html` aria-invalid="true" aria-describedby="f-${f.name}-error"` : html``;
  const fieldError = (f: FilterField): SafeHtml =>
    problem?.field === f.name
      ? html`<span class="field-error" id="f-${f.name}-error">${problem.message}</span>`
      : html``;
  const control = (f: FilterField): SafeHtml => {
    if (!f.options)
      return html`<input type="text" id="f-${f.name}" name="${f.name}" value="${f.value ?? ''}"${invalid(f)}>`;
    const options = f.options.map((o): [string, string] => (Array.isArray(o) ? o : [o, o]));
    if (f.value && !options.some(([v]) => v === f.value)) options.push([f.value, f.value]);
    return html`<select id="f-${f.name}" name="${f.name}"${invalid(f)}>${f.name === 'limit' ? '' : html`<option value="">Any</option>`}${options.map(
      ([v, words]) => html`<option value="${v}"${v === f.value ? html` selected` : ''}>${words}</option>`,
    )}</select>`;
  };
  return html`${problem ? errorSummary(problem.message, onForm ? `f-${problem.field}` : undefined) : ''}<form class="inline" method="get" action="${action}" aria-label="Filters">
${all.map((f) => html`<div class="field"><label for="f-${f.name}">${f.label}</label>${fieldError(f)}${control(f)}</div>`)}
<button type="submit">Apply</button> <a href="${action}">Clear</a>
</form>`;
}

export function pager(
  action: string,
  params: Record<string, string | undefined>,
  next: string | null,
  total: number | undefined,
  shown: number,
): SafeHtml {
  return html`<div class="pager"><p>${total !== undefined ? `${total} in total; ` : ''}${shown} shown on this page.</p>
${params.cursor ? html`<a href="${action}${qs({ ...params, cursor: undefined })}">First page</a>` : ''}
${next ? html`<a href="${action}${qs({ ...params, cursor: next })}">Next page</a>` : ''}</div>`;
}

/** One tracked brand in one answer, as `/api/v1/answers` returns it (only the fields the page reads). */
type ApiMention = AnswerItem['mentions'][number];
export type AnswerMention = Pick<ApiMention, 'name' | 'kind' | 'status'> & {
  evidence: Array<Pick<ApiMention['evidence'][number], 'matched' | 'offset' | 'rule'>>;
  excluded: Array<Pick<ApiMention['excluded'][number], 'matched' | 'offset' | 'reason'>>;
};

/**
 * Answer text with the API's own evidence marked: counted mentions as <mark>, matches that did not
 * count (an absence statement, a common word) as <span class="excluded"> with their reason,
 * so a reader sees exactly why the numbers are what they are. The own brand's mentions are told
 * from the competitors' by more than colour: bold, and "(you)" after the name. Offsets are code
 * points of the NFC text.
 */
export function highlight(text: string, mentions: AnswerMention[]): SafeHtml {
  const chars = [...text.normalize('NFC')];
  const spans = mentions
    .flatMap((m) => [
      ...m.evidence.map((e) => ({
        at: e.offset,
        len: [...e.matched].length,
        title: `${m.name}: counted (${e.rule})`,
        counted: true,
        own: m.kind === 'brand',
      })),
      ...m.excluded.map((e) => ({
        at: e.offset,
        len: [...e.matched].length,
        title: `${m.name}: not counted (${e.reason})`,
        counted: false,
        own: m.kind === 'brand',
      })),
    ])
    .sort((a, b) => a.at - b.at);
  const out: SafeHtml[] = [];
  let last = 0;
  for (const sp of spans) {
    if (sp.at < last || sp.len === 0) continue;
    const word = chars.slice(sp.at, sp.at + sp.len).join('');
    out.push(html`${chars.slice(last, sp.at).join('')}`);
    out.push(
      !sp.counted
        ? html`<span class="excluded" title="${sp.title}">${word}</span>`
        : sp.own
          ? html`<mark class="own" title="${sp.title}">${word}<span class="you"> (you)</span></mark>`
          : html`<mark class="competitor" title="${sp.title}">${word}</mark>`,
    );
    last = sp.at + sp.len;
  }
  out.push(html`${chars.slice(last).join('')}`);
  return html`${out}`;
}

/**
 * One answer of the latest scan: its prompt, platform, what it says of the brand, the text with the
 * mentions marked. A failed answer says why it failed (the status stored with it) and that it
 * counts in no rate.
 */
export function answerItem(a: AnswerItem, brand: string): SafeHtml {
  const ok = a.status === 'ok';
  const about = ok
    ? html`${a.brand_mentioned ? `mentions ${brand}` : `does not mention ${brand}`}${a.competitors_mentioned.length ? ` · competitors: ${a.competitors_mentioned.join(', ')}` : ''}${a.cites_owned ? ' · cites your domain' : ''}`
    : html`failed`;
  return html`<article class="answer${ok ? '' : ' failed'}" aria-labelledby="answer-${a.index}">
<h3 id="answer-${a.index}">${a.prompt ?? a.prompt_id}</h3>
<p class="meta">${a.platform}${a.model ? ` (${a.model})` : ''} · ${about}</p>
${ok ? '' : html`<p class="failure" id="answer-${a.index}-failure"><strong>Failed:</strong> ${failureReason(a.status)} (status “${a.status}”). A failed answer counts in no rate.</p>`}
${a.text || ok ? html`<p class="text">${ok ? '' : html`<span class="label">What the platform returned: </span>`}${highlight(a.text, a.mentions)}</p>` : ''}
${a.citations.length ? html`<details><summary>${plural(a.citations.length, 'citation')}</summary><ul>${a.citations.map((c) => html`<li>${c}</li>`)}</ul></details>` : ''}
</article>`;
}

/** A gap's prompt ids, each a link to the prompt's answers in the latest scan, comma-separated. */
export function promptLinks(ids: string[]): SafeHtml {
  return html`${ids.map((id, i) => html`${i ? ', ' : ''}<a href="/dashboard/answers${qs({ prompt_id: id })}">${id}</a>`)}`;
}
