import { numberRuns } from './number-runs';

describe('numberRuns', () => {
  it('writes runs of consecutive numbers with their ends', () => {
    expect(numberRuns([1, 2, 3, 7, 9, 10])).toBe('1-3, 7, 9-10');
    expect(numberRuns([0, 1, 2, 3, 7], '..')).toBe('0..3, 7');
    expect(numberRuns([5])).toBe('5');
    expect(numberRuns([])).toBe('');
  });
});
