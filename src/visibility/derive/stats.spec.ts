import { twoProportionTest, wilson } from './stats';

describe('Wilson score interval (95 %)', () => {
  it('matches hand-computed values', () => {
    expect(wilson(2, 5)).toEqual({ low: 11.8, high: 76.9 });
    expect(wilson(0, 10)).toEqual({ low: 0, high: 27.8 });
    expect(wilson(10, 10)).toEqual({ low: 72.2, high: 100 });
    expect(wilson(50, 100)).toEqual({ low: 40.4, high: 59.6 });
  });

  it('is null without a sample and narrows as the sample grows', () => {
    expect(wilson(0, 0)).toBeNull();
    const small = wilson(2, 4)!;
    const large = wilson(200, 400)!;
    expect(small.high - small.low).toBeGreaterThan(large.high - large.low);
  });
});

describe('two-proportion z-test (95 %)', () => {
  it('10 % -> 20 % of 100 answers is significant; 10 % -> 18 % is not', () => {
    expect(twoProportionTest(10, 100, 20, 100)).toEqual({ p_value: 0.0477, significant: true });
    expect(twoProportionTest(10, 100, 18, 100)).toMatchObject({ significant: false });
    expect(twoProportionTest(10, 100, 18, 100)!.p_value).toBeCloseTo(0.1031, 3);
  });

  it('50 % of 4 -> 100 % of 4 is not significant; 50 % of 400 -> 60 % of 400 is', () => {
    expect(twoProportionTest(2, 4, 4, 4)!.significant).toBe(false);
    expect(twoProportionTest(200, 400, 240, 400)!.significant).toBe(true);
  });

  it('no sample gives null; identical 0 % or 100 % is no change', () => {
    expect(twoProportionTest(0, 0, 1, 10)).toBeNull();
    expect(twoProportionTest(0, 10, 0, 20)).toEqual({ p_value: 1, significant: false });
    expect(twoProportionTest(10, 10, 20, 20)).toEqual({ p_value: 1, significant: false });
  });
});
