import type { Report, ReportNode, ReportPass, ReportRule } from '../report/report.types';
import { fingerprintOf } from '../diff/fingerprint';
import { newNodeKeys, ReportDiff } from '../diff/diff';
import { IMPACTS, Impact } from '../scoring/score';
import { RENDER_INCOMPLETE_RULE } from '../readiness/render-wait';
import { type ViewportName, VIEWPORT_LABELS } from '../scan/scan-options';

/** The CI gate's options (query `fail_on`, `new_only`). */
export interface GateOptions {
  /** Lowest impact that fails the gate (default minor: every violation fails). */
  failOn: Impact;
  /** Only elements that are new since the previous scan fail the gate. */
  newOnly: boolean;
}

/** One rule on one page, as a CI test case. */
export interface GateCase {
  page: string;
  /** The index of its page in the report's pages (a site scan lists a page once per viewport). */
  pageIndex: number;
  /** The viewport its page was scanned at, when the caller says (a site scan's exports). */
  viewport?: ViewportName;
  rule: string;
  help: string;
  helpUrl: string;
  tags: string[];
  impact: Impact;
  /** failed: fails the gate; reported: a violation the gate lets through (below fail_on, or not new); passed; review: needs human review only. */
  outcome: 'failed' | 'reported' | 'passed' | 'review';
  /** Violating elements (failed and reported cases); `isNew` is set when a diff was used. */
  nodes: (ReportNode & { fingerprint: string; isNew?: boolean })[];
  /** Why a violation does not fail the gate. */
  reason?: string;
}

/**
 * How a case's names say its viewport: nothing at desktop (the public scan's viewport, the only one
 * before viewports existed, so those names stay as they were), ` (phone 375)` at another one.
 */
export const viewportSuffix = (c: Pick<GateCase, 'viewport'>): string =>
  c.viewport && c.viewport !== 'desktop' ? ` (${VIEWPORT_LABELS[c.viewport]})` : '';

/** `impact` is at least as severe as `threshold`. */
export const atLeast = (impact: Impact, threshold: Impact): boolean =>
  IMPACTS.indexOf(impact) <= IMPACTS.indexOf(threshold);

/**
 * Whether an element of the report's page `page` (its index) is new since the previous scan;
 * undefined when that page has no previous scan to compare with (a site scan's, site-export.ts).
 */
export type NewElements = (page: number, rule: string, fingerprint: string) => boolean | undefined;

/** A report's diff with its previous scan as NewElements (every page compared). */
function newOfDiff(report: Report, diff: ReportDiff): NewElements {
  const fresh = newNodeKeys(diff);
  return (i, rule, fingerprint) => fresh.has(`${report.pages[i].url}\n${rule}\n${fingerprint}`);
}

/**
 * Every rule of every page as a case: violations (failed or only reported), passes, and rules only
 * in incomplete (review). `diff` (a report diff, or NewElements) says which elements are new; with
 * `newOnly`, a violation none of whose elements is new is reported, not failed. `viewports[i]`, when
 * given, is the viewport of `report.pages[i]`, carried by its cases.
 */
export function gateCases(
  report: Report,
  options: GateOptions,
  diff?: ReportDiff | NewElements,
  viewports?: readonly ViewportName[],
): GateCase[] {
  const isNew = typeof diff === 'function' ? diff : diff ? newOfDiff(report, diff) : undefined;
  const cases: GateCase[] = [];
  for (const [i, p] of report.pages.entries()) {
    const at: Where = { page: p.url, pageIndex: i, ...(viewports?.[i] ? { viewport: viewports[i] } : {}) };
    if (p.render?.state === 'incomplete') {
      cases.push({
        ...at,
        rule: RENDER_INCOMPLETE_RULE,
        help: `The page must render before it can be checked (${p.render.reason ?? 'not rendered'} after waiting ${p.render.waitMs} ms)`,
        helpUrl: 'https://www.w3.org/WAI/standards-guidelines/act/',
        tags: [],
        impact: 'critical',
        outcome: 'failed',
        nodes: [],
      });
    }
    const failedIds = new Set(p.violations.map((v) => v.id));
    for (const v of p.violations) cases.push(violationCase(at, v, options, isNew && ((r, f) => isNew(i, r, f))));
    for (const r of p.passes) {
      if (!failedIds.has(r.id)) cases.push(ruleCase(at, r, 'passed'));
    }
    const applied = new Set([...failedIds, ...p.passes.map((r) => r.id)]);
    for (const r of p.incomplete) {
      if (!applied.has(r.id)) {
        cases.push(ruleCase(at, r, 'review'));
      }
    }
  }
  return cases;
}

/** Which page (and viewport) a case is of. */
type Where = Pick<GateCase, 'page' | 'pageIndex' | 'viewport'>;

/** A rule with no element to list (passed, or only for review) as a case. */
function ruleCase(at: Where, r: ReportPass, outcome: 'passed' | 'review'): GateCase {
  return { ...at, rule: r.id, help: r.help, helpUrl: r.helpUrl, tags: r.tags, impact: r.impact, outcome, nodes: [] };
}

function violationCase(
  at: Where,
  v: ReportRule,
  options: GateOptions,
  isNew: ((rule: string, fingerprint: string) => boolean | undefined) | undefined,
): GateCase {
  const nodes = v.nodes.map((n) => {
    const fingerprint = n.fingerprint ?? fingerprintOf(v.id, n);
    const fresh = isNew?.(v.id, fingerprint);
    return { ...n, fingerprint, ...(fresh === undefined ? {} : { isNew: fresh }) };
  });
  const base = { ...at, rule: v.id, help: v.help, helpUrl: v.helpUrl, tags: v.tags, impact: v.impact, nodes };
  if (!atLeast(v.impact, options.failOn))
    return { ...base, outcome: 'reported', reason: `impact ${v.impact} is below fail_on=${options.failOn}` };
  if (options.newOnly && !nodes.some((n) => n.isNew))
    return { ...base, outcome: 'reported', reason: 'no element is new since the previous scan (new_only)' };
  return { ...base, outcome: 'failed' };
}
