/**
 * Brand names that are also ordinary English words (docs/visibility-metrics.md, "Common words").
 * A match of such a term counts as a mention only in its domain form (`monday.com`, `zoom.us`) or
 * when it is used as a proper noun; a weekday, a verb or a common noun is not a mention.
 */

export type WordClass = 'weekday' | 'word' | 'function';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Words that are only ever brands in their domain form ("you" of you.com). */
const FUNCTION_WORDS = ['you', 'hey', 'it', 'here', 'there', 'what', 'when', 'where', 'who', 'why', 'how', 'this', 'that', 'we', 'us', 'all', 'any', 'more', 'most', 'some', 'one', 'the', 'and', 'or', 'can', 'will', 'may', 'must', 'also'];

/** Nouns, verbs and adjectives that are well-known product names (curated; extend as customers ask). */
const WORDS = [
  'zoom', 'notion', 'apple', 'bolt', 'square', 'slack', 'linear', 'stripe', 'ramp', 'loom', 'front', 'close', 'copper',
  'box', 'asana', 'basecamp', 'gusto', 'harvest', 'buffer', 'later', 'drift', 'heap', 'segment', 'amplitude', 'signal',
  'discord', 'target', 'oracle', 'shell', 'mint', 'chase', 'visa', 'gap', 'pitch', 'craft', 'bear', 'things', 'ghost',
  'fathom', 'lattice', 'pilot', 'guru', 'glean', 'clay', 'folk', 'height', 'plain', 'render', 'railway', 'fly', 'neon',
  'sentry', 'honeycomb', 'coda', 'quip', 'superhuman', 'clockwise', 'reclaim', 'motion', 'spark', 'shortcut', 'word',
  'teams', 'outlook', 'excel', 'pages', 'numbers', 'keynote', 'access', 'perplexity', 'jasper', 'writer', 'copy',
  'canvas', 'pipe', 'tally', 'bonsai', 'wave', 'sage', 'mercury', 'relay', 'found', 'lemon', 'juniper', 'arc', 'brave',
  'opera', 'edge', 'safari', 'chrome', 'snowflake', 'compass', 'rover', 'wag', 'affirm', 'chime', 'current', 'ally',
  'discover', 'citizens', 'fidelity', 'vanguard', 'public', 'acorns', 'stash', 'wise', 'strike', 'cash', 'toast',
  'clover', 'lightspeed', 'framer', 'medium', 'kit', 'affinity', 'streak', 'nimble', 'intercom', 'crisp', 'help',
  'scout', 'missive', 'monday',
];

const CLASSES = new Map<string, WordClass>();
for (const w of WORDS) CLASSES.set(w, 'word');
for (const w of FUNCTION_WORDS) CLASSES.set(w, 'function');
for (const w of WEEKDAYS) CLASSES.set(w, 'weekday');

/** The class of a term when it is a common word, else null (multi-word and dotted terms never are). */
export function commonWordClass(term: string): WordClass | null {
  const t = term.toLowerCase();
  if (!/^\p{L}+$/u.test(t)) return null;
  return CLASSES.get(t) ?? null;
}

export const isWeekdayOrMonth = (word: string): boolean => {
  const w = word.toLowerCase();
  return WEEKDAYS.includes(w) || MONTHS.includes(w);
};

/** Words before a weekday that make it a day ("on Monday", "next Monday", "by Monday"). */
export const WEEKDAY_BEFORE = new Set([
  'on', 'by', 'next', 'last', 'this', 'every', 'each', 'until', 'till', 'from', 'since', 'before', 'after', 'through',
  'thru', 'that', 'one', 'per', 'coming', 'following', 'previous', 'starting', 'early', 'late', 'all', 'same', 'blue',
  'cyber', 'black', 'good', 'easter', 'holy', 'ash', 'super', 'manic', 'lazy', 'rainy', 'sunny',
]);
/** Words after a weekday that make it a day ("Monday morning", "Monday at 9"). */
export const WEEKDAY_AFTER = new Set([
  'morning', 'mornings', 'afternoon', 'afternoons', 'evening', 'evenings', 'night', 'nights', 'noon', 'midnight', 'at',
  'thru', 'till', 'lunch', 'meeting', 'meetings', 'standup', 'stand-up', 'blues',
  'deadline', 'launch', 'call', 'sync', 'session', 'schedule', 'off', 'night', 'eod', 'am', 'pm',
]);
/** Words after a capitalised common word at the start of a sentence that show the verb or noun ("Zoom in on", "Square the corners"). */
export const WORD_USE_AFTER = new Set([
  'in', 'out', 'into', 'the', 'a', 'an', 'your', 'my', 'our', 'their', 'his', 'her', 'its', 'this', 'that', 'these',
  'those', 'it', 'them', 'up', 'down', 'through', 'past', 'across', 'over', 'away', 'off', 'pie', 'pies', 'juice',
  'tree', 'trees', 'cider', 'feet', 'foot', 'meters', 'metres', 'miles', 'footage', 'root', 'roots', 'of', 'me', 'him',
  'something', 'everything', 'yourself', 'ourselves', 'lightning', 'cut', 'cuts', 'dance',
]);
/** Words before a lower- or upper-case common word that show a common noun ("an apple", "the notion that"). */
export const WORD_USE_BEFORE = new Set(['a', 'an', 'to', 'of', 'this', 'that', 'each', 'every', 'no', 'any', 'some']);
