/**
 * Response bodies that never change once built (memoized read models, keyed by a data version):
 * the one interceptor that wraps API bodies serializes such a body once and sends the same JSON
 * text on every later request, instead of stringifying the same object again.
 */
const immutable = new WeakSet<object>();
const serialized = new WeakMap<object, string>();

/** Marks `body` as never changing; it must not be mutated afterwards. Returns it. */
export function markImmutable<T extends object>(body: T): T {
  immutable.add(body);
  return body;
}

/**
 * The JSON text of `build(body)` for an immutable body, built on the first call and reused;
 * null for any other body (serialized as usual, by the response).
 */
export function serializedOnce(body: object, build: (body: object) => unknown): string | null {
  if (!immutable.has(body)) return null;
  let text = serialized.get(body);
  if (text === undefined) {
    text = JSON.stringify(build(body));
    serialized.set(body, text);
  }
  return text;
}
