/**
 * Entry of the JSON body thread (see json-body.ts): parses request bodies too large to parse on the
 * event loop without delaying other requests. The bytes arrive moved (not copied); the parsed value
 * goes back by structured clone.
 */

/** A parsed body, or why it is not JSON (the message of the SyntaxError). */
export type JsonParseResult = { ok: true; value: unknown } | { ok: false; message: string };

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
    return { ok: false, message: first === undefined ? 'Unexpected end of JSON input' : `Unexpected token '${first}': the body must be a JSON object or array` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
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
