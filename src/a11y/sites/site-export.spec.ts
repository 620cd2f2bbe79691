import type { Report, ReportPage, ReportRule } from '../report/report.types';
import { pageBreakdown } from '../scoring/breakdown';
import { pageScore } from '../scoring/score';
import { CSV_COLUMNS, renderCsv } from '../export/csv';
import { gateCases } from '../export/gate';
import { renderJunit } from '../export/junit';
import { renderSarif } from '../export/sarif';
import { fingerprintOf } from '../diff/fingerprint';
import { newSince, pdfNamesOf, siteAsReport, viewportsOf } from './site-export';
import type { IssueGroup, Site, SitePageResult, SiteScan, SiteScanSummary } from './site.types';

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
    const r = siteAsReport(site, scan, reports).report;
    expect(r.scoreBreakdown?.map((c) => c.id)).toEqual(['image-alt', 'color-contrast']);
    expect(r.scoreBreakdown?.reduce((s, c) => s + c.points, 0)).toBe(100 - score);
  });

  it("leaves the site's ignored rules out of the breakdown", () => {
    const site = {
      start_url: 'http://a.test/',
      ignore_rules: ['color-contrast'],
      excluded_selectors: [],
    } as unknown as Site;
    const r = siteAsReport(site, scan, reports).report;
    expect(r.scoreBreakdown?.map((c) => c.id)).toEqual(['image-alt']);
  });
});

describe('a site scan at two viewports, as the site page shows it', () => {
  const site = { start_url: 'http://a.test/', ignore_rules: [], excluded_selectors: [] } as unknown as Site;
  const rows: SitePageResult[] = [
    { url: 'http://a.test/', reportId: 'r1', viewport: 'desktop' },
    { url: 'http://a.test/b', reportId: 'r2', viewport: 'desktop' },
    { url: 'http://a.test/', reportId: 'r1p', viewport: 'phone', secondary: true },
    { url: 'http://a.test/b', reportId: 'r2p', viewport: 'phone', secondary: true },
  ];
  const two = { ...scan, summary: { ...scan.summary, pages: rows } } as SiteScan;
  const all = new Map([
    ...reports,
    ['r1p', reportOf('r1p', 'http://a.test/')],
    ['r2p', reportOf('r2p', 'http://a.test/b')],
  ]);

  it('the PDF counts 2 pages, names each row with its viewport and numbers it as its page', () => {
    const { report, rows: kept } = siteAsReport(site, two, all);
    expect(report.pages).toHaveLength(4);
    expect(pdfNamesOf(two.summary!, kept)).toEqual({
      scanned: '2, each at desktop 1280 and phone 375 (4 results)',
      labels: [
        'http://a.test/ (desktop 1280)',
        'http://a.test/b (desktop 1280)',
        'http://a.test/ (phone 375)',
        'http://a.test/b (phone 375)',
      ],
      numbers: [1, 2, 1, 2],
    });
  });

  it('the score breakdown and totals count every viewport, as the site score does (a mean over page x viewport)', () => {
    const { report } = siteAsReport(site, two, all);
    expect(report.scoreBreakdown?.reduce((s, c) => s + c.points, 0)).toBe(100 - score);
    expect(report.totalNodes).toBe(8); // two elements on each of the two pages, at each of the two viewports
  });

  it("the CSV's new column: yes or no on pages the previous scan scanned, empty elsewhere and at the other viewport", () => {
    const img = fingerprintOf('image-alt', violations[0].nodes[0]);
    const before = {
      pages: [{ url: 'http://a.test/', reportId: 'old' }],
      groups: [{ fingerprint: img, pages: ['http://a.test/'] } as IssueGroup],
    } as unknown as SiteScanSummary;
    const { report, rows: kept } = siteAsReport(site, two, all);
    const csv = renderCsv(gateCases(report, { failOn: 'minor', newOnly: false }, newSince(kept, before)));
    const cells = csv
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((r) => r.split(','))
      .map((c) => `${c[0]} ${c[1]} ${c[CSV_COLUMNS.indexOf('new')]}`);
    expect(cells).toEqual([
      'http://a.test/ image-alt no',
      'http://a.test/ color-contrast yes',
      'http://a.test/b image-alt ',
      'http://a.test/b color-contrast ',
      'http://a.test/ image-alt ',
      'http://a.test/ color-contrast ',
      'http://a.test/b image-alt ',
      'http://a.test/b color-contrast ',
    ]);
    expect(newSince(kept, undefined)).toBeUndefined();
  });

  /** The site export's cases of the two-viewport scan, each with its row's viewport (as SiteExportService renders them). */
  const exportOf = () => {
    const { report, rows: kept } = siteAsReport(site, two, all);
    return {
      report,
      cases: gateCases(report, { failOn: 'minor', newOnly: false }, undefined, viewportsOf(two.summary!, kept)),
    };
  };

  it('the CSV names the viewport of each row in its last column', () => {
    const { cases } = exportOf();
    const lines = renderCsv(cases).trimEnd().split('\r\n');
    expect(lines[0].split(',')).toEqual([...CSV_COLUMNS]);
    expect(CSV_COLUMNS.indexOf('viewport')).toBe(CSV_COLUMNS.length - 1); // appended: the earlier columns keep their place
    const cells = lines.slice(1).map((r) => r.split(','));
    expect(cells.map((c) => `${c[0]} ${c[1]} ${c[CSV_COLUMNS.indexOf('viewport')]}`)).toEqual([
      'http://a.test/ image-alt desktop',
      'http://a.test/ color-contrast desktop',
      'http://a.test/b image-alt desktop',
      'http://a.test/b color-contrast desktop',
      'http://a.test/ image-alt phone',
      'http://a.test/ color-contrast phone',
      'http://a.test/b image-alt phone',
      'http://a.test/b color-contrast phone',
    ]);
  });

  it('a scan at one viewport names it on every row (desktop for scans from before viewports existed)', () => {
    const one = (viewports?: SiteScanSummary['viewports']) =>
      viewportsOf({ ...scan.summary!, ...(viewports ? { viewports } : {}) }, scan.summary!.pages);
    expect(one(['phone'])).toEqual(['phone', 'phone']);
    expect(one()).toEqual(['desktop', 'desktop']);
  });

  it('JUnit: one suite per page and viewport with its own cases, a viewport property, phone names marked', () => {
    const { report, cases } = exportOf();
    const xml = renderJunit(report, cases, 'http://beacon.test/site');
    const suites = xml.split('<testsuite ').slice(1);
    expect(suites.map((x) => /^name="([^"]*)"/.exec(x)![1])).toEqual([
      'accessibility: http://a.test/',
      'accessibility: http://a.test/b',
      'accessibility: http://a.test/ (phone 375)',
      'accessibility: http://a.test/b (phone 375)',
    ]);
    // each suite holds its own page's cases only (two failures, one pass), not the other viewport's too
    expect(suites.map((x) => /tests="(\d+)" failures="(\d+)"/.exec(x)!.slice(1).join('/'))).toEqual(
      suites.map(() => '3/2'),
    );
    expect(suites.map((x) => /<property name="viewport" value="([^"]*)"\/>/.exec(x)?.[1])).toEqual([
      'desktop',
      'desktop',
      'phone',
      'phone',
    ]);
    expect(suites[0]).toContain('<testcase name="image-alt: image-alt" classname="http://a.test/"');
    expect(suites[2]).toContain('<testcase name="image-alt: image-alt (phone 375)" classname="http://a.test/"');
    expect(xml).toMatch(/<testsuites [^>]*tests="12" failures="8"/);
  });

  it('SARIF: each result has its viewport in its property bag, and a phone result says so in its message', () => {
    const { report, cases } = exportOf();
    const log = renderSarif(report, cases, 'http://beacon.test/site') as {
      runs: { results: { ruleId: string; message: { text: string }; properties: Record<string, string> }[] }[];
    };
    const results = log.runs[0].results;
    expect(results.map((r) => r.properties.viewport)).toEqual([...Array(4).fill('desktop'), ...Array(4).fill('phone')]);
    expect(results[0]).toMatchObject({
      message: { text: 'image-alt (critical): img' },
      properties: { impact: 'critical', page: 'http://a.test/', viewport: 'desktop' },
    });
    expect(results[4].message.text).toBe('image-alt (critical): img (phone 375)');
  });

  it("the public scan's exports (no viewports given) are as before: no viewport anywhere", () => {
    const { report } = siteAsReport(site, two, all);
    const cases = gateCases(report, { failOn: 'minor', newOnly: false });
    expect(cases.some((c) => 'viewport' in c)).toBe(false);
    expect(renderJunit(report, cases, 'http://beacon.test/')).not.toContain('viewport');
    expect(JSON.stringify(renderSarif(report, cases, 'http://beacon.test/'))).not.toMatch(/viewport|phone 375/);
  });
});
