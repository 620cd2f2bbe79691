import { disabilitiesOf } from '../scoring/disabilities';
import { pageBreakdown } from '../scoring/breakdown';
import { pageScore } from '../scoring/score';
import type { AxeOutput, AxeRuleOut } from './axe-output';
import { AXE_RULES } from './axe-rules';
import type { Report, ReportPage, ReportPass, ReportRule } from './report.types';

/**
 * Report entries from checked axe output (see axe-output.ts). Texts, links, tags and the impacts
 * that score come from our own axe-core package (axe-rules.ts), never from the scanned page.
 */
function toRule(r: AxeRuleOut): ReportRule {
  const meta = AXE_RULES.get(r.id)!;
  return {
    id: r.id,
    // A violation keeps the impact axe gives its result (the worst of its nodes).
    impact: r.impact ?? meta.impact,
    help: meta.help,
    helpUrl: meta.helpUrl,
    tags: [...meta.tags],
    disabilities: disabilitiesOf(r.id, meta.tags),
    nodes: r.nodes,
    nodesOmitted: r.nodesOmitted,
  };
}

function toPass(id: string): ReportPass {
  const meta = AXE_RULES.get(id)!;
  return { id, impact: meta.impact, help: meta.help, helpUrl: meta.helpUrl, tags: [...meta.tags] };
}

/** One page entry of the report (scored with the rules' static impacts). */
export function pageFromAxe(
  url: string,
  finalUrl: string,
  results: AxeOutput,
  timings: ReportPage['timings'],
): ReportPage {
  const failed = results.violations.map((r) => ({ id: r.id, impact: AXE_RULES.get(r.id)!.impact }));
  const passed = results.passes.map((r) => ({ id: r.id, impact: AXE_RULES.get(r.id)!.impact }));
  const score = pageScore(failed, passed);
  return {
    url,
    finalUrl,
    score,
    violations: results.violations.map(toRule),
    incomplete: results.incomplete.map(toRule),
    passes: results.passes.map((p) => toPass(p.id)),
    scoreBreakdown: pageBreakdown(failed, passed, score),
    timings,
  };
}

/** Failing elements of a rule, listed or not (reports stored before the cap have no nodesOmitted). */
export const nodeCount = (r: Pick<ReportRule, 'nodes' | 'nodesOmitted'>): number =>
  r.nodes.length + (r.nodesOmitted ?? 0);

/** The report's totals: failing elements and distinct failed rules over all pages. */
export function totals(pages: readonly ReportPage[]): Pick<Report, 'totalNodes' | 'violationTypes'> {
  const ids = new Set<string>();
  let totalNodes = 0;
  for (const p of pages) {
    for (const v of p.violations) {
      ids.add(v.id);
      totalNodes += nodeCount(v);
    }
  }
  return { totalNodes, violationTypes: ids.size };
}
