import { newSevereIssues, sameViewports, unreachablePages } from './site-alerts';
import type { IssueGroup, SiteScanSummary } from './site.types';

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

describe('alerts across viewports', () => {
  const group = (
    fingerprint: string,
    impact: IssueGroup['impact'],
    viewports?: IssueGroup['viewports'],
  ): IssueGroup => ({
    fingerprint,
    rule: fingerprint,
    impact,
    help: '',
    helpUrl: '',
    html: '',
    target: '',
    pages: ['http://s.test/a'],
    occurrences: 1,
    points: 1,
    ...(viewports ? { viewports } : {}),
  });
  const both = (groups: IssueGroup[]): SiteScanSummary => ({ ...summary([]), groups, viewports: ['desktop', 'phone'] });

  it('raises a new critical or serious issue found at the phone viewport only', () => {
    const before = both([group('old', 'critical', ['desktop', 'phone'])]);
    const now = both([
      group('old', 'critical', ['desktop', 'phone']),
      group('phone-only', 'serious', ['phone']),
      group('minor', 'moderate', ['phone']),
    ]);
    expect(newSevereIssues(now, before).map((g) => g.fingerprint)).toEqual(['phone-only']);
    expect(sameViewports(now, before)).toBe(true);
  });

  it('does not call an issue new at a viewport the previous scan did not count, nor compare their scores', () => {
    const before: SiteScanSummary = { ...summary([{ url: 'http://s.test/a', score: 90 }]), groups: [] }; // desktop only, older
    const now = both([group('phone-only', 'critical', ['phone']), group('desk', 'critical', ['desktop'])]);
    expect(newSevereIssues(now, before).map((g) => g.fingerprint)).toEqual(['desk']);
    expect(sameViewports(now, before)).toBe(false);
  });
});
