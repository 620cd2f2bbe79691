/**
 * Entry of the JSON body thread (see json-body.ts): parses request bodies too large to parse on the
 * event loop without delaying other requests. The bytes arrive moved (not copied); the parsed value
 * goes back by structured clone.
 */

/** A parsed body, or why it is not JSON (the message of the SyntaxError); `tooDeep` when it nests too deeply. */
export type JsonParseResult = { ok: true; value: unknown } | { ok: false; message: string; tooDeep?: true };

/**
 * Deepest nesting of arrays and objects a request body may have. Real requests nest a handful of
 * levels (an MCP call about 5); a 20,000-deep array parses, but every recursive walk after it
 * (validation, copying, logging) overflows the stack.
 */
export const JSON_MAX_DEPTH = 64;

const utf8 = new TextDecoder('utf-8'); // replaces malformed sequences like Buffer#toString; drops a BOM

/**
 * Parses a JSON request body the way body-parser's `json()` does in strict mode: UTF-8, a leading
 * BOM ignored, an empty body is `{}`, and the top-level value must be an object or an array.
 */
export function parseJsonBytes(bytes: Uint8Array): JsonParseResult {
  if (bytes.byteLength === 0) return { ok: true, value: {} };
  const text = utf8.decode(bytes);
  const first = firstNonSpace(text);
  if (first !== '{' && first !== '[') {
    return {
      ok: false,
      message:
        first === undefined
          ? 'Unexpected end of JSON input'
          : `Unexpected token '${first}': the body must be a JSON object or array`,
    };
  }
  if (nestingExceeds(text, JSON_MAX_DEPTH)) {
    return { ok: false, message: `JSON nested deeper than ${JSON_MAX_DEPTH} levels`, tooDeep: true };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/**
 * True when arrays/objects in `text` nest deeper than `max`. Strings are skipped with indexOf, so a
 * body of megabytes of base64 costs one pass over its quotes. Malformed text is left to JSON.parse.
 */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: jump to its closing quote (one not escaped by an odd number of backslashes)
      let j = i;
      for (;;) {
        j = text.indexOf('"', j + 1);
        if (j === -1) return false;
        let backslashes = 0;
        while (text.charCodeAt(j - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      i = j;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** The first character that is not JSON whitespace (space, tab, LF, CR), if any. */
function firstNonSpace(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return text[i];
  }
  return undefined;
}

export default parseJsonBytes;
