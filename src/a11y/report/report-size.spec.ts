import { totals } from './from-axe';
import { fitReport } from './report-size';
import type { ReportPage } from './report.types';

const page = (rules: number, nodes: number, html: number): ReportPage => ({
  url: 'https://example.com/',
  finalUrl: 'https://example.com/',
  score: 50,
  violations: Array.from({ length: rules }, (_, i) => ({
    id: `rule-${i}`,
    impact: 'serious' as const,
    help: 'h',
    helpUrl: 'https://example.com/h',
    tags: [],
    disabilities: [],
    nodes: Array.from({ length: nodes }, (_, j) => ({ html: 'x'.repeat(html), target: [`#n${j}`] })),
    nodesOmitted: 7,
  })),
  incomplete: [],
  passes: [],
  timings: { navigationMs: 1, settleMs: 1, axeMs: 1, totalMs: 3 },
});

describe('fitReport (report size cap)', () => {
  it('leaves a small report alone', () => {
    const pages = [page(2, 3, 10)];
    expect(fitReport(pages, 100_000)).toEqual({ pages });
  });

  it('cuts a big report under the cap, counting every element it leaves out', () => {
    const pages = [page(6, 100, 2000), page(6, 100, 2000)];
    const before = totals(pages).totalNodes;
    const fitted = fitReport(pages, 200_000);
    expect(Buffer.byteLength(JSON.stringify(fitted.pages))).toBeLessThanOrEqual(200_000);
    expect(totals(fitted.pages).totalNodes).toBe(before); // nothing silently lost
    expect(fitted.truncated!.nodesOmitted).toBeGreaterThan(0);
    expect(fitted.truncated!.maxHtml).toBe(200);
    const r = fitted.pages[0].violations[0];
    expect(r.nodes.length).toBe(fitted.truncated!.maxNodesPerRule);
    expect(r.nodesOmitted).toBe(7 + 100 - r.nodes.length);
  });
});
