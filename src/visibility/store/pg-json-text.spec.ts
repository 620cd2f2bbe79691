import { pgJsonCompact } from './pg-json-text';

/** A page of rows, as GET /answers joins them. */
const pgJsonArray = (rows: readonly string[]): string => `[${rows.map(pgJsonCompact).join(',')}]`;

/** The text PostgreSQL writes: json_build_object's `"k" : v, ` at the top, jsonb's `"k": v, ` inside. */
function pgText(value: unknown, top = true): string {
  if (Array.isArray(value)) return `[${value.map((v) => pgText(v, false)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const sep = top ? ' : ' : ': ';
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}${sep}${pgText(v, false)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

const same = (...rows: string[]) =>
  expect(pgJsonArray(rows)).toBe(JSON.stringify(rows.map((r) => JSON.parse(r) as unknown)));

describe('pgJsonCompact', () => {
  it('writes what JSON.stringify(JSON.parse(text)) writes for PostgreSQL json text', () => {
    const row = {
      index: 0,
      prompt_id: 'p "1" : x, y',
      prompt: null,
      text: 'Line 1\nLine 2\t"quoted" \\ back\\\\slash \\" é 漢字 😀 \u0001 \u001f \u007f \u2028',
      brand_mentioned: true,
      brand_position: -12,
      competitors_mentioned: ['Globex', 'Hooli, CRM'],
      mentions: [{ kind: 'brand', evidence: [{ offset: 50, term: 'a } b ] c' }], position: null }, {}],
      empty: [],
      trailing: '\\',
    };
    same(pgText(row), pgText({ ...row, index: 1 }));
    expect(pgJsonArray([pgText(row)])).toBe(JSON.stringify([row]));
    expect(pgJsonArray([])).toBe('[]');
  });

  it('keeps integers as they are and takes the slow path for numbers JSON.stringify writes otherwise', () => {
    for (const n of ['0', '-1', '123456789012345', '1.0', '1.5', '1e3', '1E3', '-0', '1234567890123456789', '0.5'])
      same(`{"n" : ${n}, "a": [${n}, ${n}]}`);
  });

  it('takes the slow path for keys that are array indexes (JavaScript orders them first)', () => {
    same('{"b" : 1, "10" : 2, "0": 3, "01": 4, "4294967295": 5, "x": ["10", "7"]}');
    expect(pgJsonArray(['{"b" : 1, "10" : 2}'])).toBe('[{"10":2,"b":1}]');
    same('{"10x" : 1, "": 2, "a": "10"}', '{"7": 1}');
  });

  it('matches for many generated values', () => {
    let seed = 7;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    const chars = ['a', ' ', '"', '\\', ':', ',', '{', '}', '\n', '\u0002', 'é', '😀', '0', '-'];
    const str = () => Array.from({ length: rnd(8) }, () => chars[rnd(chars.length)]).join('');
    const gen = (depth: number): unknown => {
      const k = rnd(depth > 2 ? 4 : 6);
      if (k === 0) return str();
      if (k === 1) return rnd(3) === 0 ? -rnd(1000) : rnd(100000);
      if (k === 2) return [true, false, null][rnd(3)];
      if (k === 3) return rnd(2) === 0 ? rnd(100) / 8 : str();
      if (k === 4) return Array.from({ length: rnd(4) }, () => gen(depth + 1));
      return Object.fromEntries(Array.from({ length: rnd(4) }, () => [str(), gen(depth + 1)]));
    };
    for (let i = 0; i < 500; i++) same(pgText({ v: gen(0), w: gen(0) }), pgText(gen(0)));
  });
});
