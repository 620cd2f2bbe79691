import { DomainError } from '../common/errors/domain-error';
import { decodeCursor, encodeCursor, toPage } from './pagination';

describe('cursors', () => {
  it('round-trips the last sort key of a scope', () => {
    const c = encodeCursor('scan-1', [12, 'g2.com']);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, 'scan-1', ['number', 'string'])).toEqual([12, 'g2.com']);
    expect(decodeCursor(undefined, 'scan-1', ['number'])).toBeNull();
  });

  it('refuses garbage, wrong shapes and cursors of another scope with 400 naming cursor', () => {
    const bad = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof DomainError ? [e.code, e.details.field] : e;
      }
      return 'no error';
    };
    expect(bad(() => decodeCursor('zzz', 's', ['number']))).toEqual(['bad_request', 'cursor']);
    expect(bad(() => decodeCursor(encodeCursor('s', ['x']), 's', ['number']))).toEqual(['bad_request', 'cursor']);
    expect(bad(() => decodeCursor(encodeCursor('old', [1]), 's', ['number']))).toEqual(['bad_request', 'cursor']);
  });

  it('cuts limit + 1 rows into a page', () => {
    const rows = [1, 2, 3];
    expect(
      toPage(
        rows,
        2,
        's',
        (r) => [r],
        (r) => r * 10,
      ),
    ).toEqual({ items: [10, 20], next_cursor: encodeCursor('s', [2]) });
    expect(
      toPage(
        rows,
        3,
        's',
        (r) => [r],
        (r) => r,
      ),
    ).toEqual({ items: [1, 2, 3], next_cursor: null });
  });
});
