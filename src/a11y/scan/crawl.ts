/** Pages of one crawl: the start page plus up to four linked from it. */
export const MAX_CRAWL_PAGES = 5;

/** Links that are not HTML pages (skipped by the crawl). */
const NOT_A_PAGE = /\.(pdf|zip|gz|tgz|rar|7z|png|jpe?g|gif|webp|svg|ico|mp[34]|webm|mov|avi|docx?|xlsx?|pptx?|csv|xml|json|exe|dmg|iso)$/i;

/** The normalised form of an address: WHATWG-parsed, without fragment. Undefined when not http(s). */
export function normalizeUrl(raw: string, base?: string): string | undefined {
  let u: URL;
  try {
    u = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  u.hash = '';
  return u.href;
}

/**
 * The pages a crawl visits after its start page, in link order: same origin as the start page's
 * final address, normalised, deduplicated, neither the start page nor a non-HTML file, at most
 * MAX_CRAWL_PAGES - 1 of them (one that fails is reported as skipped, not replaced).
 */
export function crawlCandidates(finalStartUrl: string, seen: readonly string[], links: readonly string[]): string[] {
  const origin = new URL(finalStartUrl).origin;
  const visited = new Set(seen.map((s) => normalizeUrl(s)).filter((s): s is string => !!s));
  const out: string[] = [];
  for (const link of links) {
    const n = normalizeUrl(link, finalStartUrl);
    if (!n || visited.has(n)) continue;
    const u = new URL(n);
    if (u.origin !== origin || NOT_A_PAGE.test(u.pathname)) continue;
    visited.add(n);
    out.push(n);
    if (out.length >= MAX_CRAWL_PAGES - 1) break;
  }
  return out;
}
