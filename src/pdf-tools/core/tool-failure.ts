/**
 * Error codes of tool results (`structuredContent.error` of a result with `isError: true`).
 * HTTP routes use the platform's ErrorCode; these travel inside MCP tool results, and the
 * website's tool pages answer with {@link toolErrorStatus}. A `url` input fails with
 * `url_not_allowed` (not http(s), credentials in it, a non-public address, also after a redirect,
 * a redirect loop or too many redirects) or `download_failed` (DNS, connection, HTTP status,
 * connect or total timeout).
 */
export const TOOL_ERROR_CODES = [
  'invalid_arguments',
  'file_too_large',
  'too_many_pages',
  'encrypted',
  'not_a_pdf',
  'corrupt_pdf',
  /** A PDF without pages (no page tree, or an empty one): there is nothing to process. */
  'no_pages',
  'invalid_image',
  /** read_pdf: no page read has text (a scan): OCR first. */
  'no_text_layer',
  'invalid_page_range',
  'file_not_found',
  'url_not_allowed',
  'download_failed',
  'quota_exceeded',
  'timeout',
  'busy',
  'internal_error',
] as const;

export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/**
 * The HTTP status of a tool failure where an entry point answers over HTTP (the website's tool
 * pages; MCP carries the code inside its result). The switch is exhaustive: a new code does not
 * compile until it has a status, and tool-failure.spec.ts checks every code at run time.
 */
export function toolErrorStatus(code: ToolErrorCode): number {
  switch (code) {
    case 'invalid_arguments':
    case 'invalid_page_range':
    case 'url_not_allowed':
      return 400;
    case 'file_not_found':
      return 404;
    case 'file_too_large':
    case 'too_many_pages':
      return 413;
    case 'not_a_pdf':
    case 'invalid_image':
      return 415;
    case 'encrypted':
    case 'corrupt_pdf':
    case 'no_pages':
    case 'no_text_layer':
      return 422;
    case 'quota_exceeded':
      return 429;
    case 'internal_error':
      return 500;
    case 'download_failed':
      return 502;
    case 'timeout':
    case 'busy':
      return 503;
    default: {
      const unmapped: never = code;
      throw new Error(`tool error code without an HTTP status: ${String(unmapped)}`);
    }
  }
}

/** A failure a model can act on: thrown in tools and the worker, rendered as an `isError` result. */
export class ToolFailure extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}
