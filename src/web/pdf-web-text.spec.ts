import { PDF_TOOLS } from '../pdf-tools/tools';
import { firstSentence, WEB_TOOL_TEXT } from './pdf-web-text';
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
});
