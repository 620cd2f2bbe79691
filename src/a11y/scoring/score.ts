/** Impacts axe assigns to rules and results. */
export type Impact = 'critical' | 'serious' | 'moderate' | 'minor';
export const IMPACTS: readonly Impact[] = ['critical', 'serious', 'moderate', 'minor'];

/** Lighthouse's weights of a rule by its impact. */
export const IMPACT_WEIGHT: Readonly<Record<Impact, number>> = { critical: 10, serious: 7, moderate: 3, minor: 1 };

export function isImpact(v: unknown): v is Impact {
  return typeof v === 'string' && (IMPACTS as readonly string[]).includes(v);
}

/** What the score needs of one rule's outcome on a page. */
export interface RuleOutcome {
  id: string;
  /** The rule's static impact (axe rule metadata); results of passes carry none. */
  impact: Impact;
}

/**
 * The Lighthouse accessibility formula for one page: every rule that applied (in violations or
 * passes) weighs by its static impact; a rule with any violation fails as a whole; rules only in
 * incomplete or inapplicable are left out. Score = 100 x passed weight / applied weight, rounded.
 * No applicable rule: 100.
 */
export function pageScore(violations: readonly RuleOutcome[], passes: readonly RuleOutcome[]): number {
  const applied = new Map<string, { impact: Impact; failed: boolean }>();
  for (const p of passes) applied.set(p.id, { impact: p.impact, failed: false });
  for (const v of violations) applied.set(v.id, { impact: v.impact, failed: true });
  let total = 0;
  let passed = 0;
  for (const { impact, failed } of applied.values()) {
    total += IMPACT_WEIGHT[impact];
    if (!failed) passed += IMPACT_WEIGHT[impact];
  }
  return total === 0 ? 100 : Math.round((100 * passed) / total);
}

/** The site score: the rounded mean of its pages' scores. */
export function siteScore(pageScores: readonly number[]): number {
  if (pageScores.length === 0) return 0;
  return Math.round(pageScores.reduce((a, b) => a + b, 0) / pageScores.length);
}

/** Score bands shared by the badge, the HTML page and the PDF (Lighthouse's bands). */
export function scoreBand(score: number): 'good' | 'average' | 'poor' {
  if (score >= 90) return 'good';
  if (score >= 50) return 'average';
  return 'poor';
}
