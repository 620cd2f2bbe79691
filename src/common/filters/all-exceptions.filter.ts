import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Request, Response } from 'express';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '../database/database-errors';
import { DomainError, errorBody, NOT_FOUND_MESSAGE } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { isRedisUnavailable, REDIS_RETRY_AFTER_S } from '../redis/redis-errors';
import { FORM_FIELD_LIMIT, TOO_MANY_FIELDS_MESSAGE } from '../http/form-limits';
import { JSON_MAX_DEPTH } from '../http/json-body.worker';
import { ErrorPages } from './error-pages';

/** Status of an HttpException that is not a DomainError -> our code. */
function codeOfStatus(status: HttpStatus): ErrorCode {
  switch (status) {
    case HttpStatus.BAD_REQUEST:
      return ErrorCode.BadRequest;
    case HttpStatus.UNAUTHORIZED:
      return ErrorCode.Unauthorized;
    case HttpStatus.FORBIDDEN:
      return ErrorCode.Forbidden;
    case HttpStatus.NOT_FOUND:
      return ErrorCode.NotFound;
    case HttpStatus.METHOD_NOT_ALLOWED:
      return ErrorCode.MethodNotAllowed;
    case HttpStatus.NOT_ACCEPTABLE:
      return ErrorCode.NotAcceptable;
    case HttpStatus.CONFLICT:
      return ErrorCode.Conflict;
    case HttpStatus.PAYLOAD_TOO_LARGE:
      return ErrorCode.PayloadTooLarge;
    case HttpStatus.UNSUPPORTED_MEDIA_TYPE:
      return ErrorCode.UnsupportedMediaType;
    case HttpStatus.TOO_MANY_REQUESTS:
      return ErrorCode.RateLimited;
    case HttpStatus.SERVICE_UNAVAILABLE:
      return ErrorCode.ServiceUnavailable;
    default:
      return Number(status) >= 500 ? ErrorCode.InternalError : ErrorCode.BadRequest;
  }
}

const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.NotFound]: NOT_FOUND_MESSAGE,
  [ErrorCode.Unauthorized]: 'A valid API key is required.',
  [ErrorCode.InternalError]: 'An unexpected error occurred. Quote the request id when reporting it.',
};

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  charset?: string;
  /** http-errors: true for a client error whose message may be shown. */
  expose?: boolean;
}

/** An error of a body parser (body-parser, the JSON parser): raised in middleware, before any route ran. */
const isBodyParserError = (e: unknown): e is BodyParserError =>
  !!e && typeof e === 'object' && typeof (e as BodyParserError).type === 'string' && !(e instanceof DomainError);

/**
 * Turns anything thrown while handling an HTTP request into a {@link DomainError}. Unknown errors
 * become `internal_error`: logged in full (with the request id), answered without details.
 */
export function toDomainError(exception: unknown, logger?: Logger): DomainError {
  if (exception instanceof DomainError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = codeOfStatus(status);
    if (status >= 500) {
      logger?.error(exception);
      return new DomainError(code, DEFAULT_MESSAGES[ErrorCode.InternalError]!);
    }
    const response = exception.getResponse();
    let message = typeof response === 'string' ? response : exception.message;
    if (typeof response === 'object' && response && 'message' in response) {
      const m = response.message;
      message = Array.isArray(m) ? m.join('; ') : String(m);
    }
    if (code === ErrorCode.NotFound && /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)/.test(message)) {
      message = DEFAULT_MESSAGES[ErrorCode.NotFound]!;
    }
    return new DomainError(code, message);
  }
  if (isBodyParserError(exception)) {
    const bp = exception;
    switch (bp.type) {
      case 'entity.too.large':
        return new DomainError(
          ErrorCode.PayloadTooLarge,
          `Request body exceeds the limit of ${bp.limit ?? '?'} bytes.`,
          { limit: bp.limit },
        );
      case 'entity.parse.failed':
        return new DomainError(ErrorCode.BadRequest, 'Request body is not valid JSON.', { field: 'body' });
      case 'entity.too.deep':
        return new DomainError(
          ErrorCode.BadRequest,
          `Request body nests arrays and objects deeper than ${JSON_MAX_DEPTH} levels.`,
          { field: 'body' },
        );
      case 'charset.unsupported':
        return new DomainError(
          ErrorCode.UnsupportedMediaType,
          `Unsupported charset${bp.charset ? ` "${bp.charset.toUpperCase()}"` : ''}: send JSON in UTF-8.`,
        );
      case 'encoding.unsupported':
        return new DomainError(
          ErrorCode.UnsupportedMediaType,
          'Unsupported Content-Encoding: send the body as is, or gzip, deflate or br.',
        );
      case 'parameters.too.many': // a form body over FORM_FIELD_LIMIT fields
        return new DomainError(ErrorCode.PayloadTooLarge, TOO_MANY_FIELDS_MESSAGE, { limit: FORM_FIELD_LIMIT });
      case 'request.aborted':
      case 'request.size.invalid':
      case 'stream.encoding.set':
        return new DomainError(ErrorCode.BadRequest, 'The request body could not be read.');
      default:
        // Another client error of a body parser: its status, a plain message, nothing logged as an error.
        if (bp.expose === true && typeof bp.status === 'number' && bp.status >= 400 && bp.status < 500) {
          logger?.warn(`Request body refused (${bp.type}, ${bp.status})`);
          return new DomainError(codeOfStatus(bp.status), 'The request body could not be used.');
        }
        break;
    }
  }
  if (isDatabaseUnavailable(exception)) {
    logger?.warn(`Database unavailable: ${(exception as Error).message}`);
    return new DomainError(
      ErrorCode.ServiceUnavailable,
      `The database is not reachable right now. Retry in ${DATABASE_RETRY_AFTER_S} s.`,
      { retry_after: DATABASE_RETRY_AFTER_S },
      { 'Retry-After': String(DATABASE_RETRY_AFTER_S) },
    );
  }
  if (isRedisUnavailable(exception)) {
    logger?.warn(`Redis unavailable: ${(exception as Error).message}`);
    return new DomainError(
      ErrorCode.ServiceUnavailable,
      `A shared store is not reachable right now. Retry in ${REDIS_RETRY_AFTER_S} s.`,
      { retry_after: REDIS_RETRY_AFTER_S },
      { 'Retry-After': String(REDIS_RETRY_AFTER_S) },
    );
  }
  logger?.error(
    exception instanceof Error ? exception : String(exception),
    exception instanceof Error ? exception.stack : undefined,
  );
  return new DomainError(ErrorCode.InternalError, DEFAULT_MESSAGES[ErrorCode.InternalError]!);
}

/** Writes `{ ok:false, error, message, ... }` with the status and headers of the error. */
export function sendError(res: Response, req: Request | undefined, err: DomainError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  const body = errorBody(err);
  const id = (req as (Request & { id?: string | number }) | undefined)?.id;
  if (err.code === ErrorCode.InternalError && id !== undefined) body.request_id = String(id);
  res.status(err.status).json(body);
}

/**
 * The one exception filter of the application (registered as APP_FILTER in CoreModule). Errors
 * raised before any route ran (body parsers) go to the website's {@link ErrorPages} when the
 * application has a website and the request wants a page.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');
  private pages?: ErrorPages | null;

  constructor(@Optional() private readonly moduleRef?: ModuleRef) {}

  private errorPages(): ErrorPages | null {
    if (this.pages === undefined) {
      try {
        this.pages = this.moduleRef?.get(ErrorPages, { strict: false }) ?? null;
      } catch {
        this.pages = null; // no website in this application
      }
    }
    return this.pages;
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const err = toDomainError(exception, this.logger);
    // A body parser's error comes before any route (and its filters): a website form gets the site's page.
    const pages = isBodyParserError(exception) && err.status < 500 && !res.headersSent ? this.errorPages() : null;
    if (pages?.wants(req)) pages.send(req, res, err);
    else sendError(res, req, err);
  }
}
