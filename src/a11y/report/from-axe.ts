import type { AxeResults, Result } from 'axe-core';
import { disabilitiesOf } from '../scoring/disabilities';
import { pageBreakdown } from '../scoring/breakdown';
import { Impact, isImpact, pageScore } from '../scoring/score';
import type { Report, ReportPage, ReportPass, ReportRule } from './report.types';

/** Static impact of each axe rule, from its metadata (passes carry no impact). */
export type RuleImpacts = Readonly<Record<string, string | undefined>>;

const MAX_HTML = 2000;

function staticImpact(r: Result, impacts: RuleImpacts): Impact {
  const s = impacts[r.id];
  if (isImpact(s)) return s;
  return isImpact(r.impact) ? r.impact : 'moderate';
}

function toRule(r: Result, impacts: RuleImpacts): ReportRule {
  return {
    id: r.id,
    // A violation keeps the impact axe gives its result (the worst of its nodes).
    impact: isImpact(r.impact) ? r.impact : staticImpact(r, impacts),
    help: r.help,
    helpUrl: r.helpUrl,
    tags: [...r.tags],
    disabilities: disabilitiesOf(r.id, r.tags),
    nodes: r.nodes.map((n) => ({
      html: n.html.length > MAX_HTML ? `${n.html.slice(0, MAX_HTML)}…` : n.html,
      target: n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))),
    })),
  };
}

function toPass(r: Result, impacts: RuleImpacts): ReportPass {
  return { id: r.id, impact: staticImpact(r, impacts), help: r.help, helpUrl: r.helpUrl, tags: [...r.tags] };
}

/** One page entry of the report from axe's results (scored with the static impacts). */
export function pageFromAxe(
  url: string,
  results: AxeResults,
  impacts: RuleImpacts,
  timings: ReportPage['timings'],
): ReportPage {
  const failed = results.violations.map((r) => ({ id: r.id, impact: staticImpact(r, impacts) }));
  const passed = results.passes.map((r) => ({ id: r.id, impact: staticImpact(r, impacts) }));
  const score = pageScore(failed, passed);
  return {
    url,
    finalUrl: results.url,
    score,
    violations: results.violations.map((r) => toRule(r, impacts)),
    incomplete: results.incomplete.map((r) => toRule(r, impacts)),
    passes: results.passes.map((r) => toPass(r, impacts)),
    scoreBreakdown: pageBreakdown(failed, passed, score),
    timings,
  };
}

/** The report's totals: failing elements and distinct failed rules over all pages. */
export function totals(pages: readonly ReportPage[]): Pick<Report, 'totalNodes' | 'violationTypes'> {
  const ids = new Set<string>();
  let totalNodes = 0;
  for (const p of pages) {
    for (const v of p.violations) {
      ids.add(v.id);
      totalNodes += v.nodes.length;
    }
  }
  return { totalNodes, violationTypes: ids.size };
}
