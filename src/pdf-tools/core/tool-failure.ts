/**
 * Error codes of tool results (`structuredContent.error` of a result with `isError: true`).
 * HTTP routes use the platform's ErrorCode; these travel inside MCP tool results (and the
 * website's tool pages map them to a status). A `url` input fails with `url_not_allowed` (not
 * http(s), credentials in it, a non-public address, also after a redirect, a redirect loop or too
 * many redirects) or `download_failed` (DNS, connection, HTTP status, connect or total timeout).
 */
export type ToolErrorCode =
  | 'invalid_arguments'
  | 'file_too_large'
  | 'too_many_pages'
  | 'encrypted'
  | 'not_a_pdf'
  | 'corrupt_pdf'
  /** A PDF without pages (no page tree, or an empty one): there is nothing to process. */
  | 'no_pages'
  | 'invalid_image'
  | 'invalid_page_range'
  | 'file_not_found'
  | 'url_not_allowed'
  | 'download_failed'
  | 'quota_exceeded'
  | 'timeout'
  | 'busy'
  | 'internal_error';


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
