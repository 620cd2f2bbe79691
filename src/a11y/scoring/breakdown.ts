import { IMPACT_WEIGHT, Impact } from './score';

/** What fixing one failed rule is worth: the points it costs the page (or the report). */
export interface RuleCost {
  /** axe rule id. */
  id: string;
  /** The rule's static impact (the one the score weighs). */
  impact: Impact;
  /** Weight of that impact in the score (critical 10, serious 7, moderate 3, minor 1). */
  weight: number;
  /** Points the score would gain if this rule passed: "fix color-contrast: +14". */
  points: number;
}

/** A report-level cost: the rule's cost summed over the pages it fails on. */
export interface SiteRuleCost extends RuleCost {
  /** How many of the report's pages fail this rule. */
  pages: number;
}

/**
 * Rounds `exact` shares to integers that add up to `target` (largest remainder method): each share
 * gets its floor, then the shares with the largest remainders get one more point until the total
 * is reached (or, when rounding of the score left the target below the floors, the smallest
 * remainders give one back). Ties go to the earlier entry, so the result is deterministic.
 */
export function apportion(exact: readonly number[], target: number): number[] {
  const out = exact.map((x) => Math.floor(x + 1e-9));
  let diff = target - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, rem: x - out[i] }));
  if (diff > 0) {
    order.sort((a, b) => b.rem - a.rem || a.i - b.i);
    for (let k = 0; diff > 0 && order.length > 0; k = (k + 1) % order.length, diff--) out[order[k].i]++;
  } else if (diff < 0) {
    order.sort((a, b) => a.rem - b.rem || a.i - b.i);
    for (const { i } of order) {
      if (diff === 0) break;
      if (out[i] > 0) {
        out[i]--;
        diff++;
      }
    }
  }
  return out;
}

interface Outcome {
  id: string;
  impact: Impact;
}

/** Total weight of the rules that applied to a page (passed or failed; a rule counts once). */
export function appliedWeight(violations: readonly Outcome[], passes: readonly Outcome[]): number {
  const applied = new Map<string, Impact>();
  for (const p of passes) applied.set(p.id, p.impact);
  for (const v of violations) applied.set(v.id, v.impact);
  let total = 0;
  for (const impact of applied.values()) total += IMPACT_WEIGHT[impact];
  return total;
}

/** Exact (unrounded) points each failed rule costs a page: 100 x its weight / applied weight. */
function exactCosts(
  violations: readonly Outcome[],
  passes: readonly Outcome[],
): { id: string; impact: Impact; weight: number; exact: number }[] {
  const total = appliedWeight(violations, passes);
  const seen = new Set<string>();
  const out: { id: string; impact: Impact; weight: number; exact: number }[] = [];
  for (const v of violations) {
    if (seen.has(v.id)) continue;
    seen.add(v.id);
    const weight = IMPACT_WEIGHT[v.impact];
    out.push({ id: v.id, impact: v.impact, weight, exact: total === 0 ? 0 : (100 * weight) / total });
  }
  return out;
}

const byCost = (a: RuleCost, b: RuleCost): number =>
  b.points - a.points || b.weight - a.weight || a.id.localeCompare(b.id);

/**
 * The page score explained: for each failed rule, the points it costs. A failed rule's exact cost
 * is 100 x its weight / the applied weight (fixing it alone raises the unrounded score by that
 * much); the costs are rounded so that they add up to exactly `100 - score`. Largest cost first.
 */
export function pageBreakdown(violations: readonly Outcome[], passes: readonly Outcome[], score: number): RuleCost[] {
  const costs = exactCosts(violations, passes);
  const points = apportion(
    costs.map((c) => c.exact),
    100 - score,
  );
  return costs.map((c, i) => ({ id: c.id, impact: c.impact, weight: c.weight, points: points[i] })).sort(byCost);
}

/** What the report-level breakdown needs of a page: its failed rules' weights and its applied weight. */
export interface PageCosts {
  breakdown: readonly RuleCost[];
  appliedWeight: number;
}

/**
 * The report score (the mean of its page scores) explained: a rule's exact cost is the mean over
 * the pages of its exact page cost; rounded to add up to exactly `100 - score`.
 */
export function siteBreakdown(pages: readonly PageCosts[], score: number): SiteRuleCost[] {
  if (pages.length === 0) return [];
  const rules = new Map<string, { id: string; impact: Impact; weight: number; exact: number; pages: number }>();
  for (const p of pages) {
    for (const c of p.breakdown) {
      const exact = p.appliedWeight === 0 ? 0 : (100 * c.weight) / p.appliedWeight / pages.length;
      const r = rules.get(c.id);
      if (r) {
        r.exact += exact;
        r.pages++;
      } else rules.set(c.id, { id: c.id, impact: c.impact, weight: c.weight, exact, pages: 1 });
    }
  }
  const list = [...rules.values()];
  const points = apportion(
    list.map((r) => r.exact),
    100 - score,
  );
  return list
    .map((r, i) => ({ id: r.id, impact: r.impact, weight: r.weight, points: points[i], pages: r.pages }))
    .sort(byCost);
}

/** "fix color-contrast: +14" */
export const costLabel = (c: Pick<RuleCost, 'id' | 'points'>): string => `fix ${c.id}: +${c.points}`;

/** A page's costs from its report entry: applied weight = failed rules' weights + other passed rules' weights. */
export function pageCostsOf(page: {
  passes: readonly Outcome[];
  scoreBreakdown?: readonly RuleCost[];
  render?: { state: string };
}): PageCosts {
  const breakdown = page.scoreBreakdown ?? [];
  // A page that did not render scores 0; its breakdown is the render alone.
  if (page.render?.state === 'incomplete')
    return { breakdown, appliedWeight: breakdown.reduce((s, c) => s + c.weight, 0) };
  const failed = new Set(breakdown.map((c) => c.id));
  let weight = breakdown.reduce((s, c) => s + c.weight, 0);
  const passed = new Set<string>();
  for (const p of page.passes) {
    if (failed.has(p.id) || passed.has(p.id)) continue;
    passed.add(p.id);
    weight += IMPACT_WEIGHT[p.impact];
  }
  return { breakdown, appliedWeight: weight };
}
