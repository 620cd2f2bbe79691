import type { Report } from '../report/report.types';
import { nodeCount } from '../report/from-axe';
import { IMPACTS, Impact } from '../scoring/score';

/** WCAG success criteria named by a rule's tags (`wcag1412` -> `1.4.12`). */
export function wcagCriteria(tags: readonly string[]): string[] {
  return tags.flatMap((t) => {
    const m = /^wcag(\d)(\d)(\d+)$/.exec(t);
    return m ? [`${m[1]}.${m[2]}.${m[3]}`] : [];
  });
}

/** Violated rules and failing elements per impact over all pages. */
export function impactSummary(report: Pick<Report, 'pages'>): { impact: Impact; rules: number; nodes: number }[] {
  return IMPACTS.map((impact) => {
    const rules = new Set<string>();
    let nodes = 0;
    for (const p of report.pages) {
      for (const v of p.violations) {
        if (v.impact !== impact) continue;
        rules.add(v.id);
        nodes += nodeCount(v);
      }
    }
    return { impact, rules: rules.size, nodes };
  });
}

/** The caveat every rendering of a report carries. */
export const COVERAGE_NOTE =
  'Automated checks find only part of the WCAG issues (roughly 30 to 57 percent); a manual review is still needed for full compliance. This score is not a compliance certificate.';
