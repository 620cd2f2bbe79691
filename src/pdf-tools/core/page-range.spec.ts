import { parsePageRange } from './page-range';
import { ToolFailure } from './tool-failure';

describe('parsePageRange', () => {
  const p = (spec: string | undefined, n = 10) => parsePageRange(spec, n);

  it('reads numbers, ranges, open ranges and keywords', () => {
    expect(p('1-3,7,9-')).toEqual([1, 2, 3, 7, 9, 10]);
    expect(p('-3')).toEqual([1, 2, 3]);
    expect(p('last')).toEqual([10]);
    expect(p('8-last')).toEqual([8, 9, 10]);
    expect(p('odd', 5)).toEqual([1, 3, 5]);
    expect(p('even', 5)).toEqual([2, 4]);
    expect(p('all', 3)).toEqual([1, 2, 3]);
    expect(p(undefined, 3)).toEqual([1, 2, 3]);
    expect(p('  ', 2)).toEqual([1, 2]);
    expect(p(' 2 - 4 , LAST ')).toEqual([2, 3, 4, 10]);
  });

  it('keeps the order written, each page once; descending ranges go backwards', () => {
    expect(p('3,1,2,3')).toEqual([3, 1, 2]);
    expect(p('5-3')).toEqual([5, 4, 3]);
    expect(p('last,1')).toEqual([10, 1]);
  });

  it('rejects out-of-range pages naming the page count', () => {
    expect(() => p('11')).toThrow(/out of range: the file has 10 pages \(1-10\)/);
    expect(() => p('0')).toThrow(ToolFailure);
    expect(() => parsePageRange('2', 1, 'files[1]')).toThrow(/files\[1\] has 1 page \(/);
  });

  it('rejects what it cannot read, with the grammar', () => {
    for (const bad of ['first', '1..3', '-', '1-2-3', 'a', '1,,2', '1;2']) {
      try {
        p(bad);
        throw new Error(`accepted ${bad}`);
      } catch (e) {
        expect(e).toBeInstanceOf(ToolFailure);
        expect((e as ToolFailure).code).toBe('invalid_page_range');
        expect((e as ToolFailure).message).toMatch(/"N-M"/);
      }
    }
  });

  it('rejects a selection with no page', () => {
    expect(() => p('even', 1)).toThrow(/selects no page/);
  });
});
