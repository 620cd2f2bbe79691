/**
 * Every error code the service answers with. The HTTP status of each is fixed by
 * {@link httpStatusOf}; its exhaustive switch makes a new code a compile error until it has one.
 */
export enum ErrorCode {
  BadRequest = 'bad_request',
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  ProjectNotFound = 'project_not_found',
  ReportNotFound = 'report_not_found',
  FileNotFound = 'file_not_found',
  MethodNotAllowed = 'method_not_allowed',
  RequestTimeout = 'request_timeout',
  NotAcceptable = 'not_acceptable',
  Conflict = 'conflict',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  TargetNotAllowed = 'target_not_allowed',
  TargetBlocked = 'target_blocked',
  TargetHttpError = 'target_http_error',
  TargetUnreachable = 'target_unreachable',
  RateLimited = 'rate_limited',
  QuotaExceeded = 'quota_exceeded',
  InternalError = 'internal_error',
  ScanFailed = 'scan_failed',
  ServiceUnavailable = 'service_unavailable',
}

export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.BadRequest:
    case ErrorCode.TargetNotAllowed:
      return 400;
    case ErrorCode.Unauthorized:
      return 401;
    case ErrorCode.Forbidden:
      return 403;
    case ErrorCode.NotFound:
    case ErrorCode.ProjectNotFound:
    case ErrorCode.ReportNotFound:
    case ErrorCode.FileNotFound:
      return 404;
    case ErrorCode.MethodNotAllowed:
      return 405;
    case ErrorCode.NotAcceptable:
      return 406;
    case ErrorCode.RequestTimeout:
      return 408;
    case ErrorCode.Conflict:
      return 409;
    case ErrorCode.PayloadTooLarge:
      return 413;
    case ErrorCode.UnsupportedMediaType:
      return 415;
    case ErrorCode.TargetBlocked:
    case ErrorCode.TargetHttpError:
    case ErrorCode.TargetUnreachable:
      return 422;
    case ErrorCode.RateLimited:
    case ErrorCode.QuotaExceeded:
      return 429;
    case ErrorCode.InternalError:
      return 500;
    case ErrorCode.ScanFailed:
      return 502;
    case ErrorCode.ServiceUnavailable:
      return 503;
    default: {
      const unreachable: never = code;
      throw new Error(`unmapped error code ${String(unreachable)}`);
    }
  }
}
