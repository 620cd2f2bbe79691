/**
 * The SQL of GET /answers' rows, run by VisibilityReadStore: the filter, the page, and the JSON
 * PostgreSQL builds for a row stored without its own.
 */
import type { AnswersQuery } from '../dto/query.dto';
import type { CursorKey } from '../pagination';
import { Where } from './where';

/** An answer of GET /answers as PostgreSQL's json (API field order) from `a` (vis_answers) and `pr` (vis_prompts). */
export const ANSWER_JSON = `json_build_object(
  'index', a.seq, 'prompt_id', a.prompt_key, 'prompt', pr.text, 'platform', a.platform, 'model', a.model,
  'status', a.status, 'text', a.text, 'brand_mentioned', a.brand_mentioned, 'brand_position', a.brand_position,
  'brand_status', a.brand_status,
  'competitors_mentioned', ARRAY(SELECT e->>'name' FROM jsonb_array_elements(a.competitor_mentions) e),
  'competitors_absent', ARRAY(SELECT e->>'name' FROM jsonb_array_elements(a.mentions) e
                               WHERE e->>'kind' = 'competitor' AND e->>'status' = 'absent'),
  'competitor_mentions', a.competitor_mentions, 'citations', a.citations, 'cites_owned', a.cites_owned,
  'mentions', a.mentions)`;

/** The WHERE clause of an answers query on `a` (vis_answers) for a scan and the query's filters. */
export function answerFilter(workspaceId: string, scanId: string, q: AnswersQuery): Where {
  const w = new Where().add((v) => `a.scan_id = ${v(scanId)}`);
  if (q.platform !== undefined) w.add((v) => `a.platform = ${v(q.platform)}`);
  if (q.mentioned !== undefined) w.add((v) => `a.brand_mentioned = ${v(q.mentioned === 'true')}`);
  if (q.brand_status !== undefined) w.add((v) => `a.brand_status = ${v(q.brand_status)}`);
  if (q.prompt_id !== undefined) w.add((v) => `a.prompt_key = ${v(q.prompt_id)}`);
  if (q.cited_url !== undefined) w.add((v) => `${v(q.cited_url)} = ANY(a.citations)`);
  if (q.gap_url !== undefined) {
    // As derive/metrics.ts counts a gap's answers.
    w.add(
      (v) =>
        `${v(q.gap_url)} = ANY(a.citations) AND NOT a.brand_mentioned AND jsonb_array_length(a.competitor_mentions) > 0`,
    );
  }
  if (q.cited_domain !== undefined) {
    // The host of each (normalised) citation: the domain itself or one of its subdomains.
    w.add((v) => {
      const d = v(q.cited_domain!.toLowerCase());
      return `EXISTS (SELECT 1 FROM unnest(a.citations) c, lower(substring(c from '^[A-Za-z][A-Za-z0-9+.-]*://([^/:?#]+)')) h
                      WHERE h = ${d} OR right(h, length(${d}) + 1) = '.' || ${d})`;
    });
  }
  if (q.competitor !== undefined) {
    w.add(
      (v) =>
        `EXISTS (SELECT 1 FROM jsonb_array_elements(a.competitor_mentions) e WHERE lower(e->>'name') = lower(${v(q.competitor)}))`,
    );
  }
  if (q.tag !== undefined) {
    w.add(
      (v) =>
        `a.prompt_key IN (SELECT prompt_key FROM vis_prompts WHERE workspace_id = ${v(workspaceId)} AND ${v(q.tag)} = ANY(tags))`,
    );
  }
  return w;
}

/** The page's rows (picked first, in primary key order) joined to their prompts; see VisibilityReadStore.answers. */
export function answersSql(
  workspaceId: string,
  scanId: string,
  q: AnswersQuery,
  limit: number,
  after: CursorKey | null,
): { sql: string; params: unknown[] } {
  const w = answerFilter(workspaceId, scanId, q);
  if (after) w.add((v) => `a.seq > ${v(after[0])}`);
  const ws = w.params.push(workspaceId);
  return {
    sql: `SELECT a.seq, a.prompt_key, pr.text AS prompt, a.api_tail, CASE WHEN a.api_tail IS NULL THEN ${ANSWER_JSON}::text END AS json
       FROM (SELECT * FROM vis_answers a WHERE ${w.sql} ORDER BY a.seq LIMIT ${limit}) a
       LEFT JOIN vis_prompts pr ON pr.workspace_id = $${ws} AND pr.prompt_key = a.prompt_key
      ORDER BY a.seq`,
    params: w.params,
  };
}

/** The names given to the page's SQL texts, by text (see {@link answersStatementName}). */
const statementNames = new Map<string, string>();
/**
 * At most this many of the page's SQL texts get a name (each filter set and limit is a text of its
 * own; each named one is kept prepared on every pool connection that ran it); the others run unnamed.
 */
const NAMED_STATEMENTS_MAX = 64;

/**
 * The name of a prepared statement for one of the page's SQL texts ({@link answersSql}), or
 * undefined past {@link NAMED_STATEMENTS_MAX}: a named statement is parsed once per connection and,
 * after a few runs, planned once (PostgreSQL's generic plan), instead of on every request (about
 * 0.5 ms of the database's CPU for a 500-row page). One name always stands for the same text.
 */
export function answersStatementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < NAMED_STATEMENTS_MAX) {
    name = `vis_answers_page_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
}
