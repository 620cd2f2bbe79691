/**
 * The index document (GET /api/v1) and the OpenAPI 3.1 description (GET /api/v1/openapi.json),
 * hand-written from one endpoint table so the two never disagree.
 */
import { SOURCE_CATEGORIES } from './derive/domains';
import { MENTION_STATUSES } from './derive/classify';
import { GRADES } from './derive/metrics';
import { DEFAULT_LIMIT, MAX_LIMIT } from './dto/query.dto';

type Schema = Record<string, unknown>;

interface Param {
  name: string;
  description: string;
  schema: Schema;
}

interface Endpoint {
  path: string;
  summary: string;
  auth: boolean;
  params: Param[];
  /** Name of the response schema in components.schemas. */
  response: string;
}

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const nullable = (s: Schema): Schema => ({ anyOf: [s, { type: 'null' }] });
const rate: Schema = { ...nullable({ type: 'number', minimum: 0, maximum: 100 }), description: 'percent, 0.1 precision; null without sample' };
const arr = (items: Schema): Schema => ({ type: 'array', items });
const ci: Schema = {
  anyOf: [
    { type: 'object', required: ['low', 'high'], properties: { low: { type: 'number' }, high: { type: 'number' } } },
    { type: 'null' },
  ],
  description: '95 % Wilson score interval of the rate beside it (percent, 0.1); null without sample',
};
const test = {
  significant: { ...nullable(bool), description: 'two-proportion z-test at 95 %; null when a sample is empty or the figure is not a rate' },
  p_value: nullable({ type: 'number' }),
};
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  ...(description ? { description } : {}),
  required: Object.keys(properties),
  properties,
});
const grade: Schema = { ...nullable({ type: 'string', enum: GRADES }), description: 'null below the minimum sample (see grade_reason)' };
const category: Schema = { type: 'string', enum: [...SOURCE_CATEGORIES] };
const date: Schema = { type: 'string', format: 'date' };

const page: Param[] = [
  {
    name: 'limit',
    description: `Page size, 1..${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  },
  { name: 'cursor', description: 'next_cursor of the previous page (opaque).', schema: str },
];
const platformP: Param = { name: 'platform', description: 'Only this platform (e.g. chatgpt).', schema: str };
const categoryP: Param = { name: 'category', description: 'Only this source category.', schema: category };
const tagP: Param = { name: 'tag', description: 'Only prompts with this tag.', schema: str };
const competitorP: Param = { name: 'competitor', description: 'Only rows involving this competitor (name, case-insensitive).', schema: str };
const boolP = (name: string, description: string): Param => ({ name, description, schema: { type: 'string', enum: ['true', 'false'] } });

export const ENDPOINTS: Endpoint[] = [
  { path: '/api/v1', summary: 'Index of the endpoints (this list). No API key needed.', auth: false, params: [], response: 'Index' },
  { path: '/api/v1/openapi.json', summary: 'This API as an OpenAPI 3.1 document. No API key needed.', auth: false, params: [], response: 'OpenApi' },
  {
    path: '/api/v1/visibility',
    summary: 'Visibility summary: latest and previous scan, funnel, platforms, competitors, week-over-week comparison.',
    auth: true,
    params: [],
    response: 'Visibility',
  },
  { path: '/api/v1/history', summary: 'Every scan, newest first: grade, mention rate and detected changes.', auth: true, params: page, response: 'History' },
  {
    path: '/api/v1/prompts',
    summary: 'Tracked prompts with tags, intent, country, enabled status and latest-scan figures, by id.',
    auth: true,
    params: [
      ...page,
      tagP,
      boolP('enabled', 'Only enabled (true) or disabled (false) prompts.'),
      { name: 'intent', description: 'Only this intent.', schema: str },
      { name: 'country', description: 'Only this country (ISO 3166-1 alpha-2).', schema: str },
    ],
    response: 'Prompts',
  },
  {
    path: '/api/v1/answers',
    summary: 'Raw AI answers of the latest scan with model, mention flags and citations, in import order.',
    auth: true,
    params: [
      ...page,
      platformP,
      tagP,
      boolP('mentioned', 'Only answers that mention the brand (true) or not (false).'),
      {
        name: 'brand_status',
        description: 'Only answers where the brand is mentioned, absent (the answer says it does not know it) or not_named.',
        schema: { type: 'string', enum: [...MENTION_STATUSES] },
      },
      competitorP,
      { name: 'prompt_id', description: 'Only answers to this prompt.', schema: str },
    ],
    response: 'Answers',
  },
  {
    path: '/api/v1/sources',
    summary: 'Cited registrable domains of the latest scan with counts and categories, most cited first.',
    auth: true,
    params: [...page, categoryP, platformP],
    response: 'Sources',
  },
  {
    path: '/api/v1/urls',
    summary: 'Per-URL citation statistics of the latest scan, most cited first.',
    auth: true,
    params: [...page, categoryP, platformP, { name: 'domain', description: 'Only URLs of this registrable domain.', schema: str }],
    response: 'Urls',
  },
  {
    path: '/api/v1/gaps',
    summary: 'Citation gaps of the latest scan: URLs cited where competitors are mentioned and the brand is not, most answers first.',
    auth: true,
    params: [...page, categoryP, platformP, competitorP],
    response: 'Gaps',
  },
];

const funnel = obj({
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
const evidence = { term: { type: 'string', description: 'the configured name or alias that matched' }, matched: { type: 'string', description: 'the text as written in the answer' }, offset: { ...int, description: 'code-point offset in the NFC answer text' } };
const mention = obj(
  {
    name: str,
    kind: { type: 'string', enum: ['brand', 'competitor'] },
    status: { type: 'string', enum: [...MENTION_STATUSES], description: 'only mentioned counts in any rate' },
    position: { ...nullable(int), description: 'offset of the first counted match' },
    evidence: arr(obj({ ...evidence, rule: { type: 'string', enum: ['name', 'alias', 'domain_form', 'proper_noun'] } }, 'A counted match.')),
    excluded: arr(obj({ ...evidence, reason: { type: 'string', enum: ['absent', 'absent_context', 'common_word'] } }, 'A match that does not count, and why.')),
    counted: int,
    excluded_count: int,
  },
  'One tracked brand in one answer; evidence and excluded keep at most 10 items each, the counts are complete.',
);
const stub = obj({
  scan_id: str,
  date,
  grade,
  grade_reason: nullable(str),
  mention_rate: rate,
  mention_rate_ci: ci,
  share_of_voice: rate,
  share_of_voice_sample: { ...int, description: 'mentions of all tracked brands: the sample of share_of_voice' },
  share_of_voice_ci: ci,
  answers: int,
  mentions: int,
  absences: { ...nullable(int), description: 'successful answers saying they do not know the brand (not mentions)' },
});
const delta = { latest: nullable({ type: 'number' }), previous: nullable({ type: 'number' }), delta: nullable({ type: 'number' }), ...test };
const setChange = obj({ gained: arr(str), lost: arr(str), gained_count: int, lost_count: int });
const changes = nullable(
  obj({
    previous_scan_id: str,
    detected: arr(str),
    grade: nullable(obj({ from: grade, to: grade })),
    mention_rate: obj({
      from: rate,
      to: rate,
      delta: nullable({ type: 'number' }),
      relative_change: nullable({ type: 'number' }),
      ...test,
      moved: { ...bool, description: 'significant at 95 % and at least 1 point' },
    }),
    sources: setChange,
    gaps: setChange,
  }),
);
const scanRef = obj({ scan_id: str, date });
const list = (name: string, item: Schema, extra: Record<string, Schema> = { scan: scanRef }): Schema =>
  obj({ ok: { const: true }, ...extra, total: int, [name]: arr(item), next_cursor: nullable(str) });
const counts = { citations: int, answers: int, prompts: int };

const SCHEMAS: Record<string, Schema> = {
  Error: obj({ ok: { const: false }, error: str, message: str }, 'Errors may add fields: field (bad_request), retry_after (rate_limited), problems.'),
  Index: obj({
    ok: { const: true },
    name: str,
    version: str,
    openapi: str,
    authentication: str,
    rate_limit: obj({ requests: int, window_seconds: int }),
    conventions: { type: 'object' },
    endpoints: arr(obj({ method: str, path: str, url: str, auth: bool, description: str, parameters: arr(str) })),
  }),
  OpenApi: { type: 'object', description: 'This document.' },
  Visibility: obj({
    ok: { const: true },
    business: str,
    brand: obj({ name: str, aliases: arr(str), domains: arr(str) }),
    platforms: arr(str),
    latest: stub,
    previous: nullable(stub),
    scans_total: int,
    answers: obj({ total: int, successful: int, failed: int }),
    funnel,
    by_platform: arr(
      obj({
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
        grade_reason: nullable(str),
        funnel,
      }),
    ),
    competitors: arr(
      obj({
        name: str,
        domains: arr(str),
        answers: int,
        mentions: int,
        absences: { ...int, description: 'successful answers saying they do not know this competitor' },
        mention_rate: rate,
        mention_rate_ci: ci,
        share_of_voice: rate,
        share_of_voice_sample: int,
        share_of_voice_ci: ci,
        platforms: arr(obj({ platform: str, answers: int, mentions: int, mention_rate: rate, mention_rate_ci: ci })),
      }),
    ),
    comparison: nullable(
      obj({
        latest_scan_id: str,
        previous_scan_id: str,
        grade: obj({ latest: grade, previous: grade, direction: { type: 'string', enum: ['up', 'down', 'same', 'unknown'] } }),
        mention_rate: obj(delta),
        share_of_voice: obj(delta),
        citation_rate: obj(delta),
        owned_citation_rate: obj(delta),
        answers: obj(delta),
        platforms: arr(obj({ platform: str, ...delta })),
        competitors: arr(obj({ name: str, ...delta })),
      }),
    ),
    changes,
  }),
  History: obj({
    ok: { const: true },
    scans_total: int,
    scans: arr(
      obj({
        scan_id: str,
        date,
        platforms: arr(str),
        answers: obj({ total: int, successful: int, failed: int }),
        grade,
        grade_reason: nullable(str),
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
    next_cursor: nullable(str),
  }),
  Prompts: list(
    'prompts',
    obj({
      id: str,
      text: str,
      tags: arr(str),
      intent: nullable(str),
      country: nullable(str),
      enabled: bool,
      latest: nullable(obj({ answers: int, mentions: int, mention_rate: rate, mention_rate_ci: ci })),
    }),
    {},
  ),
  Answers: list(
    'answers',
    obj({
      index: int,
      prompt_id: str,
      prompt: nullable(str),
      platform: str,
      model: nullable(str),
      status: { type: 'string', description: '"ok" or a failure status; failed answers count in no rate' },
      text: str,
      brand_mentioned: bool,
      brand_position: { ...nullable(int), description: 'code-point offset of the first mention' },
      brand_status: { type: 'string', enum: [...MENTION_STATUSES] },
      competitors_mentioned: arr(str),
      competitors_absent: { ...arr(str), description: 'competitors the answer says it does not know' },
      competitor_mentions: arr(obj({ name: str, position: int })),
      citations: arr(str),
      cites_owned: bool,
      mentions: { ...arr(mention), description: 'every tracked brand, the brand first; empty for failed answers' },
    }),
  ),
  Sources: list('sources', obj({ domain: str, category, ...counts, urls: int, platforms: arr(str) })),
  Urls: list('urls', obj({ url: str, domain: str, category, ...counts, platforms: arr(str) })),
  Gaps: list('gaps', obj({ url: str, domain: str, category, answers: int, competitors: arr(str), prompts: arr(str), platforms: arr(str) })),
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
const RATE_HEADERS = {
  'RateLimit-Limit': { schema: int, description: 'Requests allowed per window (per key).' },
  'RateLimit-Remaining': { schema: int, description: 'Requests left in the window.' },
  'RateLimit-Reset': { schema: int, description: 'Seconds until the window resets.' },
};

/** OpenAPI 3.1 document of the API. */
export function openApiDocument(baseUrl: string): Schema {
  const paths: Record<string, Schema> = {};
  for (const e of ENDPOINTS) {
    const responses: Record<string, unknown> = {
      '200': {
        description: 'OK',
        ...(e.auth ? { headers: { ETag: { schema: str }, ...RATE_HEADERS } } : {}),
        content: { 'application/json': { schema: ref(e.response) } },
      },
      '405': errorResponse('method_not_allowed: any method other than GET'),
    };
    if (e.auth) {
      Object.assign(responses, {
        '304': { description: 'Not modified (If-None-Match matched the ETag)' },
        '400': errorResponse('bad_request: a bad query parameter, named in `field`'),
        '401': errorResponse('unauthorized: missing, malformed or revoked API key'),
        '404': errorResponse('project_not_found: the workspace has no project data yet'),
        '429': {
          ...errorResponse('rate_limited: more than the per-key limit per minute'),
          headers: { 'Retry-After': { schema: int, description: 'Always 60' }, ...RATE_HEADERS },
        },
      });
    }
    paths[e.path] = {
      get: {
        summary: e.summary,
        operationId: e.path === '/api/v1' ? 'index' : e.path.split('/').pop()!.replace('.json', ''),
        security: e.auth ? [{ bearer: [] }] : [],
        parameters: [
          ...e.params.map((p) => ({ name: p.name, in: 'query', required: false, description: p.description, schema: p.schema })),
          ...(e.auth ? [{ name: 'If-None-Match', in: 'header', required: false, schema: str }] : []),
        ],
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Beacon visibility reporting API',
      version: '1.0.0',
      description:
        'Read-only brand visibility data measured on AI answers. Unknown paths under /api/v1 answer 404 not_found; unknown query parameters 400 bad_request.',
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } },
      schemas: SCHEMAS,
    },
  };
}

/** The index document of GET /api/v1. */
export function apiIndex(baseUrl: string, limit: { requests: number; window_seconds: number }) {
  return {
    name: 'Beacon visibility reporting API',
    version: 'v1',
    openapi: `${baseUrl}/api/v1/openapi.json`,
    authentication: 'Authorization: Bearer <API_KEY> on every endpoint except /api/v1 and /api/v1/openapi.json',
    rate_limit: limit,
    conventions: {
      envelope: 'Successful bodies carry ok: true; errors are { ok: false, error, message } with an HTTP status.',
      pagination: `Lists take limit (1..${MAX_LIMIT}, default ${DEFAULT_LIMIT}) and cursor; pass next_cursor back unchanged, null on the last page. Stable sort.`,
      conditional_requests: 'Data responses carry an ETag; send it in If-None-Match to get 304 Not Modified until new data is imported.',
      rate_limit_headers: 'Authenticated responses carry RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset; above the limit 429 rate_limited with Retry-After: 60.',
      errors: ['400 bad_request (field names the parameter)', '401 unauthorized', '404 not_found', '404 project_not_found', '405 method_not_allowed', '429 rate_limited'],
      scope: 'answers, sources, urls and gaps use the latest scan only.',
    },
    endpoints: ENDPOINTS.map((e) => ({
      method: 'GET',
      path: e.path,
      url: `${baseUrl}${e.path}`,
      auth: e.auth,
      description: e.summary,
      parameters: e.params.map((p) => p.name),
    })),
  };
}
