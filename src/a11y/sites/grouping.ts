import { fingerprintOf } from '../diff/fingerprint';
import type { ReportPage, ReportRule } from '../report/report.types';
import { appliedWeight } from '../scoring/breakdown';
import { IMPACT_WEIGHT, pageScore, siteScore } from '../scoring/score';
import { VIEWPORT_NAMES, type ViewportName } from '../scan/scan-options';
import type { ExcludedSelector, IssueGroup, SitePageResult } from './site.types';

/** What a site's settings take out of a page's results. */
export interface ResultFilter {
  ignoreRules: readonly string[];
  excludedSelectors: readonly ExcludedSelector[];
}

/** A page's results as the site sees them: ignored rules and excluded elements taken out, the score recomputed. */
export interface FilteredPage {
  url: string;
  /** The viewport it was scanned at (absent: desktop). */
  viewport?: ViewportName;
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
 * occurrences. `reports`: one per page and viewport (docs/a11y-monitoring.md, "The fix plan's
 * arithmetic"): a group lists the pages and viewports it occurs on; its occurrences count, per page,
 * the most elements found at one viewport (the same element at two viewports is one). Its `points`:
 * the site score (mean over the R reports) recovered by fixing it, i.e. the sum over the reports
 * where it is the rule's only failing element of 100 x rule weight / report applied weight, divided
 * by R. Sorted by points, then occurrences: the fix plan.
 */
export function groupIssues(reports: readonly FilteredPage[]): IssueGroup[] {
  const groups = new Map<string, IssueGroup>();
  /** Per group, per page: the most elements found at one viewport. */
  const most = new Map<string, Map<string, number>>();
  const n = reports.length;
  for (const p of reports) {
    const viewport = p.viewport ?? 'desktop';
    for (const v of p.violations) {
      const prints = v.nodes.map((node) => node.fingerprint ?? fingerprintOf(v.id, node));
      const here = new Map<string, number>();
      const sole = new Set(prints).size === 1 && !v.nodesOmitted;
      v.nodes.forEach((node, i) => {
        const fp = prints[i];
        here.set(fp, (here.get(fp) ?? 0) + 1);
        if (groups.has(fp)) return;
        groups.set(fp, {
          fingerprint: fp,
          rule: v.id,
          impact: v.impact,
          help: v.help,
          helpUrl: v.helpUrl,
          html: node.html,
          target: node.target.join(' '),
          pages: [],
          viewports: [],
          occurrences: 0,
          points: 0,
        });
      });
      for (const [fp, count] of here) {
        const g = groups.get(fp)!;
        if (!g.pages.includes(p.url)) g.pages.push(p.url);
        if (!g.viewports!.includes(viewport)) g.viewports!.push(viewport);
        const byPage = most.get(fp) ?? most.set(fp, new Map()).get(fp)!;
        byPage.set(p.url, Math.max(byPage.get(p.url) ?? 0, count));
        if (sole && p.appliedWeight > 0) g.points += (100 * IMPACT_WEIGHT[v.impact]) / p.appliedWeight / n;
      }
    }
  }
  for (const [fp, byPage] of most) groups.get(fp)!.occurrences = [...byPage.values()].reduce((a, b) => a + b, 0);
  for (const g of groups.values()) g.viewports!.sort((a, b) => VIEWPORT_NAMES.indexOf(a) - VIEWPORT_NAMES.indexOf(b));
  return [...groups.values()].sort(
    (a, b) =>
      b.points - a.points ||
      b.occurrences - a.occurrences ||
      IMPACT_WEIGHT[b.impact] - IMPACT_WEIGHT[a.impact] ||
      a.rule.localeCompare(b.rule),
  );
}

/** The site score: the mean of the filtered reports' scores, one per page and viewport (as the public report's mean). */
export const siteScoreOf = (pages: readonly FilteredPage[]): number => siteScore(pages.map((p) => p.score));

/** The fingerprints of each page, from a summary's groups. */
export function printsByPage(groups: readonly IssueGroup[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const g of groups) for (const p of g.pages) (out.get(p) ?? out.set(p, new Set()).get(p)!).add(g.fingerprint);
  return out;
}

/**
 * Per page, what is new, fixed and unchanged since the previous scan, by element fingerprint (found at
 * any viewport), on the page's first-viewport result. A page the previous scan did not scan (or could
 * not) gets no diff.
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
    if (!p.reportId || p.secondary || !scannedBefore.has(p.url)) return p;
    const a = cur.get(p.url) ?? new Set<string>();
    const b = prev.get(p.url) ?? new Set<string>();
    const unchanged = [...a].filter((f) => b.has(f)).length;
    return { ...p, diff: { new: a.size - unchanged, fixed: b.size - unchanged, unchanged } };
  });
}
