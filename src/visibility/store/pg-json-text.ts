/**
 * PostgreSQL's json text (`json_build_object(...)::text`, jsonb output) made into exactly the text
 * `JSON.stringify(JSON.parse(text))` gives, without building the objects: PostgreSQL writes
 * `"key" : value, ` where JSON.stringify writes `"key":value,`, and escapes strings the same way
 * (`\"`, `\\`, `\b \f \n \r \t`, other controls as lowercase `\u00xx`, everything else as is), so
 * dropping the whitespace between tokens is all it takes. A number whose text JSON.stringify would
 * write differently (a fraction, an exponent, a leading zero, more than 15 digits) takes the slow
 * path (parse and stringify), and so does an object key that is an array index (JavaScript puts those
 * first), so the result is the same for any JSON whose objects have unique keys (jsonb's and ours do).
 *
 * The 500-row answers page costs about one string scan per row instead of a JSON.parse and a
 * JSON.stringify of every field (docs/benchmarks.md, "Visibility").
 */
export function compactPgJson(text: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: up to the next quote that no backslash escapes; kept as it is.
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return slow(text);
      // A key that is an array index comes first in a JavaScript object, wherever it was.
      if (isDigit(text.charCodeAt(i + 1)) && isIndexKey(text, i + 1, end)) return slow(text);
      i = end + 1;
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      out += text.slice(from, i);
      i++;
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      from = i;
    } else if (c === 0x2d || isDigit(c)) {
      const start = i;
      if (c === 0x2d) i++;
      const digits = i;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      const count = i - digits;
      const next = i < n ? text.charCodeAt(i) : 0;
      // Plain integers of up to 15 digits without a leading zero are written back unchanged.
      if (count === 0 || count > 15 || next === 0x2e || next === 0x65 || next === 0x45) return slow(text);
      if (text.charCodeAt(digits) === 0x30 && (count > 1 || start !== digits)) return slow(text);
    } else {
      i++;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether the string text[from, to) is an array index and a key (a colon follows it). */
function isIndexKey(text: string, from: number, to: number): boolean {
  let k = to + 1;
  while (isSpace(text.charCodeAt(k))) k++;
  if (text.charCodeAt(k) !== 0x3a) return false;
  const s = text.slice(from, to);
  return /^(0|[1-9]\d{0,9})$/.test(s) && Number(s) < 4294967295;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Whether the quote at `at` is escaped (an odd number of backslashes before it). */
function escaped(text: string, at: number): boolean {
  let k = at - 1;
  while (text.charCodeAt(k) === 0x5c) k--;
  return (at - 1 - k) % 2 === 1;
}

function slow(text: string): string {
  return JSON.stringify(JSON.parse(text));
}
