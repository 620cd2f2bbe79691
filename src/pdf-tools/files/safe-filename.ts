/** File names as we hand them out: no paths or control characters, ending in .pdf. */
export function safeFilename(name: string): string {
  const base = name
    .replace(/[\\/]+/g, '_')
    .replace(/["\p{Cc}]/gu, '')
    .trim()
    .slice(0, 200);
  const withExt = /\.pdf$/i.test(base) ? base : `${base || 'document'}.pdf`;
  return withExt.startsWith('.') ? `document${withExt}` : withExt;
}
