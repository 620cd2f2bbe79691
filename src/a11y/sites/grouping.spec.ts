import type { ReportPage, ReportRule } from '../report/report.types';
import { filterPage, groupIssues, siteScoreOf } from './grouping';
import { matchesPattern, parseSiteForm } from './site-input';

const rule = (id: string, impact: ReportRule['impact'], fps: string[]): ReportRule => ({
  id,
  impact,
  help: id,
  helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${id}`,
  tags: [],
  disabilities: [],
  nodes: fps.map((fp) => ({ html: `<x ${fp}>`, target: [`#${fp}`], fingerprint: fp })),
});
const pass = (id: string, impact: ReportRule['impact']) => ({ id, impact, help: id, helpUrl: '', tags: [] });
const pageOf = (url: string, violations: ReportRule[], score: number): ReportPage => ({
  url,
  finalUrl: url,
  score,
  violations,
  incomplete: [],
  passes: [pass('document-title', 'serious'), pass('html-has-lang', 'serious'), pass('region', 'moderate')],
  timings: { navigationMs: 0, settleMs: 0, axeMs: 0, totalMs: 0 },
});

describe('site issue grouping and fix plan', () => {
  it('counts a template defect once with its occurrences and ranks it by the site score it recovers', () => {
    // Applied weight per page: 7 + 7 + 3 = 17, plus 10 for image-alt, plus 10 for button-name on /c.
    const pages = [
      pageOf('/a', [rule('image-alt', 'critical', ['logo'])], 63),
      pageOf('/b', [rule('image-alt', 'critical', ['logo'])], 63),
      pageOf('/c', [rule('image-alt', 'critical', ['logo']), rule('button-name', 'critical', ['btn'])], 46),
    ];
    const groups = groupIssues(pages.map((p) => filterPage(p, { ignoreRules: [], excludedSelectors: [] })));
    expect(groups.map((g) => [g.rule, g.pages.length, g.occurrences])).toEqual([
      ['image-alt', 3, 3],
      ['button-name', 1, 1],
    ]);
    // image-alt: (100*10/27 + 100*10/27 + 100*10/37) / 3; button-name: (100*10/37) / 3.
    expect(groups[0].points).toBeCloseTo((1000 / 27 + 1000 / 27 + 1000 / 37) / 3, 6);
    expect(groups[1].points).toBeCloseTo(1000 / 37 / 3, 6);
  });

  it('gives no points on a page where another element still fails the same rule', () => {
    const groups = groupIssues([
      filterPage(pageOf('/a', [rule('image-alt', 'critical', ['logo', 'photo'])], 63), {
        ignoreRules: [],
        excludedSelectors: [],
      }),
    ]);
    expect(groups.map((g) => [g.fingerprint, g.points])).toEqual([
      ['logo', 0],
      ['photo', 0],
    ]);
  });

  it('takes ignored rules and excluded selectors out and scores the page again', () => {
    const p = pageOf('/a', [rule('image-alt', 'critical', ['logo']), rule('button-name', 'critical', ['chat'])], 46);
    expect(filterPage(p, { ignoreRules: ['button-name'], excludedSelectors: [] })).toMatchObject({
      score: 63,
      violations: [{ id: 'image-alt' }],
    });
    expect(
      filterPage(p, { ignoreRules: [], excludedSelectors: [{ selector: '#chat', reason: 'vendor widget' }] }),
    ).toMatchObject({ score: 73, violations: [{ id: 'image-alt' }] });
  });

  it('counts every viewport: the site score is the mean over page x viewport reports, a phone-only defect is in the plan', () => {
    const none = { ignoreRules: [], excludedSelectors: [] };
    const at = (p: ReportPage, viewport: 'desktop' | 'phone') => ({ ...filterPage(p, none), viewport });
    const reports = [
      at(pageOf('/a', [rule('image-alt', 'critical', ['logo'])], 63), 'desktop'),
      at(
        pageOf('/a', [rule('image-alt', 'critical', ['logo']), rule('button-name', 'critical', ['menu'])], 46),
        'phone',
      ),
      at(pageOf('/b', [], 100), 'desktop'),
      at(pageOf('/b', [rule('button-name', 'critical', ['menu'])], 63), 'phone'),
    ];
    expect(siteScoreOf(reports)).toBe(Math.round((63 + 46 + 100 + 63) / 4));
    const groups = groupIssues(reports);
    expect(groups.map((g) => [g.rule, g.pages, g.viewports, g.occurrences])).toEqual([
      ['button-name', ['/a', '/b'], ['phone'], 2],
      ['image-alt', ['/a'], ['desktop', 'phone'], 1], // the same element at two viewports: one occurrence
    ]);
    // Points: each report where it is the rule's only failing element, over the 4 reports.
    expect(groups[0].points).toBeCloseTo((1000 / 37 + 1000 / 27) / 4, 6);
    expect(groups[1].points).toBeCloseTo((1000 / 27 + 1000 / 37) / 4, 6);
  });

  it('matches URL patterns on the path and validates the form', () => {
    expect(matchesPattern('https://x.example/blog/a?p=1', '/blog/*')).toBe(true);
    expect(matchesPattern('https://x.example/shop', '/blog/*')).toBe(false);
    expect(() => parseSiteForm({ start_url: 'https://x.example/', urls: 'https://y.example/a' })).toThrow(
      /not on https:\/\/x\.example/,
    );
    expect(() => parseSiteForm({ start_url: 'https://x.example/', page_budget: '1001' })).toThrow(/1 to 1000/);
    expect(() => parseSiteForm({ start_url: 'https://x.example/', excluded_selectors: '#chat' })).toThrow(/reason/);
    expect(parseSiteForm({ start_url: 'https://x.example/', urls: '/a\n\n/b' })).toMatchObject({
      name: 'x.example',
      page_budget: 100,
      urls: ['https://x.example/a', 'https://x.example/b'],
      respect_robots: true,
    });
  });
});
