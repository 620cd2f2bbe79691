const size = (s: string): number => Buffer.byteLength(s, 'utf8');

/** `s` cut to at most `max` UTF-8 bytes, at a character boundary, ending with "…" when cut. */
export function clip(s: string, max: number): string {
  if (size(s) <= max) return s;
  const chars = [...s];
  let out = '';
  let used = size('…');
  for (const c of chars) {
    const n = size(c);
    if (used + n > max) break;
    out += c;
    used += n;
  }
  return `${out}…`;
}
