/**
 * Intervals and tests for rates (docs/visibility-metrics.md, "Intervals and significance"): the
 * 95 % Wilson score interval of a proportion and the two-proportion z-test of a change.
 */

/** Confidence level of every interval and test. */
export const CONFIDENCE = 0.95;
/** Two-sided critical value of the standard normal distribution at CONFIDENCE. */
export const Z = 1.959963984540054;

/** A 95 % interval of a rate, in percent rounded to 0.1. */
export interface Interval {
  low: number;
  high: number;
}

const round1 = (n: number): number => Math.round(n * 1000) / 10;

/**
 * Wilson score interval of `part` successes out of `whole` (percent, 0.1); null without sample.
 * (p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)
 */
export function wilson(part: number, whole: number): Interval | null {
  if (whole <= 0) return null;
  const p = part / whole;
  const z2 = Z * Z;
  const centre = p + z2 / (2 * whole);
  const margin = Z * Math.sqrt((p * (1 - p)) / whole + z2 / (4 * whole * whole));
  const d = 1 + z2 / whole;
  return { low: Math.max(0, round1((centre - margin) / d)), high: Math.min(100, round1((centre + margin) / d)) };
}

/** Standard normal cumulative distribution (erf by Abramowitz & Stegun 7.1.26, |error| < 1.5e-7). */
function normalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

export interface ChangeTest {
  /** Two-sided p-value of the two-proportion z-test (0.0001 precision). */
  p_value: number;
  /** true when p_value < 1 − CONFIDENCE. */
  significant: boolean;
}

/**
 * Two-proportion z-test (pooled) of `x1/n1` (before) against `x2/n2` (after); null when either
 * sample is empty. Identical proportions at 0 % or 100 % are not a change (p = 1).
 */
export function twoProportionTest(x1: number, n1: number, x2: number, n2: number): ChangeTest | null {
  if (n1 <= 0 || n2 <= 0) return null;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (se === 0) return { p_value: 1, significant: false };
  const z = (x2 / n2 - x1 / n1) / se;
  const p = Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
  return { p_value: Math.round(p * 10000) / 10000, significant: p < 1 - CONFIDENCE };
}
