import { fingerprintOf } from '../diff/fingerprint';
import type { ReportPage, ReportRule } from '../report/report.types';
import { appliedWeight } from '../scoring/breakdown';
import { IMPACT_WEIGHT, pageScore, siteScore } from '../scoring/score';
import type { ExcludedSelector, IssueGroup, SitePageResult } from './site.types';

/** What a site's settings take out of a page's results. */
export interface ResultFilter {
  ignoreRules: readonly string[];
  excludedSelectors: readonly ExcludedSelector[];
}

/** A page's results as the site sees them: ignored rules and excluded elements taken out, the score recomputed. */
export interface FilteredPage {
  url: string;
  score: number;
  violations: ReportRule[];
  /** Weight of the rules that applied (passed or failed), the denominator of the page score. */
  appliedWeight: number;
}

/**
 * Excluded selectors are matched against axe's selector of each element (the `target` path, as
 * text): a node whose selector contains the excluded one is left out. Not a CSS match in the page.
 */
const excluded = (target: readonly string[], selectors: readonly ExcludedSelector[]): boolean =>
  selectors.some((s) => target.some((t) => t.includes(s.selector)));

export function filterPage(page: ReportPage, f: ResultFilter): FilteredPage {
  const ignore = new Set(f.ignoreRules);
  const passes = page.passes.filter((p) => !ignore.has(p.id));
  const violations: ReportRule[] = [];
  const nowPassing: { id: string; impact: ReportRule['impact'] }[] = [];
  for (const v of page.violations) {
    if (ignore.has(v.id)) continue;
    const nodes = v.nodes.filter((n) => !excluded(n.target, f.excludedSelectors));
    if (nodes.length === 0 && !v.nodesOmitted) nowPassing.push({ id: v.id, impact: v.impact });
    else violations.push({ ...v, nodes });
  }
  const allPasses = [...passes, ...nowPassing];
  const unchanged = ignore.size === 0 && nowPassing.length === 0 && violations.length === page.violations.length;
  // A page that did not render keeps the engine's score (0): nothing was really tested.
  const score = page.render?.state === 'incomplete' || unchanged ? page.score : pageScore(violations, allPasses);
  return { url: page.url, score, violations, appliedWeight: appliedWeight(violations, allPasses) };
}

/**
 * Issues grouped across pages by element fingerprint (src/a11y/diff: rule + class-free DOM path +
 * tag + accessible name + own text), so a template defect on N pages is one group with N
 * occurrences. Each group's `points`: the site score (mean of page scores) recovered by fixing it,
 * i.e. the sum over the pages where it is the rule's only failing element of 100 x rule weight /
 * page applied weight, divided by the number of pages. Sorted by points, then occurrences: the fix plan.
 */
export function groupIssues(pages: readonly FilteredPage[]): IssueGroup[] {
  const groups = new Map<string, IssueGroup>();
  const n = pages.length;
  for (const p of pages) {
    for (const v of p.violations) {
      const prints = v.nodes.map((node) => node.fingerprint ?? fingerprintOf(v.id, node));
      const distinct = new Set(prints);
      const sole = distinct.size === 1 && !v.nodesOmitted;
      v.nodes.forEach((node, i) => {
        const fp = prints[i];
        let g = groups.get(fp);
        if (!g) {
          g = {
            fingerprint: fp,
            rule: v.id,
            impact: v.impact,
            help: v.help,
            helpUrl: v.helpUrl,
            html: node.html,
            target: node.target.join(' '),
            pages: [],
            occurrences: 0,
            points: 0,
          };
          groups.set(fp, g);
        }
        g.occurrences++;
        if (!g.pages.includes(p.url)) {
          g.pages.push(p.url);
          if (sole && p.appliedWeight > 0) g.points += (100 * IMPACT_WEIGHT[v.impact]) / p.appliedWeight / n;
        }
      });
    }
  }
  return [...groups.values()].sort(
    (a, b) =>
      b.points - a.points ||
      b.occurrences - a.occurrences ||
      IMPACT_WEIGHT[b.impact] - IMPACT_WEIGHT[a.impact] ||
      a.rule.localeCompare(b.rule),
  );
}

/** The site score: the mean of the filtered page scores (as the public report's). */
export const siteScoreOf = (pages: readonly FilteredPage[]): number => siteScore(pages.map((p) => p.score));

/** The fingerprints of each page, from a summary's groups. */
export function printsByPage(groups: readonly IssueGroup[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const g of groups) for (const p of g.pages) (out.get(p) ?? out.set(p, new Set()).get(p)!).add(g.fingerprint);
  return out;
}

/**
 * Per page, what is new, fixed and unchanged since the previous scan, by element fingerprint. A page
 * the previous scan did not scan (or could not) gets no diff.
 */
export function diffPages(
  pages: readonly SitePageResult[],
  now: readonly IssueGroup[],
  before: { pages: readonly SitePageResult[]; groups: readonly IssueGroup[] },
): SitePageResult[] {
  const cur = printsByPage(now);
  const prev = printsByPage(before.groups);
  const scannedBefore = new Set(before.pages.filter((p) => p.reportId).map((p) => p.url));
  return pages.map((p) => {
    if (!p.reportId || !scannedBefore.has(p.url)) return p;
    const a = cur.get(p.url) ?? new Set<string>();
    const b = prev.get(p.url) ?? new Set<string>();
    const unchanged = [...a].filter((f) => b.has(f)).length;
    return { ...p, diff: { new: a.size - unchanged, fixed: b.size - unchanged, unchanged } };
  });
}
