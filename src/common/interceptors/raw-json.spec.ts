import { JsonBytes } from '../http/json-bytes';
import { RawJson, stringifyWithRawJson } from './raw-json';

describe('stringifyWithRawJson', () => {
  it('writes RawJson values as their text and the rest as JSON.stringify does', () => {
    const rows = [
      { a: 1, b: 'x"y' },
      { a: 2, b: null },
    ];
    const body = {
      ok: true,
      scan: { id: 's', date: '2026-01-01' },
      none: undefined,
      rows: new RawJson(JSON.stringify(rows)),
      next: null,
    };
    const text = stringifyWithRawJson(body);
    expect(text).toBe(JSON.stringify({ ...body, rows }));
    expect(text).toBe(JSON.stringify(body));
  });

  it('writes the same text as UTF-8 bytes when a RawJson value is bytes', () => {
    const rows = [{ a: 1, b: 'é 😀 "q"' }, { a: 2 }];
    const body = {
      ok: true,
      scan: { id: 's', date: '2026-01-01' },
      none: undefined,
      rows: new RawJson(new JsonBytes().write(JSON.stringify(rows))),
      next: 'c',
    };
    const out = stringifyWithRawJson(body);
    expect(out).toBeInstanceOf(JsonBytes);
    const bytes = Buffer.concat((out as JsonBytes).chunks());
    expect(bytes.equals(Buffer.from(JSON.stringify({ ...body, rows })))).toBe(true);
    expect((out as JsonBytes).length).toBe(bytes.length);
    expect(JSON.stringify(body)).toBe(JSON.stringify({ ...body, rows }));
  });

  it('leaves a body without RawJson to the response (null)', () => {
    expect(stringifyWithRawJson({ ok: true, a: [1] })).toBeNull();
  });
});
