import { DomainError } from '../common/errors/domain-error';

/**
 * Opaque cursors: base64url of JSON `[scanId, ...last sort key]`. The scan (or project version)
 * the cursor was made on is part of it, so a walk that straddles a new import is refused instead
 * of silently mixing two scans.
 */
export type CursorKey = Array<string | number>;

export function encodeCursor(scope: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify([scope, ...key])).toString('base64url');
}

/** Decodes a cursor made by {@link encodeCursor} for `scope` whose key has the given types. */
export function decodeCursor(
  cursor: string | undefined,
  scope: string,
  types: Array<'string' | 'number'>,
): CursorKey | null {
  if (cursor === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== types.length + 1 ||
    typeof parsed[0] !== 'string' ||
    !types.every((t, i) => typeof parsed[i + 1] === t)
  ) {
    throw DomainError.badRequest('Invalid cursor: pass next_cursor of the previous page unchanged.', 'cursor');
  }
  if (parsed[0] !== scope) {
    throw DomainError.badRequest(
      'Stale cursor: new data was imported since the first page; start again without a cursor.',
      'cursor',
    );
  }
  return parsed.slice(1) as CursorKey;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** Cuts `limit + 1` fetched rows into a page and the cursor of its last row. */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  scope: string,
  keyOf: (r: R) => CursorKey,
  map: (r: R) => T,
): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return {
    items: kept.map(map),
    next_cursor: more ? encodeCursor(scope, keyOf(kept[kept.length - 1])) : null,
  };
}
