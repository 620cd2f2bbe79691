/**
 * A row PostgreSQL wrote as json text (`json_build_object(...)::text`, with jsonb inside) made into
 * exactly the bytes `JSON.stringify(JSON.parse(row))` gives, without building the object. PostgreSQL writes `"key" : value, ` where JSON.stringify writes `"key":value,`, and
 * escapes strings the same way (`\"`, `\\`, `\b \f \n \r \t`, other controls as lowercase `\u00xx`,
 * everything else as it is), so dropping the whitespace between tokens is all it takes. What
 * JSON.stringify would write differently takes the slow path (parse and stringify): a number that is
 * not a plain integer of up to 15 digits (a fraction, an exponent, -0), and an object key made only of
 * digits (JavaScript puts array-index keys first). Object keys must be unique (jsonb's and
 * json_build_object's of our SQL are).
 *
 * Measured on the 500-row answers page (645 KB): about half the time of JSON.parse + JSON.stringify,
 * and no objects for the garbage collector (docs/benchmarks.md, "Visibility"). Used now for rows
 * stored without their JSON (imported before vis_answers.api_tail).
 */
export function pgJsonCompact(text: string): string {
  const out = Buffer.allocUnsafe(Buffer.byteLength(text));
  const o = writeCompact(text, out, 0);
  return o < 0 ? JSON.stringify(JSON.parse(text)) : out.toString('utf8', 0, o);
}

/** Strings at least this long are copied by Buffer.write; shorter ones byte by byte. */
const LONG_STRING = 24;

/**
 * Writes `text` without whitespace between tokens into `out` at `o`; returns the new offset, or -1
 * when JSON.stringify would write a token differently (the caller then takes the slow path).
 * The output is never longer than the UTF-8 of `text`.
 */
function writeCompact(text: string, out: Buffer, o: number): number {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = closingQuote(text, i);
      if (end < 0) return -1;
      if (isDigit(text.charCodeAt(i + 1)) && isDigitsKey(text, i + 1, end)) return -1;
      if (end - i >= LONG_STRING) {
        o += out.write(text.slice(i, end + 1), o);
        i = end + 1;
        continue;
      }
      for (; i <= end; i++) {
        const ch = text.charCodeAt(i);
        if (ch >= 0x80) {
          o += out.write(text.slice(i, end + 1), o);
          i = end + 1;
          break;
        }
        out[o++] = ch;
      }
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
    } else if (c === 0x2d || isDigit(c)) {
      const start = i;
      if (c === 0x2d) out[o++] = text.charCodeAt(i++);
      const digits = i;
      while (i < n && isDigit(text.charCodeAt(i))) out[o++] = text.charCodeAt(i++);
      const count = i - digits;
      const next = text.charCodeAt(i);
      if (count === 0 || count > 15 || next === 0x2e || next === 0x65 || next === 0x45) return -1;
      // A leading zero: "-0" (written 0) or a zero before digits (not JSON).
      if (text.charCodeAt(digits) === 0x30 && (count > 1 || start !== digits)) return -1;
    } else {
      out[o++] = c;
      i++;
    }
  }
  return o;
}

/** The index of the quote closing the string that opens at `open` (the first quote no backslash escapes), or -1. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end > 0 && text.charCodeAt(end - 1) === 0x5c) {
    let k = end - 1;
    while (text.charCodeAt(k) === 0x5c) k--;
    if ((end - 1 - k) % 2 === 0) break; // an even number of backslashes: they escape each other
    end = text.indexOf('"', end + 1);
  }
  return end;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether text[from, to) is only digits and a key (a colon follows its closing quote). */
function isDigitsKey(text: string, from: number, to: number): boolean {
  let k = to + 1;
  while (text.charCodeAt(k) === 0x20) k++;
  if (text.charCodeAt(k) !== 0x3a) return false;
  for (let j = from; j < to; j++) if (!isDigit(text.charCodeAt(j))) return false;
  return true;
}
