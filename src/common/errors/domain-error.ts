import { ErrorCode, httpStatusOf } from './error-code';

/** The message of a 404 for a path no route serves. */
export const NOT_FOUND_MESSAGE = 'No such endpoint.';

/**
 * An error the service means to answer with. The global filter turns it into
 * `{ ok: false, error: code, message, ...details }` with the status of its code.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra body fields, e.g. `{ field: 'limit' }` or `{ reason: 'cf-mitigated: challenge' }`. */
    readonly details: Record<string, unknown> = {},
    /** Response headers, e.g. `{ 'Retry-After': '60' }`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return httpStatusOf(this.code);
  }

  static badRequest(message: string, field?: string): DomainError {
    return new DomainError(ErrorCode.BadRequest, message, field ? { field } : {});
  }

  static notFound(message = NOT_FOUND_MESSAGE): DomainError {
    return new DomainError(ErrorCode.NotFound, message);
  }
}

/** The JSON body of every error response. */
export interface ErrorBody {
  ok: false;
  error: ErrorCode;
  message: string;
  [detail: string]: unknown;
}

/** `{ok: false, error, message, ...details}` in that key order; a detail never replaces the first three. */
export function errorBody(err: DomainError): ErrorBody {
  const head = { ok: false as const, error: err.code, message: err.message };
  return Object.assign({ ...head, ...err.details }, head);
}
