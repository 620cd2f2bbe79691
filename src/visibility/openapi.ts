/**
 * The index document (GET /api/v1) and the OpenAPI 3.1 description (GET /api/v1/openapi.json),
 * from one endpoint table so the two never disagree; the response schemas are those of
 * dto/responses.ts (zod), converted by dto/json-schema.ts.
 */
import { SOURCE_CATEGORIES } from './derive/domains';
import { MENTION_STATUSES } from './derive/classify';
import { jsonSchemaOf } from './dto/json-schema';
import { DEFAULT_LIMIT, MAX_LIMIT } from './dto/query.dto';
import { ApiIndex, SCHEMAS } from './dto/responses';

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
  /** A list also sent as CSV with `Accept: text/csv` (every row matching the filters). */
  csv?: boolean;
}

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const category: Schema = { type: 'string', enum: [...SOURCE_CATEGORIES] };

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
const competitorP: Param = {
  name: 'competitor',
  description: 'Only rows involving this competitor (name, case-insensitive).',
  schema: str,
};
const scanP: Param = {
  name: 'scan_id',
  description:
    'This scan (a scan_id of GET /api/v1/history) instead of the latest; an unknown one is 404 not_found with field scan_id.',
  schema: str,
};
const boolP = (name: string, description: string): Param => ({
  name,
  description,
  schema: { type: 'string', enum: ['true', 'false'] },
});

export const ENDPOINTS: Endpoint[] = [
  {
    path: '/api/v1',
    summary: 'Index of the endpoints (this list). No API key needed.',
    auth: false,
    params: [],
    response: 'Index',
  },
  {
    path: '/api/v1/openapi.json',
    summary: 'This API as an OpenAPI 3.1 document. No API key needed.',
    auth: false,
    params: [],
    response: 'OpenApi',
  },
  {
    path: '/api/v1/visibility',
    summary: 'Visibility summary: latest and previous scan, funnel, platforms, competitors, week-over-week comparison.',
    auth: true,
    params: [],
    response: 'Visibility',
  },
  {
    path: '/api/v1/history',
    summary: 'Every scan, newest first: grade, mention rate and detected changes.',
    auth: true,
    params: page,
    response: 'History',
    csv: true,
  },
  {
    path: '/api/v1/prompts',
    summary:
      'Tracked prompts with tags, intent, country, enabled status and latest-scan figures (or those of scan_id), by id.',
    auth: true,
    params: [
      ...page,
      { ...scanP, description: `${scanP.description} latest then holds the figures of that scan.` },
      tagP,
      boolP('enabled', 'Only enabled (true) or disabled (false) prompts.'),
      { name: 'intent', description: 'Only this intent.', schema: str },
      { name: 'country', description: 'Only this country (ISO 3166-1 alpha-2).', schema: str },
    ],
    response: 'Prompts',
    csv: true,
  },
  {
    path: '/api/v1/answers',
    summary:
      'Raw AI answers of the latest scan (or of scan_id) with model, mention flags and citations, in import order.',
    auth: true,
    params: [
      ...page,
      scanP,
      platformP,
      tagP,
      boolP('mentioned', 'Only answers that mention the brand (true) or not (false).'),
      {
        name: 'brand_status',
        description:
          'Only answers where the brand is mentioned, absent (the answer says it does not know it) or not_named.',
        schema: { type: 'string', enum: [...MENTION_STATUSES] },
      },
      competitorP,
      { name: 'prompt_id', description: 'Only answers to this prompt.', schema: str },
      { name: 'cited_url', description: 'Only answers citing this URL (as /urls and /gaps list it).', schema: str },
      {
        name: 'gap_url',
        description:
          'The answers behind this citation gap (a url of /gaps): citing it, naming a competitor and not the brand.',
        schema: str,
      },
      {
        name: 'cited_domain',
        description: 'Only answers citing a URL of this registrable domain (as /sources lists it) or its subdomains.',
        schema: str,
      },
    ],
    response: 'Answers',
    csv: true,
  },
  {
    path: '/api/v1/sources',
    summary:
      'Cited registrable domains of the latest scan (or of scan_id) with counts and categories, most cited first.',
    auth: true,
    params: [...page, scanP, categoryP, platformP],
    response: 'Sources',
    csv: true,
  },
  {
    path: '/api/v1/urls',
    summary: 'Per-URL citation statistics of the latest scan (or of scan_id), most cited first.',
    auth: true,
    params: [
      ...page,
      scanP,
      categoryP,
      platformP,
      { name: 'domain', description: 'Only URLs of this registrable domain.', schema: str },
    ],
    response: 'Urls',
    csv: true,
  },
  {
    path: '/api/v1/gaps',
    summary:
      'Citation gaps of the latest scan (or of scan_id): URLs cited where competitors are mentioned and the brand is not, most answers first.',
    auth: true,
    params: [...page, scanP, categoryP, platformP, competitorP],
    response: 'Gaps',
    csv: true,
  },
];

/** components.schemas: the response bodies of dto/responses.ts, converted once. */
const COMPONENT_SCHEMAS: Record<string, Schema> = Object.fromEntries(
  Object.entries(SCHEMAS).map(([name, z]) => [name, jsonSchemaOf(z)]),
);

const CSV_DESCRIPTION =
  'With Accept: text/csv: every row matching the filters (limit does not apply; cursor starts after that row), a header line, arrays joined with " | ", empty cells for null. Columns: docs/visibility-api.md.';

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});
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
        content: {
          'application/json': { schema: ref(e.response) },
          ...(e.csv ? { 'text/csv': { schema: { type: 'string', description: CSV_DESCRIPTION } } } : {}),
        },
      },
    };
    if (e.auth) {
      Object.assign(responses, {
        '304': { description: 'Not modified (If-None-Match matched the ETag)' },
        '400': errorResponse('bad_request: a bad query parameter, named in `field`'),
        '401': errorResponse('unauthorized: missing, malformed or revoked API key'),
        '404': errorResponse(
          e.params.some((x) => x.name === 'scan_id')
            ? 'project_not_found: the workspace has no project data yet; not_found (field scan_id): the workspace has no such scan'
            : 'project_not_found: the workspace has no project data yet',
        ),
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
          ...e.params.map((p) => ({
            name: p.name,
            in: 'query',
            required: false,
            description: p.description,
            schema: p.schema,
          })),
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
        'Read-only brand visibility data measured on AI answers. Unknown paths under /api/v1 answer 404 not_found; unknown query parameters 400 bad_request; any method other than GET and HEAD, on any path under /api/v1, answers 405 method_not_allowed (components.responses.MethodNotAllowed).',
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } },
      schemas: COMPONENT_SCHEMAS,
      // The answer to a method the paths do not list (before authentication): no operation has it.
      responses: {
        MethodNotAllowed: {
          description: 'method_not_allowed: any method other than GET and HEAD, on any path under /api/v1',
          headers: { Allow: { schema: { type: 'string', const: 'GET, HEAD' } } },
          content: {
            'application/json': {
              schema: {
                allOf: [ref('Error'), { type: 'object', properties: { error: { const: 'method_not_allowed' } } }],
              },
            },
          },
        },
      },
    },
  };
}

/** The index document of GET /api/v1. */
export function apiIndex(baseUrl: string, limit: { requests: number; window_seconds: number }): ApiIndex {
  return {
    name: 'Beacon visibility reporting API',
    version: 'v1',
    openapi: `${baseUrl}/api/v1/openapi.json`,
    authentication: 'Authorization: Bearer <API_KEY> on every endpoint except /api/v1 and /api/v1/openapi.json',
    rate_limit: limit,
    conventions: {
      envelope: 'Successful bodies carry ok: true; errors are { ok: false, error, message } with an HTTP status.',
      pagination: `Lists take limit (1..${MAX_LIMIT}, default ${DEFAULT_LIMIT}) and cursor; pass next_cursor back unchanged, null on the last page. Stable sort.`,
      conditional_requests:
        'Data responses carry an ETag; send it in If-None-Match to get 304 Not Modified until new data is imported.',
      rate_limit_headers:
        'Authenticated responses carry RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset; above the limit 429 rate_limited with Retry-After: 60.',
      errors: [
        '400 bad_request (field names the parameter)',
        '401 unauthorized',
        '404 not_found',
        '404 project_not_found',
        '405 method_not_allowed',
        '429 rate_limited',
      ],
      scope: 'answers, sources, urls and gaps use the latest scan unless scan_id names another scan of GET /history.',
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
