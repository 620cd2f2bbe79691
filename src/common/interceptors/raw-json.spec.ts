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

  it('leaves a body without RawJson to the response (null)', () => {
    expect(stringifyWithRawJson({ ok: true, a: [1] })).toBeNull();
  });
});
