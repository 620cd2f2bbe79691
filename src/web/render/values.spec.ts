import { describeValue } from './values';

describe('describeValue', () => {
  it('writes page lists as ranges, and a repeated value with its count', () => {
    expect(describeValue(Array.from({ length: 200 }, (_, i) => i + 1))).toBe('1-200');
    expect(describeValue([1, 2, 3, 7, 9, 10])).toBe('1-3, 7, 9-10');
    expect(describeValue(Array.from({ length: 200 }, () => 90))).toBe('90 for all 200');
    expect(describeValue([90, 0, 90])).toBe('90, 0, 90');
    expect(describeValue([])).toBe('none');
  });

  it('spells out records and lists of records, with spaces to wrap on', () => {
    expect(describeValue([{ input: 'files[0]', pages: [1, 2, 3] }, { input: 'files[1]', pages: [5] }])).toBe(
      '(input: files[0]; pages: 1-3), (input: files[1]; pages: 5)',
    );
    expect(describeValue({ title: 'Report', page_count: 3 })).toBe('title: Report; page count: 3');
    expect(describeValue('as is')).toBe('as is');
    expect(describeValue(true)).toBe('true');
  });
});
