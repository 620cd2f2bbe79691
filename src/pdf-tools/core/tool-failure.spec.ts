import { TOOL_ERROR_CODES, toolErrorStatus } from './tool-failure';

describe('toolErrorStatus', () => {
  it('gives every tool error code an HTTP error status (a new code without one fails here)', () => {
    for (const code of TOOL_ERROR_CODES) {
      const status = toolErrorStatus(code);
      expect({ code, status: status >= 400 && status <= 599 }).toEqual({ code, status: true });
    }
  });

  it('keeps the statuses the website answered with', () => {
    expect(TOOL_ERROR_CODES.map((c) => [c, toolErrorStatus(c)])).toEqual([
      ['invalid_arguments', 400],
      ['file_too_large', 413],
      ['too_many_pages', 413],
      ['encrypted', 422],
      ['not_a_pdf', 415],
      ['corrupt_pdf', 422],
      ['no_pages', 422],
      ['invalid_image', 415],
      ['no_text_layer', 422],
      ['invalid_page_range', 400],
      ['file_not_found', 404],
      ['url_not_allowed', 400],
      ['download_failed', 502],
      ['quota_exceeded', 429],
      ['timeout', 503],
      ['busy', 503],
      ['internal_error', 500],
    ]);
  });

  it('refuses a code it does not know', () => {
    expect(() => toolErrorStatus('something_new' as never)).toThrow(/without an HTTP status: something_new/);
  });
});
