import { JsonBytes } from '../http/json-bytes';

/**
 * JSON text that a body carries as it is: the envelope interceptor writes it into the response
 * in place of the value, unparsed (e.g. 500 rows PostgreSQL already wrote as the API's JSON), as a
 * string or as UTF-8 bytes ({@link JsonBytes}: then the response is sent as those bytes). The text
 * must be exactly what JSON.stringify writes for the value it stands for; anything else that
 * serializes the body (JSON.stringify) gets that value back from toJSON.
 */
export class RawJson {
  constructor(readonly text: string | JsonBytes) {}

  toJSON(): unknown {
    return JSON.parse(this.text.toString());
  }
}

/**
 * `JSON.stringify(body)` when some of its own values are {@link RawJson} (written as their text,
 * the others by JSON.stringify): a string, or the UTF-8 bytes when a RawJson value is bytes; null
 * when none is (the body is serialized as usual).
 */
export function stringifyWithRawJson(body: Record<string, unknown>): string | JsonBytes | null {
  const entries = Object.entries(body);
  if (!entries.some(([, v]) => v instanceof RawJson)) return null;
  const parts: Array<[string, string | JsonBytes]> = [];
  for (const [k, v] of entries) {
    const text = v instanceof RawJson ? v.text : (JSON.stringify(v) as string | undefined);
    // JSON.stringify leaves out undefined, functions and symbols.
    if (text !== undefined) parts.push([JSON.stringify(k), text]);
  }
  if (parts.every((p): p is [string, string] => typeof p[1] === 'string')) {
    return `{${parts.map(([k, t]) => `${k}:${t}`).join(',')}}`;
  }
  const out = new JsonBytes();
  for (const [i, [k, text]] of parts.entries()) {
    out.write(`${i === 0 ? '{' : ','}${k}:`);
    if (typeof text === 'string') out.write(text);
    else out.append(text);
  }
  return out.write('}');
}
