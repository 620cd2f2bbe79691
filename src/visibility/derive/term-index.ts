/**
 * Finding the terms of every tracked brand in an answer in one pass (docs/visibility-metrics.md,
 * "Mentions"). The terms of all brands go into one trie of case-folded code points; the text is
 * scanned once, a walk starting only where a word may start (after a character that is not a
 * letter, digit or combining mark, or anywhere in scripts written without spaces). A walk is at
 * most as long as the longest term (names and aliases are at most 200 characters), so the work is
 * linear in the text whatever the number of aliases, and no term is ever compiled into a regular
 * expression (aliases such as `(.*)+` or `a|b` are plain text).
 *
 * Matches are leftmost-longest across brands and never overlap: when "Notion" and "Notion
 * Calendar" are two tracked brands, "Notion Calendar" is one match of the second.
 */

/** A brand to look for: its name and other spellings. Domains are never used as terms. */
export interface BrandTerms {
  name: string;
  aliases?: string[];
}

export interface TermMatch {
  /** Index of the brand in the list given to {@link TermIndex}. */
  brand: number;
  /** The term as configured (name or alias). */
  term: string;
  /** true when the term is the brand's name, false for an alias. */
  isName: boolean;
  /** Start and end in UTF-16 units of the NFC text. */
  start: number;
  end: number;
}

const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const SPACE = /\s/u;

interface Node {
  next: Map<string, Node>;
  /** Term ending here: brand index, the configured term, whether it is the name, and if its last char needs a boundary after it. */
  ends?: {
    brand: number;
    term: string;
    isName: boolean;
    boundaryAfter: boolean;
    caseSensitive: boolean;
    exact: string;
  };
}

/** Lower-case form of one code point used for comparing (simple case folding). */
const fold = (ch: string): string => ch.toLowerCase();

/** The distinct, trimmed, NFC-normalised terms of a brand, longest first (name first among equals). */
export function brandTerms(brand: BrandTerms): string[] {
  const seen = new Map<string, string>();
  for (const raw of [brand.name, ...(brand.aliases ?? [])]) {
    const term = raw.normalize('NFC').trim().replace(/\s+/gu, ' ');
    if (term && !seen.has(term.toLowerCase())) seen.set(term.toLowerCase(), term);
  }
  return [...seen.values()].sort((a, b) => b.length - a.length);
}

/** Every term of every brand in one trie. Build once per import; {@link find} once per answer. */
export class TermIndex {
  private readonly root: Node = { next: new Map() };
  /** Length in code points of the longest term: the bound of one walk. */
  readonly maxTermLength: number = 0;
  /** Characters visited by the last {@link find} (walk steps): at most text length x (maxTermLength + 1). */
  steps = 0;

  constructor(readonly brands: ReadonlyArray<BrandTerms>) {
    brands.forEach((b, i) => {
      const name = b.name.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
      for (const term of brandTerms(b)) {
        this.add(i, term, term.toLowerCase() === name);
        (this as { maxTermLength: number }).maxTermLength = Math.max(this.maxTermLength, Array.from(term).length);
      }
    });
  }

  private add(brand: number, term: string, isName: boolean): void {
    const chars = Array.from(term);
    // One-character terms ("X") match only in the case written: "x" in "2 x 3" is not a brand.
    const caseSensitive = chars.length === 1;
    let node = this.root;
    for (const ch of chars) {
      const key = ch === ' ' ? ' ' : fold(ch);
      let child = node.next.get(key);
      if (!child) {
        child = { next: new Map() };
        node.next.set(key, child);
      }
      node = child;
    }
    // The first brand to claim a term keeps it (the import refuses duplicate names, not aliases).
    if (!node.ends) {
      const last = chars[chars.length - 1];
      node.ends = {
        brand,
        term,
        isName,
        boundaryAfter: !NO_SPACE_SCRIPT.test(last) && WORD_CHAR.test(last),
        caseSensitive,
        exact: term,
      };
    }
  }

  /** Leftmost-longest, non-overlapping matches of all brands in `text` (already NFC). */
  find(text: string): TermMatch[] {
    const out: TermMatch[] = [];
    this.steps = 0;
    let i = 0;
    let prev = ''; // the code point before i
    while (i < text.length) {
      this.steps++;
      const cp = text.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      const canStart = prev === '' || !WORD_CHAR.test(prev) || NO_SPACE_SCRIPT.test(ch) || !WORD_CHAR.test(ch);
      const m = canStart ? this.walk(text, i, prev) : null;
      if (m) {
        out.push(m);
        prev = codePointBefore(text, m.end);
        i = m.end;
        continue;
      }
      prev = ch;
      i += ch.length;
    }
    return out;
  }

  /** The longest term starting at `start`, respecting boundaries, or null. */
  private walk(text: string, start: number, prev: string): TermMatch | null {
    let node: Node | undefined = this.root;
    let i = start;
    let best: TermMatch | null = null;
    let first = true;
    while (node && i < text.length) {
      this.steps++;
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      let nextNode: Node | undefined;
      let nextI = i + ch.length;
      if (SPACE.test(ch)) {
        nextNode = node.next.get(' ');
        while (nextNode && nextI < text.length && SPACE.test(text[nextI])) nextI++;
      } else {
        nextNode = node.next.get(fold(ch));
      }
      if (!nextNode) break;
      // A term starting with a letter/digit needs a boundary before it (checked once).
      if (first && WORD_CHAR.test(ch) && prev !== '' && WORD_CHAR.test(prev) && !NO_SPACE_SCRIPT.test(ch)) return null;
      first = false;
      node = nextNode;
      i = nextI;
      const e = node.ends;
      if (e) {
        const after = i < text.length ? String.fromCodePoint(text.codePointAt(i)!) : '';
        const boundaryOk = !e.boundaryAfter || after === '' || !WORD_CHAR.test(after);
        const caseOk = !e.caseSensitive || text.slice(start, i) === e.exact;
        if (boundaryOk && caseOk) best = { brand: e.brand, term: e.term, isName: e.isName, start, end: i };
      }
    }
    return best;
  }
}

/** The code point that ends just before `index` ('' at 0). */
export function codePointBefore(text: string, index: number): string {
  if (index <= 0) return '';
  const c = text.charCodeAt(index - 1);
  const at = c >= 0xdc00 && c <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return String.fromCodePoint(text.codePointAt(at)!);
}

/**
 * Converts ascending UTF-16 indices into code-point offsets in one pass over the text (the API
 * reports offsets in code points).
 */
export function codePointOffsets(text: string, indices: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let n = 0;
  for (const target of indices) {
    for (; i < target; i++) {
      const c = text.charCodeAt(i);
      if (c < 0xdc00 || c > 0xdfff) n++;
    }
    out.push(n);
  }
  return out;
}
