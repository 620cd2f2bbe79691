/**
 * The CSV columns of each exported list, written once: the header, the value (from the same typed
 * item the JSON API returns) and the description docs/visibility-api.md lists. Arrays are joined
 * with " | ", booleans are true/false, null is an empty cell, rates are percentages (one decimal).
 */
import type { AnswerItem, Gaps, History, PromptItem, ScanRef, Sources, Urls } from '../dto/responses';

export type Cell = string | number | boolean | null;
export interface Column<T> {
  name: string;
  doc: string;
  value: (item: T, scan: ScanRef | null) => Cell;
}

export const ARRAY_SEPARATOR = ' | ';
const list = (xs: readonly string[]): string => xs.join(ARRAY_SEPARATOR);
const ci = (c: { low: number; high: number } | null, side: 'low' | 'high'): Cell => (c ? c[side] : null);

type HistoryItem = History['scans'][number];
type SourceItem = Sources['sources'][number];
type UrlItem = Urls['urls'][number];
type GapItem = Gaps['gaps'][number];

const scanCols = <T>(): Array<Column<T>> => [
  { name: 'scan_id', doc: 'the scan the row belongs to', value: (_i, s) => s?.scan_id ?? null },
  { name: 'scan_date', doc: 'its date (YYYY-MM-DD)', value: (_i, s) => s?.date ?? null },
];

export const HISTORY_COLUMNS: Array<Column<HistoryItem>> = [
  { name: 'scan_id', doc: 'scan identifier', value: (r) => r.scan_id },
  { name: 'date', doc: 'YYYY-MM-DD', value: (r) => r.date },
  { name: 'platforms', doc: 'platforms sampled', value: (r) => list(r.platforms) },
  { name: 'answers_total', doc: 'answers stored', value: (r) => r.answers.total },
  { name: 'answers_successful', doc: 'successful answers (the sample)', value: (r) => r.answers.successful },
  { name: 'answers_failed', doc: 'failed answers', value: (r) => r.answers.failed },
  { name: 'grade', doc: 'A…F or empty', value: (r) => r.grade },
  { name: 'grade_reason', doc: 'insufficient_data or empty', value: (r) => r.grade_reason },
  { name: 'mention_rate', doc: '%', value: (r) => r.mention_rate },
  { name: 'mention_rate_ci_low', doc: '95 % interval', value: (r) => ci(r.mention_rate_ci, 'low') },
  { name: 'mention_rate_ci_high', doc: '95 % interval', value: (r) => ci(r.mention_rate_ci, 'high') },
  { name: 'share_of_voice', doc: '%', value: (r) => r.share_of_voice },
  { name: 'share_of_voice_sample', doc: 'mentions of all tracked brands', value: (r) => r.share_of_voice_sample },
  { name: 'share_of_voice_ci_low', doc: '95 % interval', value: (r) => ci(r.share_of_voice_ci, 'low') },
  { name: 'share_of_voice_ci_high', doc: '95 % interval', value: (r) => ci(r.share_of_voice_ci, 'high') },
  { name: 'citation_rate', doc: '%', value: (r) => r.citation_rate },
  { name: 'owned_citation_rate', doc: '%', value: (r) => r.owned_citation_rate },
  {
    name: 'changes_detected',
    doc: 'detected changes against the previous scan',
    value: (r) => (r.changes ? list(r.changes.detected) : null),
  },
  { name: 'sources_gained', doc: 'count', value: (r) => r.changes?.sources.gained_count ?? null },
  { name: 'sources_lost', doc: 'count', value: (r) => r.changes?.sources.lost_count ?? null },
  { name: 'gaps_gained', doc: 'count', value: (r) => r.changes?.gaps.gained_count ?? null },
  { name: 'gaps_lost', doc: 'count', value: (r) => r.changes?.gaps.lost_count ?? null },
];

export const PROMPT_COLUMNS: Array<Column<PromptItem>> = [
  { name: 'id', doc: 'prompt identifier', value: (r) => r.id },
  { name: 'text', doc: 'the question', value: (r) => r.text },
  { name: 'tags', doc: 'tags', value: (r) => list(r.tags) },
  { name: 'intent', doc: 'intent or empty', value: (r) => r.intent },
  { name: 'country', doc: 'ISO 3166-1 alpha-2 or empty', value: (r) => r.country },
  { name: 'enabled', doc: 'true/false', value: (r) => r.enabled },
  {
    name: 'latest_answers',
    doc: 'successful answers in the latest scan (empty: not asked)',
    value: (r) => r.latest?.answers ?? null,
  },
  { name: 'latest_mentions', doc: 'of them naming the brand', value: (r) => r.latest?.mentions ?? null },
  { name: 'latest_mention_rate', doc: '%', value: (r) => r.latest?.mention_rate ?? null },
];

export const ANSWER_COLUMNS: Array<Column<AnswerItem>> = [
  ...scanCols<AnswerItem>(),
  { name: 'index', doc: 'position in the scan', value: (r) => r.index },
  { name: 'prompt_id', doc: 'prompt identifier', value: (r) => r.prompt_id },
  { name: 'prompt', doc: 'prompt text', value: (r) => r.prompt },
  { name: 'platform', doc: 'platform', value: (r) => r.platform },
  { name: 'model', doc: 'model or empty', value: (r) => r.model },
  { name: 'status', doc: 'ok or the failure', value: (r) => r.status },
  { name: 'brand_mentioned', doc: 'true/false', value: (r) => r.brand_mentioned },
  { name: 'brand_position', doc: 'offset of the first mention', value: (r) => r.brand_position },
  { name: 'brand_status', doc: 'mentioned, absent or not_named', value: (r) => r.brand_status },
  { name: 'competitors_mentioned', doc: 'names', value: (r) => list(r.competitors_mentioned) },
  {
    name: 'competitors_absent',
    doc: 'names the answer says it does not know',
    value: (r) => list(r.competitors_absent),
  },
  { name: 'citations', doc: 'cited URLs', value: (r) => list(r.citations) },
  { name: 'cites_owned', doc: 'true/false', value: (r) => r.cites_owned },
  { name: 'text', doc: 'the answer text', value: (r) => r.text },
];

export const SOURCE_COLUMNS: Array<Column<SourceItem>> = [
  ...scanCols<SourceItem>(),
  { name: 'domain', doc: 'registrable domain', value: (r) => r.domain },
  { name: 'category', doc: 'source category', value: (r) => r.category },
  { name: 'citations', doc: 'count', value: (r) => r.citations },
  { name: 'answers', doc: 'count', value: (r) => r.answers },
  { name: 'prompts', doc: 'count', value: (r) => r.prompts },
  { name: 'urls', doc: 'count', value: (r) => r.urls },
  { name: 'platforms', doc: 'platforms', value: (r) => list(r.platforms) },
];

export const URL_COLUMNS: Array<Column<UrlItem>> = [
  ...scanCols<UrlItem>(),
  { name: 'url', doc: 'cited URL', value: (r) => r.url },
  { name: 'domain', doc: 'registrable domain', value: (r) => r.domain },
  { name: 'category', doc: 'source category', value: (r) => r.category },
  { name: 'citations', doc: 'count', value: (r) => r.citations },
  { name: 'answers', doc: 'count', value: (r) => r.answers },
  { name: 'prompts', doc: 'count', value: (r) => r.prompts },
  { name: 'platforms', doc: 'platforms', value: (r) => list(r.platforms) },
];

export const GAP_COLUMNS: Array<Column<GapItem>> = [
  ...scanCols<GapItem>(),
  { name: 'url', doc: 'cited URL', value: (r) => r.url },
  { name: 'domain', doc: 'registrable domain', value: (r) => r.domain },
  { name: 'category', doc: 'source category', value: (r) => r.category },
  { name: 'answers', doc: 'answers citing it that name a competitor and not the brand', value: (r) => r.answers },
  { name: 'competitors', doc: 'names', value: (r) => list(r.competitors) },
  { name: 'prompts', doc: 'prompt ids', value: (r) => list(r.prompts) },
  { name: 'platforms', doc: 'platforms', value: (r) => list(r.platforms) },
];
