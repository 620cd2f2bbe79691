import { chunkPages, citedPages, numbered, relevantPages, translatedPages } from './pages';
import { pagesOf } from './pdf-text';

describe('PDF AI pages', () => {
  const pages = numbered([
    'Introduction to the annual report.',
    '',
    'Revenue grew to 12 million euros in 2025.',
    'The office moved to Lisbon.',
  ]);

  it('numbers pages from 1 and leaves out empty ones', () => {
    expect(pages.map((p) => p.page)).toEqual([1, 3, 4]);
  });

  it('chunks consecutive pages within the budget, cutting a page larger than it', () => {
    expect(chunkPages(pages, 10_000)).toHaveLength(1);
    const small = chunkPages(pages, 15);
    expect(small.map((c) => c.map((p) => p.page))).toEqual([[1], [3], [4]]);
    const big = chunkPages([{ page: 1, text: 'x'.repeat(10_000) }], 100);
    expect(big[0][0].text.length).toBe(350);
  });

  it("chooses the pages that share the question's rarer terms", () => {
    expect(relevantPages(pages, 'Where did the office move?', 10_000).map((p) => p.page)).toEqual([4]);
    expect(relevantPages(pages, 'How much revenue in 2025?', 10_000).map((p) => p.page)).toEqual([3]);
    // Nothing matches: the first pages within the budget.
    expect(relevantPages(pages, 'zebra', 20).map((p) => p.page)).toEqual([1]);
  });

  it('reads cited pages in the forms models write them', () => {
    expect(citedPages('Revenue grew [p. 3]; it moved [p. 4, 2] and more [pp. 6-8].')).toEqual([2, 3, 4, 6, 7, 8]);
    expect(citedPages('no citation')).toEqual([]);
  });

  it('splits a translation back into pages by its markers', () => {
    expect(translatedPages('[Page 3]\nUmsatz\n\n[Page 4]\nBüro', 3)).toEqual([
      { page: 3, text: 'Umsatz' },
      { page: 4, text: 'Büro' },
    ]);
    expect(translatedPages('ohne Marker', 5)).toEqual([{ page: 5, text: 'ohne Marker' }]);
  });

  it('a text layer of (almost) nothing is a scan to OCR first', () => {
    expect(pagesOf('\f\f')).toEqual({ ok: false, reason: 'no_text_layer' });
    expect(pagesOf('First page with words\fSecond page with words\f')).toEqual({
      ok: true,
      pages: ['First page with words', 'Second page with words'],
    });
  });
});
