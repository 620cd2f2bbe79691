import { columnParams } from './column-params';

describe('columnParams', () => {
  it("lists the row's columns in the order given, the json ones as JSON text, nulls as they are", () => {
    const row = { a: 1, b: ['x', 'y'], c: { k: null }, d: 'text', e: null, unused: true };
    expect(columnParams(row, ['d', 'b', 'a', 'c', 'e'], ['b', 'c'])).toEqual([
      'text',
      '["x","y"]',
      1,
      '{"k":null}',
      null,
    ]);
    expect(columnParams(row, ['b'])).toEqual([['x', 'y']]);
  });
});
