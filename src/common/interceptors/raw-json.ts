/**
 * JSON text that a body carries as it is: the envelope interceptor writes it into the response
 * in place of the value, unparsed (e.g. 500 rows PostgreSQL already wrote as the API's JSON). The
 * text must be exactly what JSON.stringify writes for the value it stands for; anything else that
 * serializes the body (JSON.stringify) gets that value back from toJSON.
 */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * `JSON.stringify(body)` when some of its own values are {@link RawJson} (written as their text,
 * the others by JSON.stringify), or null when none is (the body is serialized as usual).
 */
export function stringifyWithRawJson(body: Record<string, unknown>): string | null {
  const entries = Object.entries(body);
  if (!entries.some(([, v]) => v instanceof RawJson)) return null;
  const parts: string[] = [];
  for (const [k, v] of entries) {
    const text = v instanceof RawJson ? v.text : (JSON.stringify(v) as string | undefined);
    // JSON.stringify leaves out undefined, functions and symbols.
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
