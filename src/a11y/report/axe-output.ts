import { isImpact, type Impact } from '../scoring/score';
import { AXE_RULES } from './axe-rules';

/** Failing elements kept per rule and page (the rest are counted in `nodesOmitted`). */
export const MAX_NODES_PER_RULE = 100;
/** Characters of an element's markup kept. */
export const MAX_NODE_HTML = 2000;
/** Selector steps (frames, shadow roots) and characters per step kept. */
const MAX_TARGET_STEPS = 16;
const MAX_SELECTOR = 1000;

export interface AxeNodeOut {
  html: string;
  target: string[];
}
export interface AxeRuleOut {
  id: string;
  /** The impact axe gave this result (worst of its nodes), when valid. */
  impact?: Impact;
  nodes: AxeNodeOut[];
  /** Elements axe found beyond the ones listed. */
  nodesOmitted: number;
}
/** axe's results, checked: known rules only, bounded sizes, plain strings. */
export interface AxeOutput {
  violations: AxeRuleOut[];
  incomplete: AxeRuleOut[];
  passes: { id: string }[];
}

/**
 * Trims axe's results inside the browser before they are serialised (so a page with 30,000 failing
 * elements does not send megabytes over the DevTools protocol). Source text: defined in the scan's
 * isolated world as `__beaconTrim(results, maxNodes, maxHtml)`.
 */
export const TRIM_SOURCE = `globalThis.__beaconTrim = (r, maxNodes, maxHtml) => {
  const rule = (v) => ({
    id: v.id,
    impact: v.impact,
    nodeCount: v.nodes.length,
    nodes: v.nodes.slice(0, maxNodes).map((n) => ({ html: String(n.html).slice(0, maxHtml + 1), target: n.target })),
  });
  return { violations: r.violations.map(rule), incomplete: r.incomplete.map(rule), passes: r.passes.map((p) => ({ id: p.id })) };
};`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function selector(step: unknown): string | undefined {
  if (typeof step === 'string') return step.slice(0, MAX_SELECTOR);
  // a shadow-DOM path: selectors from the host down, joined as the report shows them
  if (
    Array.isArray(step) &&
    step.length > 0 &&
    step.length <= MAX_TARGET_STEPS &&
    step.every((s) => typeof s === 'string')
  ) {
    return step.join(' >>> ').slice(0, MAX_SELECTOR);
  }
  return undefined;
}

function node(raw: unknown): AxeNodeOut | undefined {
  if (!isObject(raw) || typeof raw.html !== 'string' || !Array.isArray(raw.target)) return undefined;
  if (raw.target.length === 0 || raw.target.length > MAX_TARGET_STEPS) return undefined;
  const target = raw.target.map(selector);
  if (target.some((s) => s === undefined)) return undefined;
  const html = raw.html.length > MAX_NODE_HTML ? `${raw.html.slice(0, MAX_NODE_HTML)}…` : raw.html;
  return { html, target: target as string[] };
}

function rules(raw: unknown, what: string): AxeRuleOut[] {
  if (!Array.isArray(raw)) throw new Error(`axe output: ${what} is not a list`);
  const seen = new Set<string>();
  const out: AxeRuleOut[] = [];
  for (const r of raw.slice(0, AXE_RULES.size)) {
    if (!isObject(r) || typeof r.id !== 'string' || !AXE_RULES.has(r.id) || seen.has(r.id) || !Array.isArray(r.nodes))
      continue;
    seen.add(r.id);
    const nodes = r.nodes
      .slice(0, MAX_NODES_PER_RULE)
      .map(node)
      .filter((n): n is AxeNodeOut => !!n);
    const count =
      typeof r.nodeCount === 'number' && Number.isSafeInteger(r.nodeCount) && r.nodeCount >= nodes.length
        ? r.nodeCount
        : nodes.length;
    out.push({
      id: r.id,
      ...(isImpact(r.impact) ? { impact: r.impact } : {}),
      nodes,
      nodesOmitted: count - nodes.length,
    });
  }
  return out;
}

/**
 * Checks what came back from the browser (shape, known rule ids, sizes) and keeps only that. A
 * result that is not axe's shape at all throws.
 */
export function validateAxeOutput(raw: unknown): AxeOutput {
  if (!isObject(raw)) throw new Error('axe output: not an object');
  const passes: { id: string }[] = [];
  if (!Array.isArray(raw.passes)) throw new Error('axe output: passes is not a list');
  const seen = new Set<string>();
  for (const p of raw.passes.slice(0, AXE_RULES.size)) {
    if (isObject(p) && typeof p.id === 'string' && AXE_RULES.has(p.id) && !seen.has(p.id)) {
      seen.add(p.id);
      passes.push({ id: p.id });
    }
  }
  return { violations: rules(raw.violations, 'violations'), incomplete: rules(raw.incomplete, 'incomplete'), passes };
}
