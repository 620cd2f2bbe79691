/**
 * Kept for the dashboard (src/web), which highlights brand terms in answer text with a RegExp.
 * Counting never uses it: mentions are classified by classify.ts over TermIndex.
 *
 * Brand mention detection in AI answers (see docs/visibility-metrics.md, "Mentions").
 *
 * A brand is found by its name and aliases, case-insensitively, on Unicode word boundaries: the
 * character before and after a match must not be a letter, digit or combining mark of any script.
 * JavaScript's `\b` is ASCII-only, so it is not used. Scripts written without spaces between words
 * (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) have no word boundaries to test: a term
 * edge in one of those scripts matches without a boundary check on that side.
 */

/** A brand to look for: its name and other spellings. Domains are never used as terms. */
export interface BrandTerms {
  name: string;
  aliases?: string[];
}

const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const BEFORE = '(?<![\\p{L}\\p{N}\\p{M}])';
const AFTER = '(?![\\p{L}\\p{N}\\p{M}])';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The distinct, trimmed, NFC-normalised terms of a brand, longest first. */
export function brandTerms(brand: BrandTerms): string[] {
  const seen = new Map<string, string>();
  for (const raw of [brand.name, ...(brand.aliases ?? [])]) {
    const term = raw.normalize('NFC').trim().replace(/\s+/gu, ' ');
    if (term && !seen.has(term.toLowerCase())) seen.set(term.toLowerCase(), term);
  }
  return [...seen.values()].sort((a, b) => b.length - a.length);
}

/** One term as a pattern: escaped, any run of whitespace for a space, boundaries where the script has them. */
function termPattern(term: string): string {
  const chars = Array.from(term);
  const body = term.split(' ').map(escapeRegExp).join('\\s+');
  const left = NO_SPACE_SCRIPT.test(chars[0]) ? '' : BEFORE;
  const right = NO_SPACE_SCRIPT.test(chars[chars.length - 1]) ? '' : AFTER;
  return `${left}${body}${right}`;
}

/** A compiled matcher for one brand (null when it has no usable term). */
export function mentionMatcher(brand: BrandTerms): RegExp | null {
  const terms = brandTerms(brand);
  if (terms.length === 0) return null;
  return new RegExp(terms.map(termPattern).join('|'), 'iu');
}

/**
 * Offset of the brand's first mention in `text`, counted in Unicode code points from 0, or null
 * when the brand is not mentioned.
 */
export function firstMention(text: string, matcher: RegExp | null): number | null {
  if (!matcher || !text) return null;
  const normalised = text.normalize('NFC');
  const m = matcher.exec(normalised);
  if (!m) return null;
  return Array.from(normalised.slice(0, m.index)).length;
}
