import type { Report, ReportNode, ReportPage, ReportRule } from '../report/report.types';
import type { Impact } from '../scoring/score';
import { fingerprintOf, looseKeyOf } from './fingerprint';

/** One failing element in a diff. */
export interface DiffNode {
  fingerprint: string;
  target: string[];
  html: string;
}

/** One rule on one page: its elements that are new, fixed and still there. */
export interface RuleDiff {
  /** Page address (as requested) the rule was checked on. */
  page: string;
  rule: string;
  impact: Impact;
  help: string;
  helpUrl: string;
  /** new: the rule did not fail on this page before; fixed: it no longer fails; still: it fails in both. */
  status: 'new' | 'fixed' | 'still';
  new: DiffNode[];
  fixed: DiffNode[];
  still: DiffNode[];
}

export interface DiffCounts {
  /** Failing elements. */
  new: number;
  fixed: number;
  still: number;
  /** Rules (per page). */
  newRules: number;
  fixedRules: number;
  stillRules: number;
}

/** GET /api/scan/{id}/diff: this report against an earlier one. */
export interface ReportDiff {
  id: string;
  url: string;
  scannedAt: string;
  score: number;
  /** The earlier report, or null when none is stored (first scan of this address within retention). */
  against: { id: string; scannedAt: string; score: number } | null;
  /** score - earlier score; null without an earlier report. */
  scoreChange: number | null;
  totals: DiffCounts;
  rules: RuleDiff[];
}

const keyOfPage = (p: ReportPage): string => p.finalUrl || p.url;
const toDiffNode = (rule: string, n: ReportNode): DiffNode => ({
  fingerprint: n.fingerprint ?? fingerprintOf(rule, n),
  target: n.target,
  html: n.html,
});

/**
 * Pairs the elements of one rule before and after: first by exact fingerprint (as multisets: two
 * identical elements pair with two), then the rest by the loose key (same tag, name and own text,
 * moved in the tree).
 */
export function matchNodes(
  rule: string,
  before: readonly ReportNode[],
  after: readonly ReportNode[],
): Pick<RuleDiff, 'new' | 'fixed' | 'still'> {
  const old = before.map((n) => ({
    n,
    fp: n.fingerprint ?? fingerprintOf(rule, n),
    loose: looseKeyOf(rule, n),
    used: false,
  }));
  const still: DiffNode[] = [];
  const pending: ReportNode[] = [];
  for (const n of after) {
    const fp = n.fingerprint ?? fingerprintOf(rule, n);
    const hit = old.find((o) => !o.used && o.fp === fp);
    if (hit) {
      hit.used = true;
      still.push(toDiffNode(rule, n));
    } else pending.push(n);
  }
  const fresh: DiffNode[] = [];
  for (const n of pending) {
    const loose = looseKeyOf(rule, n);
    const hit = loose ? old.find((o) => !o.used && o.loose === loose) : undefined;
    if (hit) {
      hit.used = true;
      still.push(toDiffNode(rule, n));
    } else fresh.push(toDiffNode(rule, n));
  }
  return { new: fresh, fixed: old.filter((o) => !o.used).map((o) => toDiffNode(rule, o.n)), still };
}

/**
 * The diff of two reports, page by page (pages matched by final address, else requested address)
 * and rule by rule. Pages only in one of the reports count all their violations as new or fixed.
 */
export function diffReports(current: Report, previous: Report | undefined): ReportDiff {
  const rules: RuleDiff[] = [];
  const prevPages = new Map((previous?.pages ?? []).map((p) => [keyOfPage(p), p]));
  const seenPrev = new Set<string>();
  const push = (page: string, before: ReportRule | undefined, after: ReportRule | undefined): void => {
    const r = (after ?? before)!;
    const m = matchNodes(r.id, before?.nodes ?? [], after?.nodes ?? []);
    const status = !before ? 'new' : !after ? 'fixed' : 'still';
    rules.push({ page, rule: r.id, impact: r.impact, help: r.help, helpUrl: r.helpUrl, status, ...m });
  };
  for (const p of current.pages) {
    const prev = previous ? prevPages.get(keyOfPage(p)) : undefined;
    if (prev) seenPrev.add(keyOfPage(prev));
    const before = new Map((prev?.violations ?? []).map((v) => [v.id, v]));
    for (const v of p.violations) push(p.url, before.get(v.id), v);
    const now = new Set(p.violations.map((v) => v.id));
    for (const v of prev?.violations ?? []) if (!now.has(v.id)) push(p.url, v, undefined);
  }
  for (const p of previous?.pages ?? []) {
    if (seenPrev.has(keyOfPage(p))) continue;
    for (const v of p.violations) push(p.url, v, undefined);
  }
  const order = { new: 0, still: 1, fixed: 2 } as const;
  rules.sort(
    (a, b) => order[a.status] - order[b.status] || b.new.length - a.new.length || a.rule.localeCompare(b.rule),
  );
  const totals: DiffCounts = { new: 0, fixed: 0, still: 0, newRules: 0, fixedRules: 0, stillRules: 0 };
  for (const r of rules) {
    totals.new += r.new.length;
    totals.fixed += r.fixed.length;
    totals.still += r.still.length;
    totals[`${r.status}Rules`]++;
  }
  return {
    id: current.id,
    url: current.url,
    scannedAt: current.scannedAt,
    score: current.score,
    against: previous ? { id: previous.id, scannedAt: previous.scannedAt, score: previous.score } : null,
    scoreChange: previous ? current.score - previous.score : null,
    totals,
    rules,
  };
}

/** Fingerprints of elements that are new in `diff` (per page and rule), for `new_only` exports. */
export function newNodeKeys(diff: ReportDiff): Set<string> {
  const keys = new Set<string>();
  for (const r of diff.rules) for (const n of r.new) keys.add(`${r.page}\n${r.rule}\n${n.fingerprint}`);
  return keys;
}
