/**
 * Error codes of tool results (`structuredContent.error` of a result with `isError: true`).
 * HTTP routes use the platform's ErrorCode; these travel inside MCP tool results only.
 */
export type ToolErrorCode =
  | 'invalid_arguments'
  | 'file_too_large'
  | 'too_many_pages'
  | 'encrypted'
  | 'not_a_pdf'
  | 'corrupt_pdf'
  | 'invalid_image'
  | 'invalid_page_range'
  | 'file_not_found'
  | 'quota_exceeded'
  | 'timeout'
  | 'busy'
  | 'internal_error';

/**
 * Error codes of a `url` input (MCP only: the website sends files, never addresses, so its status
 * map of {@link ToolErrorCode} never meets them):
 * - `url_not_allowed`: not http(s), credentials in it, a non-public address (also after a
 *   redirect), a redirect loop or too many redirects;
 * - `download_failed`: DNS, connection, HTTP status, connect or total timeout.
 */
export type UrlErrorCode = 'url_not_allowed' | 'download_failed';

/** A failure a model can act on: thrown in tools and the worker, rendered as an `isError` result. */
export class ToolFailure extends Error {
  constructor(
    readonly code: ToolErrorCode | UrlErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}
