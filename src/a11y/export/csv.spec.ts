import { renderCsv } from './csv';
import type { GateCase } from './gate';

const node = (html: string, target: string[], isNew?: boolean) => ({
  html,
  target,
  failureSummary: '',
  fingerprint: 'fp1',
  ...(isNew === undefined ? {} : { isNew }),
});

describe('renderCsv', () => {
  it('writes one row per failing element, quotes what needs it and defuses formulas', () => {
    const cases = [
      {
        page: 'http://s.test/a',
        rule: 'image-alt',
        help: 'Images must have alternative text',
        helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
        tags: [],
        impact: 'critical',
        outcome: 'failed',
        nodes: [node('<img src="a, b">', ['header', 'img'], true), node('=HYPERLINK("x")', ['#x'])],
      },
      {
        page: 'http://s.test/a',
        rule: 'region',
        help: 'r',
        helpUrl: 'u',
        tags: [],
        impact: 'moderate',
        outcome: 'passed',
        nodes: [],
      },
    ] as unknown as GateCase[];
    const lines = renderCsv(cases).split('\r\n');
    expect(lines[0]).toBe('page,rule,impact,outcome,help,help_url,selector,html,fingerprint,new,viewport');
    expect(lines[1]).toBe(
      'http://s.test/a,image-alt,critical,failed,Images must have alternative text,https://dequeuniversity.com/rules/axe/4.10/image-alt,header | img,"<img src=""a, b"">",fp1,yes,',
    );
    expect(lines[2]).toContain(`,#x,"'=HYPERLINK(""x"")",fp1,`);
    expect(lines).toHaveLength(4); // the passed rule has no row; the file ends with CRLF
  });

  it("appends each row's viewport last, after the columns read by position before it existed", () => {
    const at = (viewport: string, nodes: ReturnType<typeof node>[]) =>
      ({
        page: 'http://s.test/a',
        rule: 'image-alt',
        help: 'h',
        helpUrl: 'u',
        tags: [],
        impact: 'critical',
        outcome: 'failed',
        viewport,
        nodes,
      }) as unknown as GateCase;
    const lines = renderCsv([at('desktop', [node('<img>', ['img'])]), at('phone', [])])
      .trimEnd()
      .split('\r\n');
    expect(lines.slice(1)).toEqual([
      'http://s.test/a,image-alt,critical,failed,h,u,img,<img>,fp1,,desktop',
      'http://s.test/a,image-alt,critical,failed,h,u,,,,,phone', // a rule that names no element
    ]);
  });
});
