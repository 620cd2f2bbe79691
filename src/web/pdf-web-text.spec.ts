import { PDF_TOOLS } from '../pdf-tools/tools';
import { firstSentence, WEB_TOOL_TEXT, webNote } from './pdf-web-text';
import { redirectOf } from './pdf.controller';

describe('The website\'s words for the PDF tools', () => {
  it('takes the first sentence without stopping at an abbreviation, in parentheses or quotes, and ends it with one full stop', () => {
    expect(firstSentence('Delete chosen pages from a PDF (e.g. "1,last" or "even"). At least one page must remain.')).toBe(
      'Delete chosen pages from a PDF (e.g. "1,last" or "even").',
    );
    expect(firstSentence('Merge 2-20 PDFs into one, optionally choosing pages (e.g. "1-3,last"). Bookmarks are kept.')).toBe(
      'Merge 2-20 PDFs into one, optionally choosing pages (e.g. "1-3,last").',
    );
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
    expect(webNote('File was opened with the given password; the result is not encrypted.', ['report.pdf'])).toBe(
      'report.pdf was decrypted with your password: the result has no password.',
    );
    expect(
      webNote(
        'Files[0] was opened with the given password; the result is not encrypted. Files[1] was encrypted with an owner password only (it opens without a password): the result is not encrypted, and its restrictions (printing, copying, editing) were removed.',
        ['a.pdf', 'b.pdf'],
      ),
    ).toBe(
      'a.pdf was decrypted with your password: the result has no password. b.pdf was encrypted with an owner password only (it opens without a password): it was decrypted, so the result has no password and its restrictions (printing, copying, editing) were removed.',
    );
    expect(webNote('Files[0..1] were opened with the given passwords; the result is not encrypted.', ['a.pdf', 'b.pdf'])).toBe(
      'a.pdf and b.pdf were decrypted with your passwords: the result has no password.',
    );
    const many = Array.from({ length: 20 }, (_, i) => `f${i}.pdf`);
    expect(webNote('Files[0..3, 7] were damaged and were repaired (with qpdf) before processing (xref); check the result.', many)).toBe(
      'Files 1, 2, 3, 4 and 8 were damaged and were repaired before processing (xref); check the result.',
    );
    expect(webNote('File had 12 bytes before its %PDF- header; they were ignored. The PDF is already compact.', ['mail.pdf'])).toBe(
      'mail.pdf had 12 bytes before its %PDF- header; they were ignored. The PDF is already compact.',
    );
  });
});
