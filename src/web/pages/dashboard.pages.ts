import type { UserView } from '../../accounts/accounts.service';
import { mentionMatcher } from '../../visibility/derive/mentions';
import { lineChart } from '../render/chart';
import { html, qs, Renderable, SafeHtml } from '../render/html';
import { page } from '../render/layout';

// The shapes the dashboard reads from VisibilityQueryService (the API's bodies).
interface Delta {
  latest: number | null;
  previous: number | null;
  delta: number | null;
}
interface Stub {
  scan_id: string;
  date: string;
  grade: string | null;
  grade_reason: string | null;
  mention_rate: number | null;
  share_of_voice: number | null;
  answers: number;
}
interface FunnelView {
  answers: number;
  with_citations: number;
  with_owned_citation: number;
  mentioned_with_owned_citation: number;
  citation_rate: number | null;
  owned_citation_rate: number | null;
  mentioned_with_owned_citation_rate: number | null;
}
export interface SummaryView {
  business: string;
  brand: { name: string; aliases?: string[] };
  platforms: string[];
  latest: Stub;
  previous: Stub | null;
  scans_total: number;
  answers: { total: number; successful: number; failed: number };
  funnel: FunnelView;
  by_platform: Array<{ platform: string; answers: number; failed: number; mentions: number; mention_rate: number | null; share_of_voice: number | null; grade: string | null; grade_reason: string | null }>;
  competitors: Array<{ name: string; answers: number; mentions: number; mention_rate: number | null; share_of_voice: number | null }>;
  comparison: null | {
    grade: { latest: string | null; previous: string | null; direction: string };
    mention_rate: Delta;
    share_of_voice: Delta;
    citation_rate: Delta;
    owned_citation_rate: Delta;
    answers: Delta;
    platforms: Array<{ platform: string } & Delta>;
    competitors: Array<{ name: string } & Delta>;
  };
  changes: null | { detected: string[] };
}
export interface HistoryView {
  scans_total: number;
  scans: Array<{ scan_id: string; date: string; answers: { successful: number }; grade: string | null; grade_reason: string | null; mention_rate: number | null; share_of_voice: number | null; citation_rate: number | null; changes: null | { detected: string[] } }>;
  next_cursor: string | null;
}

export type DashboardTab = 'overview' | 'prompts' | 'answers' | 'sources' | 'urls' | 'gaps';

const TABS: Array<[DashboardTab, string, string]> = [
  ['overview', 'Overview', '/dashboard'],
  ['prompts', 'Prompts', '/dashboard/prompts'],
  ['answers', 'Answers', '/dashboard/answers'],
  ['sources', 'Sources', '/dashboard/sources'],
  ['urls', 'URLs', '/dashboard/urls'],
  ['gaps', 'Gaps', '/dashboard/gaps'],
];

export const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `${v}%`);
const signed = (v: number | null): SafeHtml =>
  v === null ? html`–` : v > 0 ? html`<span class="up">+${v}</span>` : v < 0 ? html`<span class="down">${v}</span>` : html`0`;
const GRADE_REASONS: Record<string, string> = { insufficient_data: 'not graded: fewer than 20 successful answers in the scan' };
const gradeText = (grade: string | null, reason: string | null): string => grade ?? `No grade (${reason ? (GRADE_REASONS[reason] ?? reason) : 'unknown'})`;

export function dashboardNav(active: DashboardTab | 'settings' | 'members', user: UserView): SafeHtml {
  const cur = (on: boolean) => (on ? html` aria-current="page"` : '');
  return html`<nav class="subnav" aria-label="Dashboard"><ul>
${TABS.map(([t, label, href]) => html`<li><a href="${href}"${cur(t === active)}>${label}</a></li>`)}
<li><a href="/dashboard/settings/api-keys"${cur(active === 'settings')}>Settings: API keys</a></li>
<li><a href="/dashboard/settings/members"${cur(active === 'members')}>Members${user.role === 'admin' ? '' : ' (view)'}</a></li>
</ul></nav>`;
}

export function table(caption: string, head: Array<string | [string, 'num']>, rows: Renderable[][], empty = 'Nothing to show.'): SafeHtml {
  if (rows.length === 0) return html`<p>${empty}</p>`;
  const isNum = head.map((h) => Array.isArray(h));
  return html`<div class="table-wrap"><table>
<caption>${caption}</caption>
<thead><tr>${head.map((h) => (Array.isArray(h) ? html`<th scope="col" class="num">${h[0]}</th>` : html`<th scope="col">${h}</th>`))}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${r.map((c, i) => (i === 0 ? html`<th scope="row">${c}</th>` : isNum[i] ? html`<td class="num">${c}</td>` : html`<td>${c}</td>`))}</tr>`)}</tbody>
</table></div>`;
}

export function emptyDashboard(user: UserView, csrf: string): string {
  return page({
    title: 'Dashboard',
    section: 'dashboard',
    user,
    csrf,
    body: html`<h1>Dashboard</h1>
${dashboardNav('overview', user)}
<div class="notice"><h2>No visibility data yet</h2>
<p>Workspace <strong>${user.workspace}</strong> has no scan yet. Once a scan is imported (<code>npm run admin -- visibility:import ${user.workspace} scan.json</code>), its grade, mention rate, prompts, answers and sources appear here, and the same figures in the API.</p>
<p>You can already create an API key under <a href="/dashboard/settings/api-keys">Settings: API keys</a>.</p></div>`,
  });
}

export function overviewPage(user: UserView, csrf: string, s: SummaryView, h: HistoryView): string {
  const l = s.latest;
  const c = s.comparison;
  const scans = [...h.scans].reverse();
  const deltaRow = (label: string, d: Delta, unit = '') => [label, d.latest === null ? '–' : `${d.latest}${unit}`, d.previous === null ? '–' : `${d.previous}${unit}`, signed(d.delta)];
  return page({
    title: 'Dashboard',
    section: 'dashboard',
    user,
    csrf,
    body: html`<h1>${s.business}: AI visibility</h1>
${dashboardNav('overview', user)}
<p class="meta">Latest scan ${l.scan_id} of ${l.date}${s.previous ? html`, compared with ${s.previous.scan_id} of ${s.previous.date}` : ''}. Platforms: ${s.platforms.join(', ')}. ${s.scans_total} scan(s) in total.</p>
<h2>Overview</h2>
<ul class="cards">
  <li class="card"><span class="label">Grade</span><span class="value grade" id="grade">${l.grade ?? '–'}</span><span>${l.grade ? 'Mention-rate grade (A best, F worst)' : gradeText(l.grade, l.grade_reason)}</span></li>
  <li class="card"><span class="label">Mention rate</span><span class="value" id="mention-rate">${pct(l.mention_rate)}</span><span>of ${l.answers} successful answers (${s.answers.failed} failed, not counted)</span></li>
  <li class="card"><span class="label">Share of voice</span><span class="value" id="share-of-voice">${pct(l.share_of_voice)}</span><span>of brand and competitor mentions</span></li>
  <li class="card"><span class="label">Citation rate</span><span class="value">${pct(s.funnel.citation_rate)}</span><span>answers citing any source</span></li>
</ul>
${s.changes && s.changes.detected.length ? html`<p><strong>Changes since the previous scan:</strong> ${s.changes.detected.join(', ').replace(/_/g, ' ')}</p>` : ''}
<h2>Week over week</h2>
${c
  ? table(
      'Latest scan against the previous one',
      ['Figure', ['Latest', 'num'], ['Previous', 'num'], ['Change', 'num']],
      [
        ['Grade', c.grade.latest ?? '–', c.grade.previous ?? '–', c.grade.direction],
        deltaRow('Mention rate (%)', c.mention_rate),
        deltaRow('Share of voice (%)', c.share_of_voice),
        deltaRow('Citation rate (%)', c.citation_rate),
        deltaRow('Owned citation rate (%)', c.owned_citation_rate),
        deltaRow('Successful answers', c.answers),
        ...c.platforms.map((p) => deltaRow(`Mention rate on ${p.platform} (%)`, p)),
        ...c.competitors.map((p) => deltaRow(`${p.name}: mention rate (%)`, p)),
      ],
    )
  : html`<p>Only one scan so far: the comparison appears after the next scan.</p>`}
<h2>Citation funnel</h2>
${table(
  'How answers cite sources',
  ['Step', ['Answers', 'num'], ['Rate', 'num']],
  [
    ['Successful answers', s.funnel.answers, ''],
    ['Citing any source', s.funnel.with_citations, pct(s.funnel.citation_rate)],
    ['Citing your domains', s.funnel.with_owned_citation, pct(s.funnel.owned_citation_rate)],
    ['Mentioning you and citing your domains', s.funnel.mentioned_with_owned_citation, pct(s.funnel.mentioned_with_owned_citation_rate)],
  ],
)}
<h2>Platforms</h2>
${table(
  'Figures per AI platform in the latest scan',
  ['Platform', ['Answers', 'num'], ['Failed', 'num'], ['Mentions', 'num'], ['Mention rate', 'num'], ['Share of voice', 'num'], 'Grade'],
  s.by_platform.map((p) => [p.platform, p.answers, p.failed, p.mentions, pct(p.mention_rate), pct(p.share_of_voice), gradeText(p.grade, p.grade_reason)]),
)}
<h2>Competitors</h2>
${table(
  'Tracked competitors in the latest scan',
  ['Competitor', ['Answers mentioning', 'num'], ['Mention rate', 'num'], ['Share of voice', 'num']],
  s.competitors.map((x) => [x.name, x.mentions, pct(x.mention_rate), pct(x.share_of_voice)]),
  'No competitors are tracked.',
)}
<h2 id="history">History</h2>
${lineChart(
  scans.map((x) => ({ label: x.date, value: x.mention_rate, note: x.grade })),
  {
    title: 'Mention rate and grade per scan',
    desc: `Mention rate in percent for ${scans.length} scans from ${scans[0]?.date ?? ''} to ${scans[scans.length - 1]?.date ?? ''}, with the grade above each point. The table below has the same data.`,
    unit: '%',
  },
)}
${table(
  'Scan history (the data of the chart), newest first',
  ['Date', 'Scan', 'Grade', ['Mention rate', 'num'], ['Share of voice', 'num'], ['Citation rate', 'num'], ['Answers', 'num'], 'Changes'],
  h.scans.map((x) => [x.date, x.scan_id, gradeText(x.grade, x.grade_reason), pct(x.mention_rate), pct(x.share_of_voice), pct(x.citation_rate), x.answers.successful, x.changes?.detected.join(', ') || '–']),
)}
${h.next_cursor ? html`<p>Older scans: <a href="/dashboard${qs({ history_cursor: h.next_cursor })}#history">next page</a>.</p>` : ''}`,
  });
}

/** Filters as a GET form: every field labelled, values kept. */
export function filterForm(action: string, fields: Array<{ name: string; label: string; value?: string; options?: string[] }>, limit?: string): SafeHtml {
  return html`<form class="inline" method="get" action="${action}" aria-label="Filters">
${fields.map((f) =>
  f.options
    ? html`<div class="field"><label for="f-${f.name}">${f.label}</label><select id="f-${f.name}" name="${f.name}"><option value="">Any</option>${f.options.map((o) => html`<option${o === f.value ? html` selected` : ''}>${o}</option>`)}</select></div>`
    : html`<div class="field"><label for="f-${f.name}">${f.label}</label><input type="text" id="f-${f.name}" name="${f.name}" value="${f.value ?? ''}"></div>`,
)}
<div class="field"><label for="f-limit">Per page</label><select id="f-limit" name="limit">${['25', '50', '100', '500'].map((n) => html`<option${(limit ?? '50') === n ? html` selected` : ''}>${n}</option>`)}</select></div>
<button type="submit">Apply</button> <a href="${action}">Clear</a>
</form>`;
}

export function pager(action: string, params: Record<string, string | undefined>, next: string | null, total: number | undefined, shown: number): SafeHtml {
  return html`<div class="pager"><p>${total !== undefined ? `${total} in total; ` : ''}${shown} shown on this page.</p>
${params.cursor ? html`<a href="${action}${qs({ ...params, cursor: undefined })}">First page</a>` : ''}
${next ? html`<a href="${action}${qs({ ...params, cursor: next })}">Next page</a>` : ''}</div>`;
}

/** Answer text with every brand and competitor mention marked (the API's own matcher). */
export function highlight(text: string, brand: { name: string; aliases?: string[] }, competitors: string[]): SafeHtml {
  const terms = [mentionMatcher(brand), ...competitors.map((name) => mentionMatcher({ name }))].filter((m): m is RegExp => m !== null);
  if (!terms.length) return html`${text}`;
  const all = new RegExp(terms.map((t) => `(?:${t.source})`).join('|'), 'giu');
  const out: SafeHtml[] = [];
  const normalised = text.normalize('NFC');
  let last = 0;
  for (const m of normalised.matchAll(all)) {
    if (m[0].length === 0) continue;
    out.push(html`${normalised.slice(last, m.index)}<mark>${m[0]}</mark>`);
    last = m.index + m[0].length;
  }
  out.push(html`${normalised.slice(last)}`);
  return html`${out}`;
}
