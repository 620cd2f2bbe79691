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
const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const stored = (s: string): string => (SURROGATE.test(s) ? s.replace(LONE_SURROGATE, '\uFFFD') : s);
const str = (s: string | null): string => JSON.stringify(s === null ? null : stored(s));

/** jsonb's order of object keys: by length in UTF-8 bytes, then bytewise (for ASCII keys, as JavaScript compares). */
function jsonbKeyOrder(a: string, b: string): number {
  if (ascii(a) && ascii(b)) return a.length - b.length || (a === b ? 0 : a < b ? -1 : 1);
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length - y.length || Buffer.compare(x, y);
}
/** Only ASCII: one UTF-8 byte per UTF-16 unit. */
const ascii = (s: string): boolean => Buffer.byteLength(s) === s.length;

/** Sorted key lists by object shape (the keys in their own order): a derived scan has a handful of shapes. */
const shapes = new Map<string, string[]>();
const SHAPES_MAX = 1000;

/** JSON.stringify replacer giving each object its keys in jsonb's order. */
function asJsonb(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  const shape = keys.join('\u0000');
  let sorted = shapes.get(shape);
  if (sorted === undefined) {
    sorted = [...keys].sort(jsonbKeyOrder);
    if (shapes.size < SHAPES_MAX) shapes.set(shape, sorted);
  }
  const out: Record<string, unknown> = {};
  for (const k of sorted) out[k] = o[k];
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
  return answerHead(seq, promptKey, prompt) + tail;
}

/** The head of an answer's API JSON, up to the stored part: `{"index":..,"prompt_id":..,"prompt":..,`. */
export function answerHead(seq: number, promptKey: string, prompt: string | null): string {
  return `{"index":${seq},"prompt_id":${JSON.stringify(promptKey)},"prompt":${JSON.stringify(prompt)},`;
}
