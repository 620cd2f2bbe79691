import { unreachablePages } from './site-alerts';
import type { SiteScanSummary } from './site.types';

const summary = (pages: SiteScanSummary['pages']): SiteScanSummary => ({ score: 90, pages, groups: [], skipped: [] });

describe('unreachablePages', () => {
  it('names the pages that loaded before and fail now, not those that failed both times or are new', () => {
    const before = summary([
      { url: 'http://s.test/a', score: 90 },
      { url: 'http://s.test/b', error: 'HTTP 500.' },
      { url: 'http://s.test/c', score: 80 },
    ]);
    const now: SiteScanSummary['pages'] = [
      { url: 'http://s.test/a', error: 'The target answered HTTP 500.' },
      { url: 'http://s.test/b', error: 'HTTP 500.' },
      { url: 'http://s.test/c', score: 80 },
      { url: 'http://s.test/d', error: 'HTTP 404.' },
    ];
    expect(unreachablePages(now, before)).toEqual([{ url: 'http://s.test/a', error: 'The target answered HTTP 500.' }]);
  });
});
