import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '../database/database-errors';
import { DomainError, errorBody, NOT_FOUND_MESSAGE } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { JSON_MAX_DEPTH } from '../http/json-body.worker';

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
}

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
      const m = (response).message;
      message = Array.isArray(m) ? m.join('; ') : String(m);
    }
    if (code === ErrorCode.NotFound && /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)/.test(message)) {
      message = DEFAULT_MESSAGES[ErrorCode.NotFound]!;
    }
    return new DomainError(code, message);
  }
  const bp = exception as BodyParserError;
  if (bp && typeof bp === 'object' && typeof bp.type === 'string') {
    switch (bp.type) {
      case 'entity.too.large':
        return new DomainError(ErrorCode.PayloadTooLarge, `Request body exceeds the limit of ${bp.limit ?? '?'} bytes.`, { limit: bp.limit });
      case 'entity.parse.failed':
        return new DomainError(ErrorCode.BadRequest, 'Request body is not valid JSON.', { field: 'body' });
      case 'entity.too.deep':
        return new DomainError(ErrorCode.BadRequest, `Request body nests arrays and objects deeper than ${JSON_MAX_DEPTH} levels.`, { field: 'body' });
      case 'charset.unsupported':
        return new DomainError(ErrorCode.UnsupportedMediaType, `Unsupported charset${bp.charset ? ` "${bp.charset.toUpperCase()}"` : ''}: send JSON in UTF-8.`);
      case 'encoding.unsupported':
        return new DomainError(ErrorCode.UnsupportedMediaType, 'Unsupported Content-Encoding: send the body as is, or gzip, deflate or br.');
      case 'request.aborted':
      case 'request.size.invalid':
      case 'stream.encoding.set':
        return new DomainError(ErrorCode.BadRequest, 'The request body could not be read.');
      default:
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
  logger?.error(exception instanceof Error ? exception : String(exception), exception instanceof Error ? exception.stack : undefined);
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

/** The one exception filter of the application (registered as APP_FILTER in CoreModule). */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    sendError(res, req, toDomainError(exception, this.logger));
  }
}
