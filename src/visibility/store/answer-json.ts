/**
 * The JSON of an answer in GET /answers, written once at ingest instead of per request (issue #25).
 * The stored part (`vis_answers.api_tail`) is everything after the prompt: from `"platform"` to the
 * closing brace. The head (index, prompt id and the prompt's text, which a later import or an edit
 * may change) is written at read time. The bytes are those the API wrote before, when PostgreSQL
 * built each row from the columns and the server sent `JSON.stringify(JSON.parse(row))`:
 *  - strings as PostgreSQL stores them: text columns get a lone surrogate as U+FFFD (what the driver
 *    sends; jsonb refuses one, so the jsonb parts have none);
 *  - objects of the jsonb columns (`mentions`, `competitor_mentions`) with their keys in jsonb's order
 *    (shorter keys first, then bytewise), except that JavaScript puts array-index keys first.
 * Numbers are integers or null (offsets, counts), written the same by both paths.
 */
import type { DerivedAnswer } from '../derive/metrics';

/** What the PostgreSQL driver stores for a JavaScript string: lone surrogates become U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const stored = (s: string): string => s.replace(LONE_SURROGATE, '\uFFFD');
const str = (s: string | null): string => JSON.stringify(s === null ? null : stored(s));

/** jsonb's order of object keys: by length in UTF-8 bytes, then bytewise. */
function jsonbKeyOrder(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length - y.length || Buffer.compare(x, y);
}

/** JSON.stringify replacer giving each object its keys in jsonb's order. */
function asJsonb(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort(jsonbKeyOrder)) out[k] = o[k];
  return out;
}

/** The stored part of an answer's API JSON: `"platform":...,"mentions":[...]}`. */
export function answerTail(a: DerivedAnswer): string {
  const absent = a.mentions.filter((m) => m.kind === 'competitor' && m.status === 'absent').map((m) => m.name);
  return (
    `"platform":${str(a.platform)},"model":${str(a.model)},"status":${str(a.status)},"text":${str(a.text)},` +
    `"brand_mentioned":${a.brandMentioned},"brand_position":${JSON.stringify(a.brandPosition)},` +
    `"brand_status":${str(a.brandStatus)},` +
    `"competitors_mentioned":${JSON.stringify(a.competitorMentions.map((c) => c.name))},` +
    `"competitors_absent":${JSON.stringify(absent)},` +
    `"competitor_mentions":${JSON.stringify(a.competitorMentions, asJsonb)},` +
    `"citations":${JSON.stringify(a.citations.map(stored))},"cites_owned":${a.citesOwned},` +
    `"mentions":${JSON.stringify(a.mentions, asJsonb)}}`
  );
}

/** An answer's API JSON from its stored part and its head. */
export function answerJson(seq: number, promptKey: string, prompt: string | null, tail: string): string {
  return `{"index":${seq},"prompt_id":${JSON.stringify(promptKey)},"prompt":${JSON.stringify(prompt)},${tail}`;
}
