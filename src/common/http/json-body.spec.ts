import { JSON_OFF_THREAD_MIN_BYTES, JsonBodyParser } from './json-body';
import { JSON_MAX_DEPTH, nestingExceeds, parseJsonBytes } from './json-body.worker';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('parseJsonBytes (body-parser json() strict semantics)', () => {
  it('parses objects and arrays, UTF-8, with or without a BOM and surrounding whitespace', () => {
    expect(parseJsonBytes(bytes(' \n{"a":[1,"ž€😀"]}\t'))).toEqual({ ok: true, value: { a: [1, 'ž€😀'] } });
    expect(parseJsonBytes(bytes('\uFEFF[true]'))).toEqual({ ok: true, value: [true] });
  });

  it('an empty body is {}, as body-parser does', () => {
    expect(parseJsonBytes(new Uint8Array(0))).toEqual({ ok: true, value: {} });
  });

  it('refuses top-level scalars, whitespace-only bodies and invalid JSON with a message', () => {
    expect(parseJsonBytes(bytes('"text"'))).toEqual({
      ok: false,
      message: expect.stringContaining(`Unexpected token '"'`),
    });
    expect(parseJsonBytes(bytes('42'))).toMatchObject({ ok: false });
    expect(parseJsonBytes(bytes('  \n'))).toEqual({ ok: false, message: 'Unexpected end of JSON input' });
    expect(parseJsonBytes(bytes('{"a":'))).toMatchObject({ ok: false, message: expect.any(String) });
  });

  it('keeps "__proto__" as a plain key, as JSON.parse does (no prototype change)', () => {
    const r = parseJsonBytes(bytes('{"__proto__":{"polluted":true}}'));
    expect(r.ok && Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('nesting depth', () => {
  it('refuses bodies nested deeper than JSON_MAX_DEPTH, however long', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(parseJsonBytes(bytes(deep(JSON_MAX_DEPTH)))).toMatchObject({ ok: true });
    expect(parseJsonBytes(bytes(deep(JSON_MAX_DEPTH + 1)))).toEqual({
      ok: false,
      tooDeep: true,
      message: `JSON nested deeper than ${JSON_MAX_DEPTH} levels`,
    });
    expect(parseJsonBytes(bytes(deep(20000)))).toMatchObject({ ok: false, tooDeep: true });
    expect(parseJsonBytes(bytes(`{"a":${'{"b":'.repeat(100)}1${'}'.repeat(101)}`))).toMatchObject({ tooDeep: true });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const inString = JSON.stringify({ text: `${'['.repeat(500)}\\"{{{"\\`, more: ['"[[[', '\\'] });
    expect(nestingExceeds(inString, 2)).toBe(false);
    expect(parseJsonBytes(bytes(inString))).toMatchObject({ ok: true });
    expect(nestingExceeds(String.raw`[[["a\\"],[["b"]]]]`, 3)).toBe(true);
  });
});

describe('JsonBodyParser', () => {
  const parser = new JsonBodyParser();
  afterAll(() => parser.onApplicationShutdown());

  it('parses small bodies on the event loop and large ones in its thread, with the same results', async () => {
    const small = await parser.parse(bytes('{"x":1}'));
    expect(small).toEqual({ ok: true, value: { x: 1 } });
    expect(parser.stats.completed).toBe(0);

    const value = { text: 'ž'.repeat(JSON_OFF_THREAD_MIN_BYTES), list: [1, null, { deep: 'ok' }] };
    const large = Buffer.from(`{"__proto__":{"kept":true},${JSON.stringify(value).slice(1)}`);
    const expected = parseJsonBytes(large);
    const fromThread = await parser.parse(large);
    expect(fromThread).toEqual(expected);
    expect(fromThread.ok && Object.getOwnPropertyDescriptor(fromThread.value, '__proto__')?.value).toEqual({
      kept: true,
    });
    expect(fromThread.ok && (fromThread.value as { kept?: boolean }).kept).toBeUndefined(); // not a prototype
    expect(parser.stats.completed).toBe(1);
    expect(large.byteLength).toBe(0); // the bytes moved to the thread instead of being copied

    const broken = Buffer.from(`{"text":"${'a'.repeat(JSON_OFF_THREAD_MIN_BYTES)}`);
    const message = (parseJsonBytes(Buffer.from(broken)) as { message: string }).message;
    expect(await parser.parse(broken)).toEqual({ ok: false, message });
    expect(parser.stats.completed).toBe(2);
  });
});
