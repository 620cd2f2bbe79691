import { markImmutable, serializedOnce } from './immutable-body';

describe('serializedOnce', () => {
  it('serializes an immutable body once and reuses the text', () => {
    const body = markImmutable({ a: 1 });
    const build = jest.fn((b: object) => ({ ok: true, ...b }));
    expect(serializedOnce(body, build)).toBe('{"ok":true,"a":1}');
    expect(serializedOnce(body, build)).toBe('{"ok":true,"a":1}');
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('leaves any other body to the response (null)', () => {
    const build = jest.fn((b: object) => b);
    expect(serializedOnce({ a: 1 }, build)).toBeNull();
    expect(build).not.toHaveBeenCalled();
  });
});
