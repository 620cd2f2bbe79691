/**
 * Mention classification of each tracked brand in one answer (docs/visibility-metrics.md,
 * "Mentions"): `mentioned`, `absent` (the answer says it does not know the brand, cannot find it,
 * has no information on it, or that no such product exists) or `not_named`. Every match is kept as
 * evidence: counted ones with the rule that matched, excluded ones with their reason.
 */
import { backwardCue, forwardCue, isBare, isConditional, PLACEHOLDER, untargetedCue } from './absence';
import { commonWordClass, isWeekdayOrMonth, WEEKDAY_AFTER, WEEKDAY_BEFORE, WORD_USE_AFTER } from './common-words';
import { BrandTerms, codePointOffsets, TermIndex, TermMatch } from './term-index';

export const MENTION_STATUSES = ['mentioned', 'absent', 'not_named'] as const;
export type MentionStatus = (typeof MENTION_STATUSES)[number];
/** Why a match counted: the brand's name, an alias, a domain form ("monday.com"), a common word used as a proper noun. */
export type MentionRule = 'name' | 'alias' | 'domain_form' | 'proper_noun';
/** Why a match did not count. */
export type ExclusionReason = 'absent' | 'absent_context' | 'common_word';

export interface Evidence {
  /** The configured term (name or alias) that matched. */
  term: string;
  /** The text as written in the answer. */
  matched: string;
  /** Offset in Unicode code points of the NFC answer text. */
  offset: number;
}
export interface CountedEvidence extends Evidence {
  rule: MentionRule;
}
export interface ExcludedEvidence extends Evidence {
  reason: ExclusionReason;
}

export interface BrandClassification {
  status: MentionStatus;
  /** Offset of the first counted match (null unless mentioned). */
  position: number | null;
  /** Counted matches (at most EVIDENCE_MAX; `counted` has the total). */
  evidence: CountedEvidence[];
  excluded: ExcludedEvidence[];
  counted: number;
  excluded_count: number;
}

/** Evidence items kept per brand per answer (the totals are complete). */
export const EVIDENCE_MAX = 10;

const SENTENCE_END = /[.!?](?=\s|$)|\n/gu;
const CLAUSE_BREAK = /;|(?<![\p{L}\p{N}])(?:but|however|although|though|whereas|while|yet|except)(?![\p{L}\p{N}])/giu;
const DOMAIN_AFTER = /^\.[a-z]{2,}(?![\p{L}\p{N}])/iu;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/** Sorted boundaries of sentences and of clauses, found once per answer. */
function boundaries(text: string, re: RegExp): number[] {
  const out = [0];
  for (const m of text.matchAll(re)) out.push(m.index + m[0].length);
  out.push(text.length + 1);
  return out;
}

/** [start, end) of the span of `bounds` that contains `i`. */
function spanOf(bounds: number[], i: number): [number, number] {
  let lo = 0;
  let hi = bounds.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (bounds[mid] <= i) lo = mid;
    else hi = mid;
  }
  return [bounds[lo], Math.min(bounds[hi], Number.MAX_SAFE_INTEGER)];
}

/** Up to two words before `start` in the sentence, nearest first. */
function wordsBefore(text: string, start: number, from: number): string[] {
  const s = text.slice(Math.max(from, start - 60), start);
  return [...s.matchAll(WORD)]
    .map((m) => m[0].toLowerCase())
    .slice(-2)
    .reverse();
}

function wordsAfter(text: string, end: number, n: number): string[] {
  const s = text.slice(end, end + 60);
  return [...s.matchAll(WORD)].slice(0, n).map((m) => m[0].toLowerCase());
}

/** The next non-space character after `end` starts a number ("Monday 9 am", "Friday, 12 March"). */
const numberAfter = (text: string, end: number): boolean => /^[\s,]*\d/u.test(text.slice(end, end + 8));

/** At a sentence start: nothing but spaces, bullets, numbering or markup since the last sentence end. */
function atSentenceStart(text: string, start: number, sentenceStart: number): boolean {
  return /^[\s\-*•#>_"“'‘(\d.)]*$/u.test(text.slice(sentenceStart, start));
}

/** Does a match of a common-word term count, and by which rule? null: it does not (`common_word`). */
function commonWordRule(text: string, m: TermMatch, sentenceStart: number): MentionRule | null {
  const cls = commonWordClass(m.term);
  if (!cls) return m.isName ? 'name' : 'alias';
  if (DOMAIN_AFTER.test(text.slice(m.end, m.end + 32))) return 'domain_form';
  const written = text.slice(m.start, m.end);
  if (cls === 'function') return null;
  if (written === written.toLowerCase()) return null; // "zoom in", "an apple", "monday"
  const before = wordsBefore(text, m.start, sentenceStart);
  const after = wordsAfter(text, m.end, 3);
  if (cls === 'weekday') {
    const link = (w: string | undefined) => w === 'or' || w === 'and' || w === 'to' || w === 'through' || w === 'until';
    if (before[0] !== undefined && (WEEKDAY_BEFORE.has(before[0]) || isWeekdayOrMonth(before[0]))) return null;
    if (link(before[0]) && before[1] !== undefined && isWeekdayOrMonth(before[1])) return null; // "Friday to Monday"
    if (after[0] !== undefined && (WEEKDAY_AFTER.has(after[0]) || isWeekdayOrMonth(after[0]))) return null;
    if (link(after[0]) && after[1] !== undefined && isWeekdayOrMonth(after[1])) return null; // "Monday or Tuesday"
    if (numberAfter(text, m.end)) return null;
    return 'proper_noun';
  }
  if (atSentenceStart(text, m.start, sentenceStart) && after[0] !== undefined && WORD_USE_AFTER.has(after[0]))
    return null;
  return 'proper_noun';
}

interface Resolved {
  match: TermMatch;
  offset: number;
  rule?: MentionRule;
  reason?: ExclusionReason;
}

/**
 * Classifies every tracked brand in one answer. `index` holds the terms of the brands (built once
 * per import); the result has one entry per brand, in the order of `index.brands`.
 */
export function classifyAnswer(rawText: string, index: TermIndex): BrandClassification[] {
  const text = rawText.normalize('NFC');
  const matches = index.find(text);
  const out: BrandClassification[] = index.brands.map(() => ({
    status: 'not_named',
    position: null,
    evidence: [],
    excluded: [],
    counted: 0,
    excluded_count: 0,
  }));
  if (matches.length === 0) return out;

  // Masked text: every brand match becomes placeholders of the same length; typographic apostrophes become '.
  const parts: string[] = [];
  let at = 0;
  for (const m of matches) {
    parts.push(text.slice(at, m.start), PLACEHOLDER.repeat(m.end - m.start));
    at = m.end;
  }
  parts.push(text.slice(at));
  const masked = parts.join('').replace(/[’‘]/gu, "'");

  const sentences = boundaries(text, SENTENCE_END);
  const clauseBounds = [...new Set([...sentences, ...boundaries(masked, CLAUSE_BREAK)])].sort((a, b) => a - b);
  const untargeted = new Map<number, boolean>();
  const offsets = codePointOffsets(
    text,
    matches.map((m) => m.start),
  );

  const resolved: Resolved[][] = index.brands.map(() => []);
  matches.forEach((m, i) => {
    const [sentenceStart] = spanOf(sentences, m.start);
    const [clauseStart, clauseEnd] = spanOf(clauseBounds, m.start);
    const r: Resolved = { match: m, offset: offsets[i] };
    const rule = commonWordRule(text, m, sentenceStart);
    if (rule === null) r.reason = 'common_word';
    else if (/^['’]s(?![\p{L}\p{N}])/u.test(text.slice(m.end, m.end + 3)))
      r.rule = rule; // "Acme's pricing": the brand is known
    else {
      let absent = forwardCue(masked, clauseStart, m.start) || backwardCue(masked, m.end, clauseEnd);
      if (!absent) {
        let u = untargeted.get(clauseStart);
        if (u === undefined) {
          u = untargetedCue(masked.slice(clauseStart, Math.min(clauseEnd, masked.length)));
          untargeted.set(clauseStart, u);
        }
        absent = u;
      }
      // "Acme CRM? I'm not familiar with it.": a bare question or heading answered by an untargeted cue.
      if (!absent && clauseEnd < masked.length && isBare(masked.slice(clauseStart, clauseEnd))) {
        const [ns, ne] = spanOf(clauseBounds, clauseEnd);
        absent = untargetedCue(masked.slice(ns, Math.min(ne, masked.length)));
      }
      if (absent) r.reason = 'absent';
      else r.rule = rule;
    }
    resolved[m.brand].push(r);
  });

  // A brand the answer says it does not know: a conditional or bare mention elsewhere ("If Acme is a CRM, ...", "Acme?") does not count.
  resolved.forEach((list) => {
    if (!list.some((r) => r.reason === 'absent')) return;
    for (const r of list) {
      if (!r.rule) continue;
      const [cs, ce] = spanOf(clauseBounds, r.match.start);
      const clause = masked.slice(cs, Math.min(ce, masked.length));
      if (isConditional(clause) || isBare(clause)) {
        r.rule = undefined;
        r.reason = 'absent_context';
      }
    }
  });

  resolved.forEach((list, b) => {
    const c = out[b];
    for (const r of list) {
      const ev = { term: r.match.term, matched: text.slice(r.match.start, r.match.end), offset: r.offset };
      if (r.rule) {
        c.counted++;
        if (c.position === null) c.position = r.offset;
        if (c.evidence.length < EVIDENCE_MAX) c.evidence.push({ ...ev, rule: r.rule });
      } else {
        c.excluded_count++;
        if (c.excluded.length < EVIDENCE_MAX) c.excluded.push({ ...ev, reason: r.reason! });
      }
    }
    c.status =
      c.counted > 0
        ? 'mentioned'
        : list.some((r) => r.reason === 'absent' || r.reason === 'absent_context')
          ? 'absent'
          : 'not_named';
  });
  return out;
}

export { TermIndex };
export type { BrandTerms };
