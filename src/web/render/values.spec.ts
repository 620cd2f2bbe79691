import { describeResult, describeValue } from './values';

describe('describeValue', () => {
  it('writes page lists as ranges, and a repeated value with its count', () => {
    expect(describeValue(Array.from({ length: 200 }, (_, i) => i + 1))).toBe('1-200');
    expect(describeValue([1, 2, 3, 7, 9, 10])).toBe('1-3, 7, 9-10');
    expect(describeValue(Array.from({ length: 200 }, () => 90))).toBe('90 for all 200');
    expect(describeValue([90, 0, 90])).toBe('90, 0, 90');
    expect(describeValue([])).toBe('none');
  });

  it('spells out records and lists of records, with spaces to wrap on', () => {
    expect(
      describeValue([
        { input: 'files[0]', pages: [1, 2, 3] },
        { input: 'files[1]', pages: [5] },
      ]),
    ).toBe('(input: files[0]; pages: 1-3), (input: files[1]; pages: 5)');
    expect(describeValue({ title: 'Report', page_count: 3 })).toBe('title: Report; page count: 3');
    expect(describeValue('as is')).toBe('as is');
    expect(describeValue(true)).toBe('true');
  });

  it('labels tool results for people: what was done to which pages, each rotation once with its pages', () => {
    expect(describeResult({ rotated_pages: [1, 3], rotations: [180, 0, 180] })).toEqual([
      ['Pages rotated', '1, 3'],
      ['Rotation of each page now', '180° on pages 1, 3; 0° on page 2'],
    ]);
    expect(describeResult({ rotations: Array.from({ length: 200 }, () => 90) })).toEqual([
      ['Rotation of each page now', '90° on pages 1-200'],
    ]);
    expect(
      describeResult({
        inputs: [
          { input: 'files[0]', pages: [1, 2, 3] },
          { input: 'files[1]', pages: [5] },
        ],
        bookmarks: 2,
      }),
    ).toEqual([
      ['Pages taken from each file', 'file 1: pages 1-3; file 2: page 5'],
      ['Bookmarks kept', '2'],
    ]);
    expect(
      describeResult({ original_bytes: 2 * 1024 * 1024, saved_bytes: 512 * 1024, saved_percent: 25, unchanged: false }),
    ).toEqual([
      ['Size of your file', '2 MB'],
      ['Saved', '512 KB (25 %)'],
      ['Unchanged', 'no'],
    ]);
    expect(describeResult({ saved_bytes: 6, saved_percent: 0.5 })).toEqual([['Saved', '6 bytes (0.5 %)']]);
    expect(describeResult({ changed: false, some_new_field: true })).toEqual([
      ['File changed', 'no: read only, your file is unchanged'],
      ['Some new field', 'yes'],
    ]);
  });

  it('lists the metadata one field a line, not as one long line', () => {
    expect(
      describeResult({
        metadata: {
          title: 'Report',
          author: null,
          creation_date: '1 May 2024, 12:00 UTC',
          custom: { Department: 'Sales' },
        },
        changed: false,
      }),
    ).toEqual([
      ['Title', 'Report'],
      ['Author', 'none'],
      ['Creation date', '1 May 2024, 12:00 UTC'],
      ['Department (custom field)', 'Sales'],
      ['File changed', 'no: read only, your file is unchanged'],
    ]);
  });
});
