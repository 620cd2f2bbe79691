import { All, Controller, Get, Query, Req, Res, StreamableFile } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { AppConfig } from '../common/config/env';
import { Auth, AuthContext } from '../common/decorators/auth-context.decorator';
import { OkEnvelope } from '../common/decorators/ok-envelope.decorator';
import { okBody } from '../common/http/ok-body';
import { Public } from '../common/decorators/public.decorator';
import { RateLimit } from '../common/decorators/rate-limit.decorator';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { AnswersQuery, GapsQuery, HistoryQuery, NoQuery, PromptsQuery, SourcesQuery, UrlsQuery } from './dto/query.dto';
import { ExportKind, ExportQueries, VisibilityExportService } from './export/visibility-export.service';
import { apiIndex, openApiDocument } from './openapi';
import { ProjectState, VisibilityQueryService } from './visibility-query.service';

/**
 * ETag of a data response: the project's data version and latest scan, the path and the
 * normalised query, and the representation (`variant`: '' for JSON, 'csv'). A new import changes
 * it; an unchanged poll gets 304 without reading data.
 */
export function etagOf(p: ProjectState, req: Request, variant = ''): string {
  return `"${p.latestScanId.slice(0, 8)}.${p.version}.${requestHash(p.workspaceId, req.originalUrl, variant)}"`;
}

/** The request part of ETags by workspace, URL and variant (a URL is parsed and hashed once, not per request). */
const requestHashes = new Map<string, string>();
const REQUEST_HASHES_MAX = 10_000;

function requestHash(workspaceId: string, originalUrl: string, variant: string): string {
  const key = `${workspaceId}\n${variant}\n${originalUrl}`;
  let h = requestHashes.get(key);
  if (h === undefined) {
    const url = new URL(originalUrl, 'http://x');
    url.searchParams.sort();
    h = createHash('sha256')
      .update(`${workspaceId}\n${url.pathname}?${url.searchParams.toString()}${variant ? `\n${variant}` : ''}`)
      .digest('base64url')
      .slice(0, 16);
    if (requestHashes.size >= REQUEST_HASHES_MAX) requestHashes.clear();
    requestHashes.set(key, h);
  }
  return h;
}

/**
 * RFC 9110 §13.1.2: does If-None-Match match `etag`? `*` matches; otherwise a list of entity tags
 * compared weakly (a `W/` prefix is ignored). Request cache directives play no part: an origin
 * server evaluates the precondition whatever `Cache-Control: no-cache` or `Pragma: no-cache` say
 * (Node's fetch and browsers add them to requests carrying If-None-Match).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  const want = opaque(etag);
  return header.split(',').some((t) => opaque(t) === want);
}

/**
 * The read-only visibility API (spec: visibility-api.md). Every route needs a key and is rate limited
 * per key. Its bodies go out through okBody (the `{ ok: true }` envelope) in `conditional`, which every route
 * goes through, rather than `@OkEnvelope()`'s interceptor: a route with any interceptor pays Nest's
 * chain (rxjs and two `AsyncResource.bind` per request), which the summary, the API's hottest route,
 * need not.
 */
@Controller('api/v1')
@RateLimit('visibility')
export class VisibilityController {
  constructor(
    private readonly query: VisibilityQueryService,
    private readonly exports: VisibilityExportService,
  ) {}

  /**
   * Runs `build` unless the client's If-None-Match already matches: then the body is skipped and
   * the answer is 304. Express sends 304 when `req.fresh` is true; its own test gives up on
   * `Cache-Control: no-cache`, so the request carries our evaluation instead.
   */
  private async conditional<T extends object>(
    auth: AuthContext,
    req: Request,
    res: Response,
    build: (p: ProjectState) => Promise<T>,
    variant = '',
  ): Promise<unknown> {
    const p = await this.query.project(auth.workspaceId);
    const etag = etagOf(p, req, variant);
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    const fresh = ifNoneMatchMatches(req.headers['if-none-match'], etag);
    Object.defineProperty(req, 'fresh', { value: fresh, configurable: true });
    return okBody(res, fresh ? {} : await build(p));
  }

  /**
   * A list as JSON (a page) or, with `Accept: text/csv`, as CSV: every row matching the same
   * filters, from the cursor if one is given (VisibilityExportService). Both carry their own ETag.
   */
  private list<K extends ExportKind>(
    kind: K,
    q: ExportQueries[K],
    auth: AuthContext,
    req: Request,
    res: Response,
    json: (p: ProjectState) => Promise<object>,
  ): Promise<unknown> {
    res.vary('Accept');
    if (req.accepts(['application/json', 'text/csv']) !== 'text/csv') return this.conditional(auth, req, res, json);
    return this.conditional(
      auth,
      req,
      res,
      async (p) => {
        const file = await this.exports.csv(kind, p, q);
        return new StreamableFile(file.stream, {
          type: 'text/csv; charset=utf-8',
          disposition: `attachment; filename="${file.filename}"`,
        });
      },
      'csv',
    );
  }

  @Get('visibility')
  visibility(
    @Auth() auth: AuthContext,
    @Query(NoQuery) _q: Record<string, never>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.conditional(auth, req, res, (p) => this.query.summary(p));
  }

  @Get('history')
  history(
    @Auth() auth: AuthContext,
    @Query() q: HistoryQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.list('history', q, auth, req, res, (p) => this.query.history(p, q));
  }

  @Get('prompts')
  prompts(
    @Auth() auth: AuthContext,
    @Query() q: PromptsQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.list('prompts', q, auth, req, res, (p) => this.query.prompts(p, q));
  }

  @Get('answers')
  answers(
    @Auth() auth: AuthContext,
    @Query() q: AnswersQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.list('answers', q, auth, req, res, (p) => this.query.answersText(p, q));
  }

  @Get('sources')
  sources(
    @Auth() auth: AuthContext,
    @Query() q: SourcesQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.list('sources', q, auth, req, res, (p) => this.query.sources(p, q));
  }

  @Get('urls')
  urls(
    @Auth() auth: AuthContext,
    @Query() q: UrlsQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.list('urls', q, auth, req, res, (p) => this.query.urls(p, q));
  }

  @Get('gaps')
  gaps(
    @Auth() auth: AuthContext,
    @Query() q: GapsQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.list('gaps', q, auth, req, res, (p) => this.query.gaps(p, q));
  }
}

/** The public documents: the index and the OpenAPI description. */
@Controller('api/v1')
@Public()
@OkEnvelope()
export class VisibilityIndexController {
  constructor(private readonly config: AppConfig) {}

  @Get()
  index() {
    return apiIndex(this.config.publicBaseUrl(), {
      requests: this.config.VISIBILITY_RATE_LIMIT,
      window_seconds: this.config.VISIBILITY_RATE_WINDOW_S,
    });
  }

  /** OpenAPI 3.1 (no `ok` wrapper: it is the document itself). */
  @Get('openapi.json')
  openapi(@Res() res: Response): void {
    res.json(openApiDocument(this.config.publicBaseUrl()));
  }
}

const GET_ONLY = { Allow: 'GET, HEAD' };

/**
 * Registered after every /api/v1 route: any other method on /api/v1/* is 405 method_not_allowed
 * (before authentication), and an unknown path under /api/v1 is 404 not_found.
 */
@Controller()
@Public()
export class VisibilityFallbackController {
  @All(['api/v1', 'api/v1/*path'])
  fallback(@Req() req: Request): never {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new DomainError(
        ErrorCode.MethodNotAllowed,
        `Method ${req.method} is not allowed: the API is read-only (GET).`,
        {},
        GET_ONLY,
      );
    }
    throw DomainError.notFound(`No such endpoint: ${req.path}. GET /api/v1 lists the endpoints.`);
  }
}
