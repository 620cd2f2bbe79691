/**
 * The response bodies of the visibility API, declared once: their TypeScript types (the return
 * types of VisibilityQueryService, read by the controller and the dashboard) and the
 * `components.schemas` of the OpenAPI document (openapi.ts, through json-schema.ts) both come
 * from here. Bodies are declared without the `ok: true` the envelope adds; `SCHEMAS` adds it.
 * Not used to parse at run time: the figures are built by derive/ and the store.
 */
import { z } from 'zod';
import { MENTION_STATUSES } from '../derive/classify';
import { SOURCE_CATEGORIES } from '../derive/domains';
import { Grade, GRADES } from '../derive/metrics';

const str = z.string();
const int = z.int();
const bool = z.boolean();
const num = z.number();
const rate = z.number().min(0).max(100).nullable().describe('percent, 0.1 precision; null without sample');
const ci = z
  .object({ low: num, high: num })
  .nullable()
  .describe('95 % Wilson score interval of the rate beside it (percent, 0.1); null without sample');
const test = {
  significant: bool
    .nullable()
    .describe('two-proportion z-test at 95 %; null when a sample is empty or the figure is not a rate'),
  p_value: num.nullable(),
};
const gradeEnum = z.enum(GRADES as [Grade, ...Grade[]]);
const grade = gradeEnum.nullable().describe('null below the minimum sample (see grade_reason)');
const category = z.enum(SOURCE_CATEGORIES);
const date = z.iso.date();

const funnel = z.object({
  answers: int,
  with_citations: int,
  with_owned_citation: int,
  mentioned_with_owned_citation: int,
  citation_rate: rate,
  owned_citation_rate: rate,
  mentioned_with_owned_citation_rate: rate,
  citation_rate_ci: ci,
  owned_citation_rate_ci: ci,
  mentioned_with_owned_citation_rate_ci: ci,
});
const evidence = {
  term: str.describe('the configured name or alias that matched'),
  matched: str.describe('the text as written in the answer'),
  offset: int.describe('code-point offset in the NFC answer text'),
};
export const MentionSchema = z
  .object({
    name: str,
    kind: z.enum(['brand', 'competitor']),
    status: z.enum(MENTION_STATUSES).describe('only mentioned counts in any rate'),
    position: int.nullable().describe('offset of the first counted match'),
    evidence: z.array(
      z
        .object({ ...evidence, rule: z.enum(['name', 'alias', 'domain_form', 'proper_noun']) })
        .describe('A counted match.'),
    ),
    excluded: z.array(
      z
        .object({ ...evidence, reason: z.enum(['absent', 'absent_context', 'common_word']) })
        .describe('A match that does not count, and why.'),
    ),
    counted: int,
    excluded_count: int,
  })
  .describe(
    'One tracked brand in one answer; evidence and excluded keep at most 10 items each, the counts are complete.',
  );
export const ScanStubSchema = z.object({
  scan_id: str,
  date,
  grade,
  grade_reason: str.nullable(),
  mention_rate: rate,
  mention_rate_ci: ci,
  share_of_voice: rate,
  share_of_voice_sample: int.describe('mentions of all tracked brands: the sample of share_of_voice'),
  share_of_voice_ci: ci,
  answers: int,
  mentions: int,
  absences: int.nullable().describe('successful answers saying they do not know the brand (not mentions)'),
});
const delta = { latest: num.nullable(), previous: num.nullable(), delta: num.nullable(), ...test };
const setChange = z.object({ gained: z.array(str), lost: z.array(str), gained_count: int, lost_count: int });
const changes = z
  .object({
    previous_scan_id: str,
    detected: z.array(str),
    grade: z.object({ from: grade, to: grade }).nullable(),
    mention_rate: z.object({
      from: rate,
      to: rate,
      delta: num.nullable(),
      relative_change: num.nullable(),
      ...test,
      moved: bool.describe('significant at 95 % and at least 1 point'),
    }),
    sources: setChange,
    gaps: setChange,
  })
  .nullable();
export const ScanRefSchema = z.object({ scan_id: str, date });
const counts = { citations: int, answers: int, prompts: int };
const answerCounts = z.object({ total: int, successful: int, failed: int });

export const VisibilityBody = z.object({
  business: str,
  brand: z.object({ name: str, aliases: z.array(str), domains: z.array(str) }),
  platforms: z.array(str),
  latest: ScanStubSchema,
  previous: ScanStubSchema.nullable(),
  scans_total: int,
  answers: answerCounts,
  funnel,
  by_platform: z.array(
    z.object({
      platform: str,
      answers: int,
      failed: int,
      mentions: int,
      mention_rate: rate,
      mention_rate_ci: ci,
      share_of_voice: rate,
      share_of_voice_sample: int,
      share_of_voice_ci: ci,
      grade,
      grade_reason: str.nullable(),
      funnel,
    }),
  ),
  competitors: z.array(
    z.object({
      name: str,
      domains: z.array(str),
      answers: int,
      mentions: int,
      absences: int.describe('successful answers saying they do not know this competitor'),
      mention_rate: rate,
      mention_rate_ci: ci,
      share_of_voice: rate,
      share_of_voice_sample: int,
      share_of_voice_ci: ci,
      platforms: z.array(
        z.object({ platform: str, answers: int, mentions: int, mention_rate: rate, mention_rate_ci: ci }),
      ),
    }),
  ),
  comparison: z
    .object({
      latest_scan_id: str,
      previous_scan_id: str,
      grade: z.object({ latest: grade, previous: grade, direction: z.enum(['up', 'down', 'same', 'unknown']) }),
      mention_rate: z.object(delta),
      share_of_voice: z.object(delta),
      citation_rate: z.object(delta),
      owned_citation_rate: z.object(delta),
      answers: z.object(delta),
      platforms: z.array(z.object({ platform: str, ...delta })),
      competitors: z.array(z.object({ name: str, ...delta })),
    })
    .nullable(),
  changes,
});

export const HistoryBody = z.object({
  scans_total: int,
  scans: z.array(
    z.object({
      scan_id: str,
      date,
      platforms: z.array(str),
      answers: answerCounts,
      grade,
      grade_reason: str.nullable(),
      mention_rate: rate,
      mention_rate_ci: ci,
      share_of_voice: rate,
      share_of_voice_sample: int,
      share_of_voice_ci: ci,
      citation_rate: rate,
      citation_rate_ci: ci,
      owned_citation_rate: rate,
      owned_citation_rate_ci: ci,
      changes,
    }),
  ),
  next_cursor: str.nullable(),
});

/** A page of a list: `{ ...extra, total, [name]: items, next_cursor }` (extra: the scan it is of). */
const list = <N extends string, T extends z.ZodType, E extends z.ZodRawShape>(name: N, item: T, extra: E) =>
  z.object({
    ...extra,
    total: int,
    ...({ [name]: z.array(item) } as Record<N, z.ZodArray<T>>),
    next_cursor: str.nullable(),
  });
const ofScan = { scan: ScanRefSchema };

export const PromptItemSchema = z.object({
  id: str,
  text: str,
  tags: z.array(str),
  intent: str.nullable(),
  country: str.nullable(),
  enabled: bool,
  latest: z.object({ answers: int, mentions: int, mention_rate: rate, mention_rate_ci: ci }).nullable(),
});
export const AnswerItemSchema = z.object({
  index: int,
  prompt_id: str,
  prompt: str.nullable(),
  platform: str,
  model: str.nullable(),
  status: str.describe('"ok" or a failure status; failed answers count in no rate'),
  text: str,
  brand_mentioned: bool,
  brand_position: int.nullable().describe('code-point offset of the first mention'),
  brand_status: z.enum(MENTION_STATUSES),
  competitors_mentioned: z.array(str),
  competitors_absent: z.array(str).describe('competitors the answer says it does not know'),
  competitor_mentions: z.array(z.object({ name: str, position: int })),
  citations: z.array(str),
  cites_owned: bool,
  mentions: z.array(MentionSchema).describe('every tracked brand, the brand first; empty for failed answers'),
});
export const SourceItemSchema = z.object({ domain: str, category, ...counts, urls: int, platforms: z.array(str) });
export const UrlItemSchema = z.object({ url: str, domain: str, category, ...counts, platforms: z.array(str) });
export const GapItemSchema = z.object({
  url: str,
  domain: str,
  category,
  answers: int,
  competitors: z.array(str),
  prompts: z.array(str),
  platforms: z.array(str),
});

export const PromptsBody = list('prompts', PromptItemSchema, {});
export const AnswersBody = list('answers', AnswerItemSchema, ofScan);
export const SourcesBody = list('sources', SourceItemSchema, ofScan);
export const UrlsBody = list('urls', UrlItemSchema, ofScan);
export const GapsBody = list('gaps', GapItemSchema, ofScan);

export const IndexBody = z.object({
  name: str,
  version: str,
  openapi: str,
  authentication: str,
  rate_limit: z.object({ requests: int, window_seconds: int }),
  conventions: z.looseObject({}),
  endpoints: z.array(
    z.object({ method: str, path: str, url: str, auth: bool, description: str, parameters: z.array(str) }),
  ),
});

export const ErrorBody = z
  .object({ ok: z.literal(false), error: str, message: str })
  .describe('Errors may add fields: field (bad_request), retry_after (rate_limited), problems.');

export type ScanStub = z.output<typeof ScanStubSchema>;
export type ScanRef = z.output<typeof ScanRefSchema>;
export type AnswerMention = z.output<typeof MentionSchema>;
export type AnswerItem = z.output<typeof AnswerItemSchema>;
export type PromptItem = z.output<typeof PromptItemSchema>;
export type Visibility = z.output<typeof VisibilityBody>;
export type History = z.output<typeof HistoryBody>;
export type Prompts = z.output<typeof PromptsBody>;
export type Answers = z.output<typeof AnswersBody>;
export type Sources = z.output<typeof SourcesBody>;
export type Urls = z.output<typeof UrlsBody>;
export type Gaps = z.output<typeof GapsBody>;
export type ApiIndex = z.output<typeof IndexBody>;

/** A success body as sent: `ok: true` first, then the body's fields. */
const sent = <S extends z.ZodRawShape>(body: z.ZodObject<S>) => z.object({ ok: z.literal(true), ...body.shape });

/** `components.schemas` of the OpenAPI document, in its order. */
export const SCHEMAS: Record<string, z.ZodType> = {
  Error: ErrorBody,
  Index: sent(IndexBody),
  OpenApi: z.looseObject({}).describe('This document.'),
  Visibility: sent(VisibilityBody),
  History: sent(HistoryBody),
  Prompts: sent(PromptsBody),
  Answers: sent(AnswersBody),
  Sources: sent(SourcesBody),
  Urls: sent(UrlsBody),
  Gaps: sent(GapsBody),
};
