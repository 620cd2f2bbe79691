import type { Report, ReportPage, ReportRule } from '../report/report.types';
import { pageBreakdown } from '../scoring/breakdown';
import { pageScore } from '../scoring/score';
import { siteAsReport } from './site-export';
import type { Site, SiteScan } from './site.types';

const rule = (id: string, impact: ReportRule['impact']): ReportRule => ({
  id,
  impact,
  help: id,
  helpUrl: '',
  tags: [],
  disabilities: [],
  nodes: [{ html: '<img>', target: ['img'] }],
});

const violations = [rule('image-alt', 'critical'), rule('color-contrast', 'serious')];
const passes: ReportPage['passes'] = [{ id: 'document-title', impact: 'serious', help: '', helpUrl: '', tags: [] }];
const score = pageScore(violations, passes);

const page = (url: string): ReportPage => ({
  url,
  finalUrl: url,
  score,
  violations,
  incomplete: [],
  passes,
  scoreBreakdown: pageBreakdown(violations, passes, score),
  timings: { navigationMs: 1, settleMs: 1, axeMs: 1, totalMs: 3 },
});

const reportOf = (id: string, url: string): Report =>
  ({
    id,
    url,
    score: 80,
    scannedAt: '2026-11-27T03:00:00Z',
    expiresAt: '2026-12-27T03:00:00Z',
    pages: [page(url)],
    meta: {},
  }) as unknown as Report;

const scan = {
  id: 's1',
  status: 'done',
  created_at: '2026-11-27T03:00:00Z',
  updated_at: '2026-11-27T03:00:10Z',
  finished_at: '2026-11-27T03:00:10Z',
  summary: {
    score,
    pages: [
      { url: 'http://a.test/', reportId: 'r1' },
      { url: 'http://a.test/b', reportId: 'r2' },
    ],
  },
} as unknown as SiteScan;

const reports = new Map([
  ['r1', reportOf('r1', 'http://a.test/')],
  ['r2', reportOf('r2', 'http://a.test/b')],
]);

describe('siteAsReport', () => {
  it("explains the site score with each failed rule's points (the PDF's 'What each fix is worth')", () => {
    const site = { start_url: 'http://a.test/', ignore_rules: [], excluded_selectors: [] } as unknown as Site;
    const r = siteAsReport(site, scan, reports);
    expect(r.scoreBreakdown?.map((c) => c.id)).toEqual(['image-alt', 'color-contrast']);
    expect(r.scoreBreakdown?.reduce((s, c) => s + c.points, 0)).toBe(100 - score);
  });

  it("leaves the site's ignored rules out of the breakdown", () => {
    const site = {
      start_url: 'http://a.test/',
      ignore_rules: ['color-contrast'],
      excluded_selectors: [],
    } as unknown as Site;
    const r = siteAsReport(site, scan, reports);
    expect(r.scoreBreakdown?.map((c) => c.id)).toEqual(['image-alt']);
  });
});
