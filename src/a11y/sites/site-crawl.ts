import type { EgressGuard } from '../../common/egress/egress-guard';
import { isPageLink, normalizeUrl } from '../scan/crawl';
import { guardedGet } from './guarded-get';

/** Bytes of one page read for its links (the rest of a longer page is not read). */
export const CRAWL_PAGE_MAX_BYTES = 2 * 1024 * 1024;
export const CRAWL_PAGE_TIMEOUT_MS = 10_000;
/** Pages read for links per page kept: a site whose pages are mostly excluded stops here. */
export const CRAWL_FETCHES_PER_PAGE = 4;

const ANCHOR = /<(a|area|base)\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi;
const ENTITY: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
const decode = (s: string): string =>
  s.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|quot|apos|lt|gt));/gi, (_m, dec?: string, hex?: string, name?: string) =>
    dec
      ? String.fromCodePoint(Number(dec))
      : hex
        ? String.fromCodePoint(parseInt(hex, 16))
        : ENTITY[name!.toLowerCase()],
  );

/**
 * The links of a page's HTML as the server sent it (`<a>`, `<area>`; a `<base href>` applies),
 * resolved against `pageUrl`. Links that scripts add later are not seen.
 */
export function linksOf(html: string, pageUrl: string): string[] {
  let base = pageUrl;
  const out: string[] = [];
  for (const m of html.matchAll(ANCHOR)) {
    const href = decode((m[2] ?? m[3] ?? m[4] ?? '').trim());
    if (m[1].toLowerCase() === 'base') {
      base = normalizeUrl(href, pageUrl) ?? base;
      continue;
    }
    const n = normalizeUrl(href, base);
    if (n) out.push(n);
  }
  return out;
}

export interface CrawlOptions {
  /** Pages to keep (the start page counts; those `mayFetch` refuses do not). */
  max: number;
  /** False: the page is listed but not read (robots.txt). */
  mayFetch: (url: string) => boolean;
  /** False: the page is read for its links but not listed (include/exclude patterns). */
  keep: (url: string) => boolean;
  /** Wait before each read after the first (robots.txt Crawl-delay). */
  gapMs?: number;
}

/**
 * A same-origin crawl for a site without a sitemap: breadth-first from `start`, following links
 * (and same-origin redirects) in the HTML of each page, at most `max` pages kept and
 * `max * CRAWL_FETCHES_PER_PAGE` read. Every read goes through the egress guard. Returns the pages
 * in the order found (those `mayFetch` refuses included, so the caller can say why they were
 * skipped) and the problems met.
 */
export async function crawlSite(
  guard: EgressGuard,
  start: URL,
  o: CrawlOptions,
): Promise<{ urls: string[]; problems: string[] }> {
  const origin = start.origin;
  const seen = new Set<string>([start.href]);
  const todo = [start.href];
  const urls: string[] = [];
  const problems: string[] = [];
  let reads = 0;
  let kept = 0;
  const maxReads = o.max * CRAWL_FETCHES_PER_PAGE;
  const found = (raw: string, from: string) => {
    const n = normalizeUrl(raw, from);
    if (!n || seen.has(n) || new URL(n).origin !== origin || !isPageLink(n)) return;
    seen.add(n);
    todo.push(n);
  };
  while (todo.length && kept < o.max) {
    const url = todo.shift()!;
    if (!o.mayFetch(url)) {
      urls.push(url);
      continue;
    }
    if (reads >= maxReads) {
      problems.push(`The crawl read ${maxReads} pages and stopped there.`);
      break;
    }
    if (reads++ > 0 && o.gapMs) await new Promise((r) => setTimeout(r, o.gapMs));
    const got = await guardedGet(guard, new URL(url), {
      maxBytes: CRAWL_PAGE_MAX_BYTES,
      timeoutMs: CRAWL_PAGE_TIMEOUT_MS,
    });
    if (!got.ok && got.status && got.status >= 300 && got.status <= 399 && got.headers?.location) {
      found(String(got.headers.location), url); // followed as a link: same origin only
      continue;
    }
    if (o.keep(url)) {
      urls.push(url); // a page that failed is kept: its scan reports why
      kept++;
    }
    if (got.ok && /html/i.test(got.contentType))
      for (const link of linksOf(got.body.toString('utf8'), url)) found(link, url);
  }
  return { urls, problems };
}
