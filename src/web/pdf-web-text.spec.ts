import { PDF_TOOLS } from '../pdf-tools/tools';
import {
  dateWords,
  firstSentence,
  toolRefusal,
  uploadRefusal,
  WEB_TOOL_TEXT,
  webNote,
  webResultData,
  webSummary,
} from './pdf-web-text';
import { redirectOf } from './pdf.controller';

describe("The website's words for the PDF tools", () => {
  it('takes the first sentence without stopping at an abbreviation, in parentheses or quotes, and ends it with one full stop', () => {
    expect(
      firstSentence('Delete chosen pages from a PDF (e.g. "1,last" or "even"). At least one page must remain.'),
    ).toBe('Delete chosen pages from a PDF (e.g. "1,last" or "even").');
    expect(
      firstSentence('Merge 2-20 PDFs into one, optionally choosing pages (e.g. "1-3,last"). Bookmarks are kept.'),
    ).toBe('Merge 2-20 PDFs into one, optionally choosing pages (e.g. "1-3,last").');
    expect(firstSentence('Pages, e.g. the first. More.')).toBe('Pages, e.g. the first.');
    expect(firstSentence('Quality 1.5 times better. More.')).toBe('Quality 1.5 times better.');
    expect(firstSentence('No form is left in the file.')).toBe('No form is left in the file.');
    expect(firstSentence('No full stop')).toBe('No full stop.');
  });

  it('gives every tool a summary that is a whole sentence, a button that says what it does, and no MCP words', () => {
    for (const tool of PDF_TOOLS) {
      const text = WEB_TOOL_TEXT[tool.name];
      expect({ tool: tool.name, has: text !== undefined }).toEqual({ tool: tool.name, has: true });
      const summary = firstSentence(text.intro ?? tool.description);
      expect(summary).toMatch(/[^.]\.$/);
      expect(summary.split('(').length).toBe(summary.split(')').length);
      expect(text.button).not.toMatch(/^Run /);
      expect(`${text.intro ?? ''} ${JSON.stringify(text.fields ?? {})}`).not.toMatch(/file_id|image_base64|base64|`/);
    }
  });

  it('sends tool names and short names to the tool page (301), and leaves the page itself alone', () => {
    expect(redirectOf('rotate_pages')).toBe('/pdf/rotate-pages');
    expect(redirectOf('rotate')).toBe('/pdf/rotate-pages');
    expect(redirectOf('Merge')).toBe('/pdf/merge-pdfs');
    expect(redirectOf('add_page_numbers')).toBe('/pdf/add-page-numbers');
    expect(redirectOf('rotate-pages')).toBeNull();
    expect(redirectOf('no-such-tool')).toBeNull();
  });

  it('says what opening did to the inputs with their file names, for people (decrypted, repaired), not argument labels', () => {
    const password = {
      one: 'was opened with the given password; the result is not encrypted.',
      many: 'were opened with the given passwords; the result is not encrypted.',
    };
    expect(webNote({ opened: [{ inputs: [0], ...password }] }, ['report.pdf'])).toBe(
      'report.pdf was decrypted with your password: the result has no password.',
    );
    const ownerOnly = {
      one: 'was encrypted with an owner password only (it opens without a password): the result is not encrypted, and its restrictions (printing, copying, editing) were removed.',
      many: 'were encrypted with an owner password only (they open without a password): the result is not encrypted, and their restrictions (printing, copying, editing) were removed.',
    };
    expect(
      webNote(
        {
          opened: [
            { inputs: [0], ...password },
            { inputs: [1], ...ownerOnly },
          ],
        },
        ['a.pdf', 'b.pdf'],
      ),
    ).toBe(
      'a.pdf was decrypted with your password: the result has no password. b.pdf was encrypted with an owner password only (it opens without a password): it was decrypted, so the result has no password and its restrictions (printing, copying, editing) were removed.',
    );
    expect(webNote({ opened: [{ inputs: [0, 1], ...password }] }, ['a.pdf', 'b.pdf'])).toBe(
      'a.pdf and b.pdf were decrypted with your passwords: the result has no password.',
    );
    const many = Array.from({ length: 20 }, (_, i) => `f${i}.pdf`);
    const repaired = {
      one: 'was damaged and was repaired (with qpdf) before processing (xref); check the result.',
      many: 'were damaged and were repaired (with qpdf) before processing (xref); check the result.',
    };
    expect(webNote({ opened: [{ inputs: [0, 1, 2, 3, 7], ...repaired }] }, many)).toBe(
      'Files 1, 2, 3, 4 and 8 were damaged and were repaired before processing (xref); check the result.',
    );
    const junk = {
      one: 'had 12 bytes before its %PDF- header; they were ignored.',
      many: 'had 12 bytes before their %PDF- headers; they were ignored.',
    };
    expect(webNote({ opened: [{ inputs: [0], ...junk }], toolNote: 'The PDF is already compact.' }, ['mail.pdf'])).toBe(
      'mail.pdf had 12 bytes before its %PDF- header; they were ignored. The PDF is already compact.',
    );
  });

  const limits = { maxBytes: 10 * 1024 * 1024, maxPages: 200, keptMinutes: 60 };
  const PROGRAM = /qpdf|%PDF-|\d{4,} bytes|\bbytes\b|file_id|`|Invalid arguments|files\[/;

  it('words upload refusals by error code and detail: sizes with fileSize, no byte counts, headers or commands', () => {
    expect(uploadRefusal('big.pdf', 'payload_too_large', undefined, limits)).toBe(
      'big.pdf is larger than 10 MB, the most a file may be here.',
    );
    expect(uploadRefusal('notes.txt', 'unsupported_media_type', 'not_a_pdf', limits)).toBe(
      'notes.txt is not a PDF file: choose a PDF.',
    );
    expect(uploadRefusal('long.pdf', 'bad_request', 'too_many_pages', limits)).toBe(
      'long.pdf has more than 200 pages, the most a file may have here: split it into smaller files first.',
    );
    expect(uploadRefusal('x.pdf', 'bad_request', 'corrupt_pdf', limits)).toBe(
      'x.pdf is damaged and cannot be read, even after an attempt to repair it.',
    );
    expect(uploadRefusal('x.pdf', 'bad_request', undefined, limits)).toBe(
      'x.pdf could not be read: it is empty or did not arrive whole. Try again.',
    );
    expect(uploadRefusal('x.pdf', 'something_new', undefined, limits)).toBe('x.pdf could not be uploaded. Try again.');
  });

  it("words tool failures by code and typed details, with the input's file name", () => {
    const names = ['a.pdf', 'b.pdf'];
    expect(
      toolRefusal({ code: 'too_many_pages', inputIndex: 1, details: { pages: 250, limit: 200 } }, names, limits),
    ).toBe('b.pdf has 250 pages; the tools take at most 200 pages per file: split it into smaller files first.');
    expect(
      toolRefusal(
        { code: 'file_too_large', inputIndex: 0, details: { bytes: 10485761, limit: 10485760 } },
        ['a.pdf'],
        limits,
      ),
    ).toBe('a.pdf is larger than 10 MB, the most a file may be here.');
    expect(
      toolRefusal({ code: 'file_too_large', details: { bytes: 20000000, limit: 10485760 } }, ['a.pdf'], limits),
    ).toMatch(/^The result would be larger than 10 MB/);
    expect(toolRefusal({ code: 'not_a_pdf', inputIndex: 0, details: {} }, ['a.pdf'], limits)).toBe(
      'a.pdf is not a PDF file: choose a PDF.',
    );
    expect(
      toolRefusal({ code: 'corrupt_pdf', inputIndex: 0, details: { reason: 'no_pages' } }, ['a.pdf'], limits),
    ).toBe('a.pdf has no pages: there is nothing to work on.');
    expect(toolRefusal({ code: 'invalid_arguments', details: { files: 300, limit: 200 } }, ['a.pdf'], limits)).toBe(
      'This would make 300 files; at most 200 files at once: ask for fewer parts.',
    );
    expect(toolRefusal({ code: 'invalid_arguments', details: {} }, ['a.pdf'], limits)).toBeUndefined();
    // Remove pages on every page of a file the form could not count (a locked one): said as such, not "do not fit".
    expect(
      toolRefusal(
        { code: 'invalid_page_range', inputIndex: 0, details: { page_count: 2, none_left: true } },
        ['a.pdf'],
        limits,
      ),
    ).toBe('The pages you chose are every page of a.pdf (2 pages): at least one page must remain.');
    for (const code of [
      'too_many_pages',
      'file_too_large',
      'not_a_pdf',
      'corrupt_pdf',
      'encrypted',
      'invalid_page_range',
      'file_not_found',
      'timeout',
      'busy',
      'internal_error',
    ]) {
      expect(
        toolRefusal({ code, inputIndex: 0, details: { pages: 300, limit: 200, page_count: 3 } }, names, limits),
      ).not.toMatch(PROGRAM);
    }
  });

  /** A result as webSummary reads it: the tool, its fields, its sentence and how many files it made. */
  const done = (tool: string, data: Record<string, unknown>, summary: string, files = 1) => ({
    tool,
    data,
    summary,
    files: Array.from({ length: files }, () => ({})),
  });

  it("summarises results from their typed fields: counts pluralised, sizes in KB/MB, dates in words, choices in the form's words", () => {
    expect(webSummary(done('split_pdf', {}, 'Split into 1 documents.', 1))).toBe('Split into 1 document.');
    expect(webSummary(done('split_pdf', {}, '', 2))).toBe('Split into 2 documents.');
    expect(
      webSummary(
        done(
          'compress_pdf',
          { original_bytes: 2 * 1048576, saved_bytes: 1048576, saved_percent: 50, unchanged: false },
          'Compressed from 2097152 to 1048576 bytes (50% smaller).',
        ),
      ),
    ).toBe('Compressed from 2 MB to 1 MB (50 % smaller).');
    expect(
      webSummary(
        done('compress_pdf', { original_bytes: 1300, saved_bytes: 6, saved_percent: 0.5, unchanged: false }, ''),
      ),
    ).toBe('Compressed a little (0.5 % smaller): still about 1 KB.');
    expect(
      webSummary(
        done(
          'compress_pdf',
          { original_bytes: 1300, saved_bytes: 0, unchanged: true },
          'Returned the input unchanged.',
        ),
      ),
    ).toBe('Your file could not be made smaller: you get it back unchanged.');
    expect(webSummary(done('rotate_pages', {}, 'Rotated 1 page by 90 degrees.'))).toBe('Rotated 1 page by 90 degrees.');
    expect(dateWords('2024-05-01T12:00:00Z')).toBe('1 May 2024, 12:00 UTC');
    expect(dateWords('not a date')).toBe('not a date');
    expect(
      webResultData('pdf_metadata', {
        metadata: { title: 'R', creation_date: '2024-05-01T12:00:00.000Z', modification_date: null },
      }),
    ).toEqual({
      metadata: { title: 'R', creation_date: '1 May 2024, 12:00 UTC', modification_date: null },
    });
    expect(webResultData('compress_pdf', { level: 'recommended', saved_bytes: 6 })).toEqual({
      level: 'Recommended',
      saved_bytes: 'less than 1 KB',
    });
  });
});
