/**
 * History: changes detected between a scan and the scan before it, and the week-over-week
 * comparison of the summary (formulas in docs/visibility-metrics.md, "History").
 */
import { voiceSample } from './intervals';
import { Grade, GRADES, ScanSummary } from './metrics';
import { ChangeTest, twoProportionTest } from './stats';

/** A mention rate "moved" when the change is significant (two-proportion z-test at 95 %) and at least this many points. */
export const RATE_ABSOLUTE_FLOOR = 1;
/** Lists of gained/lost sources and gaps keep this many items (the counts are complete). */
export const CHANGE_LIST_MAX = 25;

/** What the change detection needs of a scan. */
export interface ScanFacts {
  scan_id: string;
  grade: Grade | null;
  mention_rate: number | null;
  /** Successful answers mentioning the brand, and successful answers (the test's counts). */
  mentions: number;
  answers: number;
  /** Registrable domains cited. */
  sources: string[];
  /** Gap URLs. */
  gaps: string[];
}

export interface SetChange {
  gained: string[];
  lost: string[];
  gained_count: number;
  lost_count: number;
}

export interface ScanChanges {
  previous_scan_id: string;
  /** Short names of what changed: grade_up, grade_down, mention_rate_up, mention_rate_down, sources_gained, sources_lost, gaps_gained, gaps_lost. */
  detected: string[];
  grade: { from: Grade | null; to: Grade | null } | null;
  mention_rate: {
    from: number | null;
    to: number | null;
    delta: number | null;
    relative_change: number | null;
    /** Two-proportion z-test at 95 % (null when a sample is empty). */
    significant: boolean | null;
    p_value: number | null;
    moved: boolean;
  };
  sources: SetChange;
  gaps: SetChange;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
const round3 = (n: number): number => Math.round(n * 1000) / 1000;

function setChange(before: string[], after: string[]): SetChange {
  const b = new Set(before);
  const a = new Set(after);
  const gained = [...a].filter((x) => !b.has(x)).sort();
  const lost = [...b].filter((x) => !a.has(x)).sort();
  return {
    gained: gained.slice(0, CHANGE_LIST_MAX),
    lost: lost.slice(0, CHANGE_LIST_MAX),
    gained_count: gained.length,
    lost_count: lost.length,
  };
}

/** Rank of a grade (A best = 0); null grades have no rank. */
const rank = (g: Grade | null): number | null => (g === null ? null : GRADES.indexOf(g));

/** true when the rate changed significantly (95 %) and by at least RATE_ABSOLUTE_FLOOR points. */
export function rateMoved(from: number | null, to: number | null, test: ChangeTest | null): boolean {
  if (from === null || to === null || !test) return false;
  return test.significant && Math.abs(to - from) >= RATE_ABSOLUTE_FLOOR;
}

/** Changes of `current` against `previous` (null for the first scan). */
export function detectChanges(previous: ScanFacts | null, current: ScanFacts): ScanChanges | null {
  if (!previous) return null;
  const detected: string[] = [];
  let grade: ScanChanges['grade'] = null;
  if (previous.grade !== current.grade) {
    grade = { from: previous.grade, to: current.grade };
    const before = rank(previous.grade);
    const after = rank(current.grade);
    if (before !== null && after !== null) detected.push(after < before ? 'grade_up' : 'grade_down');
    else detected.push('grade_changed');
  }
  const { mention_rate: from } = previous;
  const { mention_rate: to } = current;
  const test = twoProportionTest(previous.mentions, previous.answers, current.mentions, current.answers);
  const moved = rateMoved(from, to, test);
  if (moved) detected.push(to! > from! ? 'mention_rate_up' : 'mention_rate_down');
  const sources = setChange(previous.sources, current.sources);
  const gaps = setChange(previous.gaps, current.gaps);
  if (sources.gained_count) detected.push('sources_gained');
  if (sources.lost_count) detected.push('sources_lost');
  if (gaps.gained_count) detected.push('gaps_gained');
  if (gaps.lost_count) detected.push('gaps_lost');
  return {
    previous_scan_id: previous.scan_id,
    detected,
    grade,
    mention_rate: {
      from,
      to,
      delta: from === null || to === null ? null : round1(to - from),
      relative_change: from === null || to === null || from === 0 ? null : round3((to - from) / from),
      significant: test?.significant ?? null,
      p_value: test?.p_value ?? null,
      moved,
    },
    sources,
    gaps,
  };
}

export interface Delta {
  latest: number | null;
  previous: number | null;
  delta: number | null;
  /** Two-proportion z-test at 95 % of the change (null when a sample is empty or the figure is not a rate). */
  significant: boolean | null;
  p_value: number | null;
}

/** Counts behind a rate: part of whole. */
type Counts = [part: number, whole: number] | null;

const delta = (latest: number | null, previous: number | null, now: Counts = null, before: Counts = null): Delta => {
  const test: ChangeTest | null = now && before ? twoProportionTest(before[0], before[1], now[0], now[1]) : null;
  return {
    latest,
    previous,
    delta: latest === null || previous === null ? null : round1(latest - previous),
    significant: test?.significant ?? null,
    p_value: test?.p_value ?? null,
  };
};

export interface Comparison {
  latest_scan_id: string;
  previous_scan_id: string;
  grade: { latest: Grade | null; previous: Grade | null; direction: 'up' | 'down' | 'same' | 'unknown' };
  mention_rate: Delta;
  share_of_voice: Delta;
  citation_rate: Delta;
  owned_citation_rate: Delta;
  answers: Delta;
  platforms: Array<{ platform: string } & Delta>;
  competitors: Array<{ name: string } & Delta>;
}

/** Week-over-week comparison of the latest scan against the one before (null with a single scan). */
export function compareScans(
  latest: { scan_id: string; summary: ScanSummary },
  previous: { scan_id: string; summary: ScanSummary } | null,
): Comparison | null {
  if (!previous) return null;
  const l = latest.summary;
  const p = previous.summary;
  const lr = rank(l.grade);
  const pr = rank(p.grade);
  const direction = lr === null || pr === null ? 'unknown' : lr < pr ? 'up' : lr > pr ? 'down' : 'same';
  const platformNames = [...new Set([...l.platforms.map((x) => x.platform), ...p.platforms.map((x) => x.platform)])];
  const competitorNames = [...new Set([...l.competitors.map((x) => x.name), ...p.competitors.map((x) => x.name)])];
  return {
    latest_scan_id: latest.scan_id,
    previous_scan_id: previous.scan_id,
    grade: { latest: l.grade, previous: p.grade, direction },
    mention_rate: delta(
      l.mention_rate,
      p.mention_rate,
      [l.mentions, l.answers.successful],
      [p.mentions, p.answers.successful],
    ),
    share_of_voice: delta(
      l.share_of_voice,
      p.share_of_voice,
      [l.mentions, voiceSample(l)],
      [p.mentions, voiceSample(p)],
    ),
    citation_rate: delta(
      l.funnel.citation_rate,
      p.funnel.citation_rate,
      [l.funnel.with_citations, l.funnel.answers],
      [p.funnel.with_citations, p.funnel.answers],
    ),
    owned_citation_rate: delta(
      l.funnel.owned_citation_rate,
      p.funnel.owned_citation_rate,
      [l.funnel.with_owned_citation, l.funnel.answers],
      [p.funnel.with_owned_citation, p.funnel.answers],
    ),
    answers: delta(l.answers.successful, p.answers.successful),
    platforms: platformNames.map((platform) => {
      const a = l.platforms.find((x) => x.platform === platform);
      const b = p.platforms.find((x) => x.platform === platform);
      return {
        platform,
        ...delta(
          a?.mention_rate ?? null,
          b?.mention_rate ?? null,
          a ? [a.mentions, a.answers] : null,
          b ? [b.mentions, b.answers] : null,
        ),
      };
    }),
    competitors: competitorNames.map((name) => {
      const a = l.competitors.find((x) => x.name === name);
      const b = p.competitors.find((x) => x.name === name);
      return {
        name,
        ...delta(
          a?.mention_rate ?? null,
          b?.mention_rate ?? null,
          a ? [a.mentions, a.answers] : null,
          b ? [b.mentions, b.answers] : null,
        ),
      };
    }),
  };
}
