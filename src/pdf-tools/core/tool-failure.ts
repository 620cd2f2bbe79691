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
