/**
 * The column list of each per-scan table, written once: inserts (VisibilityWriteStore) and
 * selects (VisibilityReadStore) both read it. Each column has its SQL type and how to read it from
 * the derived row.
 */
import type { DerivedAnswer, GapRow, SourceRow, UrlRow } from '../derive/metrics';
import { answerTail } from './answer-json';

export type ColumnType = 'int' | 'text' | 'boolean' | 'jsonb' | 'text[]';
export type Columns<T> = Record<string, [ColumnType, (row: T) => unknown]>;

export const ANSWER_COLUMNS: Columns<DerivedAnswer> = {
  seq: ['int', (a) => a.seq],
  prompt_key: ['text', (a) => a.promptId],
  platform: ['text', (a) => a.platform],
  model: ['text', (a) => a.model],
  status: ['text', (a) => a.status],
  text: ['text', (a) => a.text],
  citations: ['text[]', (a) => a.citations],
  brand_mentioned: ['boolean', (a) => a.brandMentioned],
  brand_position: ['int', (a) => a.brandPosition],
  brand_status: ['text', (a) => a.brandStatus],
  mentions: ['jsonb', (a) => a.mentions],
  competitor_mentions: ['jsonb', (a) => a.competitorMentions],
  cites_owned: ['boolean', (a) => a.citesOwned],
  /** The answer's GET /answers JSON after its prompt, written once (answer-json.ts). */
  api_tail: ['text', answerTail],
};

export const SOURCE_COLUMNS: Columns<SourceRow> = {
  domain: ['text', (r) => r.domain],
  category: ['text', (r) => r.category],
  citations: ['int', (r) => r.citations],
  answers: ['int', (r) => r.answers],
  prompts: ['int', (r) => r.prompts],
  urls: ['int', (r) => r.urls],
  platforms: ['text[]', (r) => r.platforms],
};

export const URL_COLUMNS: Columns<UrlRow> = {
  url: ['text', (r) => r.url],
  domain: ['text', (r) => r.domain],
  category: ['text', (r) => r.category],
  citations: ['int', (r) => r.citations],
  answers: ['int', (r) => r.answers],
  prompts: ['int', (r) => r.prompts],
  platforms: ['text[]', (r) => r.platforms],
};

export const GAP_COLUMNS: Columns<GapRow> = {
  url: ['text', (r) => r.url],
  domain: ['text', (r) => r.domain],
  category: ['text', (r) => r.category],
  answers: ['int', (r) => r.answers],
  competitors: ['text[]', (r) => r.competitors],
  prompts: ['text[]', (r) => r.prompts],
  platforms: ['text[]', (r) => r.platforms],
};

/** `a, b, c` for a SELECT of these columns. */
export const selectList = (columns: object): string => Object.keys(columns).join(', ');
