/**
 * Absence statements: an answer saying it does not know a brand, cannot find it, has no
 * information on it, or that no such product exists (docs/visibility-metrics.md, "Absence").
 * English only. The phrasing is recognised as families (a negated knowing/finding verb, a lack of
 * information, a denial of existence), each a short regular expression without nested
 * quantifiers, applied to bounded windows around a match: the work stays linear in the text.
 *
 * Texts given here are "masked": every brand match is replaced by U+0001 characters of the same
 * length, so other brands in a list ("I don't know Acme, Globex or Initech") read as one token.
 */

export const PLACEHOLDER = '\u0001';

/** How far before or after a match a cue is looked for (UTF-16 units). */
const WINDOW = 240;

const ADJ =
  '(?:specific|reliable|detailed|current|up-to-date|recent|public|publicly|available|verified|concrete|further|more|additional|credible|relevant|trustworthy|useful|solid|official|much|enough|real|meaningful|substantial|accurate|definitive|clear|significant|widely|documented|substantive)';
const INFO =
  '(?:information|info|data|details|detail|record|records|mention|mentions|results|result|evidence|documentation|reviews|sources|references|knowledge|coverage|experience|anything|facts|material|listing|listings|trace|traces|footprint|presence|entry|entries)';
const OBJECT = `(?: (?:any|much|enough|the|a|an))?(?: ${ADJ})*(?: ${INFO})?(?: (?:available|online|published|publicly))?`;

/** Cues that come before the brand ("I'm not familiar with" Acme); matched at the end of the text before it. */
const FORWARD_CUES = [
  `(?:not|n't|never|no longer) (?:really |quite |entirely |particularly |very |too |all that |personally )?(?:familiar|acquainted) with`,
  `unfamiliar with`,
  `(?:not|n't|never) (?:really |personally )?(?:aware of|heard(?: anything)? (?:of|about)|come across|encountered|seen|know(?: of| about| anything about| much about| who| what)?|knew(?: of| about)?|recogni[sz]e)`,
  `(?:not|n't|unable to|not able to|failed to|impossible to) (?:find|locate|identify|verify|confirm|retrieve|access|see|turn up)${OBJECT}`,
  `(?:no|not have|n't have|not got|n't got|lack|lacking|lacks|without|limited|little|scarce|sparse|insufficient|not much|not enough|not any|nor any|few|zero)${OBJECT.replace(
    `(?: ${INFO})?`,
    ` ${INFO}`,
  )}`,
  `(?:found|find|know|have|turned up|returned|shows?|show|yielded) nothing`,
  `(?:there(?: is|'s| are| was| were| seems to be| appears to be)|is|are) no(?: such)?`,
  `no such`,
  `there (?:doesn't|does not|don't|do not|didn't|did not) (?:seem|appear) to (?:be|exist)`,
  `(?:my )?(?:knowledge|training data|training|sources|data)(?: base)? (?:doesn't|does not|don't|do not) (?:include|cover|contain|mention)`,
  `(?:search|searches|results|search results) (?:didn't|did not|don't|do not|doesn't|does not) (?:return|show|turn up|reveal|yield|include)${OBJECT}`,
];

/** Cues that come after the brand (Acme "does not exist"); matched at the start of the text after it. */
const BACKWARD_CUES = [
  `(?:does not|doesn't|do not|don't|did not|didn't) (?:appear to |seem to )?(?:exist|ring a bell)`,
  `(?:is|are|was|were|remains|remain) (?:unknown|not known|unfamiliar|new|not familiar) to me`,
  `(?:is not|isn't|are not|aren't|was not|wasn't|does not appear to be|doesn't appear to be|does not seem to be|doesn't seem to be) (?:a |an )?(?:real|known|recogni[sz]ed|recogni[sz]able|existing|actual) (?:product|company|brand|tool|service|software|platform|app|business|entity|name|vendor|solution|startup|organi[sz]ation|thing)`,
  `(?:is not|isn't|are not|aren't) (?:something|anything|a (?:name|product|company|brand|tool|term|service)) (?:that )?I(?:'m| am|'ve| have)? (?:know|recogni[sz]e|familiar with|aware of|have (?:any )?(?:information|info|data|details) (?:on|about)|heard of|can find|could find)`,
  `(?:does not|doesn't|did not|didn't|do not|don't) (?:appear|show up|come up|feature) in (?:my|the|any) (?:training data|knowledge|sources|records|search results|results|data|databases?|information|knowledge base)`,
  `(?:is not|isn't|are not|aren't|was not|wasn't) (?:in|part of|covered by|included in) my (?:training data|knowledge|knowledge base|data|information)`,
  `(?:could not|couldn't|can't|cannot|can not) be (?:found|located|verified|identified)`,
  `(?:returned|returns|return|turned up|turn up|yielded|yield|showed|shows|show) (?:nothing|no (?:results|information|matches|data|hits))`,
];

/** "n't" cues are written once and match any contraction (don't, can't, couldn't, haven't). */
const CUES = FORWARD_CUES.map((c) => c.replace(/(?<=[(|])n't/g, "\\p{L}+n't")).join('|');
const FORWARD = new RegExp(`(?<![\\p{L}\\p{N}])(?:${CUES})$`, 'iu');
const BACKWARD = new RegExp(`^(?:${BACKWARD_CUES.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
/** Every forward cue anywhere in a clause (for cues whose target is a pronoun or nothing). */
const FORWARD_ANY = new RegExp(`(?<![\\p{L}\\p{N}])(?:${CUES})(?![\\p{L}\\p{N}])`, 'giu');

/** Conjunctions and quote marks, allowed by both fillers below. */
const CONNECTIVES = ['and', 'or', 'nor', '&', '"', '“', '”', "'", '‘', '’', '*', '«', '»', '`'];

/** Words allowed between a cue and its brand ("I'm not aware of any product called" Acme). */
const FILLER = new Set([
  'the',
  'a',
  'an',
  'any',
  'some',
  'such',
  'specific',
  'particular',
  'specifically',
  'exactly',
  'precisely',
  'company',
  'companies',
  'product',
  'products',
  'tool',
  'tools',
  'brand',
  'brands',
  'service',
  'services',
  'software',
  'platform',
  'platforms',
  'app',
  'apps',
  'application',
  'business',
  'startup',
  'vendor',
  'vendors',
  'solution',
  'provider',
  'organization',
  'organisation',
  'firm',
  'website',
  'site',
  'entity',
  'called',
  'named',
  'known',
  'as',
  'by',
  'name',
  'of',
  'about',
  'on',
  'regarding',
  'concerning',
  'for',
  'with',
  'around',
  'related',
  'relating',
  'to',
  'the',
  'term',
  'thing',
  'anything',
  'something',
  'much',
  'what',
  'who',
  'whatever',
  'crm',
  ...CONNECTIVES,
  '(',
  ')',
  'either',
]);
/** Words allowed between brands and a cue after them ("Acme and Globex" do not exist). */
const NARROW_FILLER = new Set([...CONNECTIVES, 'itself', 'both', 'either']);
const PRONOUNS = new Set([
  'it',
  'this',
  'that',
  'them',
  'they',
  'one',
  'these',
  'those',
  'him',
  'her',
  'anything',
  'such',
  'there',
]);

// eslint-disable-next-line no-control-regex -- U+0001 is the placeholder of a brand match
const TOKEN = /[\p{L}\p{N}'’-]+|\u0001+|\S/gu;

interface Token {
  text: string;
  start: number;
  end: number;
}

function tokens(s: string): Token[] {
  const out: Token[] = [];
  for (const m of s.matchAll(TOKEN)) out.push({ text: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  return out;
}

const isPlaceholder = (t: Token | undefined): boolean => t !== undefined && t.text.startsWith(PLACEHOLDER);

/** Does a cue before `start` (in the same clause) name the brand matched at `start`? */
export function forwardCue(masked: string, clauseStart: number, start: number): boolean {
  const from = Math.max(clauseStart, start - WINDOW);
  const window = masked.slice(from, start);
  const toks = tokens(window);
  // Pop fillers from the end; after each step the rest may end with a cue ("not familiar with").
  for (let k = toks.length - 1; k >= 0; k--) {
    const t = toks[k];
    // Cues end with a word: a placeholder or a punctuation mark never ends one.
    if (/^[\p{L}\p{N}]/u.test(t.text) && FORWARD.test(window.slice(0, t.end))) return true;
    if (isPlaceholder(t) || FILLER.has(t.text)) continue;
    if (t.text === ',' && isPlaceholder(toks[k - 1])) continue;
    return false;
  }
  return false;
}

/** Does a cue after `end` (in the same clause) say the brand matched before `end` does not exist? */
export function backwardCue(masked: string, end: number, clauseEnd: number): boolean {
  const window = masked.slice(end, Math.min(clauseEnd, end + WINDOW));
  const toks = tokens(window);
  let k = 0;
  while (
    k < toks.length &&
    (isPlaceholder(toks[k]) || NARROW_FILLER.has(toks[k].text) || (toks[k].text === ',' && isPlaceholder(toks[k + 1])))
  )
    k++;
  if (k >= toks.length) return false;
  return BACKWARD.test(window.slice(toks[k].start));
}

/**
 * Does the clause carry a cue with no named target ("Regarding Acme, I couldn't find any
 * information." / "Acme: I'm not familiar with it.")? Then the brands in the clause are absent.
 */
export function untargetedCue(maskedClause: string): boolean {
  for (const m of maskedClause.matchAll(FORWARD_ANY)) {
    const after = tokens(maskedClause.slice(m.index + m[0].length, m.index + m[0].length + WINDOW));
    let k = 0;
    while (k < after.length && FILLER.has(after[k].text) && !PRONOUNS.has(after[k].text)) k++;
    const next = after[k];
    if (!next) return true;
    if (isPlaceholder(next)) continue;
    if (/^[.!?,;:)—–-]$/u.test(next.text)) return true;
    if (PRONOUNS.has(next.text)) {
      const then = after[k + 1];
      if (
        !then ||
        !/^[\p{L}\p{N}]/u.test(then.text) ||
        ['in', 'at', 'online', 'anywhere', 'either'].includes(then.text)
      )
        return true;
    }
  }
  return false;
}

/** Words that open a conditional clause ("If Acme is a CRM, ..."). */
const CONDITIONAL = /^(?:\W*)(?:if|assuming|in case|unless|whether|should|supposing|provided)(?![\p{L}\p{N}])/iu;

export function isConditional(maskedClause: string): boolean {
  return CONDITIONAL.test(maskedClause);
}

/** A clause that is only brand names and filler ("Acme CRM?", "About Acme:"): says nothing about the brand. */
export function isBare(maskedClause: string): boolean {
  return tokens(maskedClause).every((t) => isPlaceholder(t) || FILLER.has(t.text) || !/^[\p{L}\p{N}]/u.test(t.text));
}
