import { createHash } from 'node:crypto';
import type { EgressGuard } from '../../common/egress/egress-guard';
import { isPageLink, normalizeUrl } from '../scan/crawl';
import { guardedGet } from './guarded-get';

/** Bytes of one page read for its links (the rest of a longer page is not read). */
export const CRAWL_PAGE_MAX_BYTES = 2 * 1024 * 1024;
export const CRAWL_PAGE_TIMEOUT_MS = 10_000;
/** Pages read for links per page kept: a site whose pages are mostly excluded stops here. */
export const CRAWL_FETCHES_PER_PAGE = 4;

const ANCHOR = /<(a|area|base)\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi;
const LINK_TAG = /<link\b[^>]*>/gi;
const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>"']+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
};
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

/**
 * The page's `<link rel="canonical" href>` as the server sent it, resolved against `pageUrl`
 * (undefined when it has none or it is not an address).
 */
export function canonicalOf(html: string, pageUrl: string): string | undefined {
  for (const m of html.matchAll(LINK_TAG)) {
    const rel = attr(m[0], 'rel');
    const href = attr(m[0], 'href');
    if (rel && href && rel.toLowerCase().split(/\s+/).includes('canonical'))
      return normalizeUrl(decode(href.trim()), pageUrl) ?? undefined;
  }
  return undefined;
}

/** A page left out as the same page as another, and why (listed under "Not scanned"). */
export interface Duplicate {
  url: string;
  reason: string;
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
 * A same-origin crawl from the start URL: breadth-first, following links (and same-origin
 * redirects) in the HTML of each page, at most `max` pages kept and `max * CRAWL_FETCHES_PER_PAGE`
 * read. Every read goes through the egress guard. The same page reached by two addresses is kept
 * once: a redirect is followed as a link; a page whose `rel=canonical` names another same-origin
 * address is left out for that address (read in its place, unless that address was itself left
 * out as a duplicate: a canonical loop keeps the second page); a page whose HTML is byte for byte
 * that of a page read before (`/` and `/index.html`) is left out for the first. Returns the pages
 * in the order found (those `mayFetch` refuses included, so the caller can say why they were
 * skipped), the duplicates left out, and the problems met.
 */
export async function crawlSite(
  guard: EgressGuard,
  start: URL,
  o: CrawlOptions,
): Promise<{ urls: string[]; duplicates: Duplicate[]; problems: string[] }> {
  const origin = start.origin;
  const seen = new Set<string>([start.href]);
  const todo = [start.href];
  const urls: string[] = [];
  const problems: string[] = [];
  const duplicates = new Map<string, string>();
  const byContent = new Map<string, string>();
  let reads = 0;
  let kept = 0;
  const maxReads = o.max * CRAWL_FETCHES_PER_PAGE;
  const onSite = (n: string | undefined): n is string => !!n && new URL(n).origin === origin && isPageLink(n);
  const found = (raw: string, from: string) => {
    const n = normalizeUrl(raw, from);
    if (!onSite(n) || seen.has(n)) return;
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
    const html = got.ok && /html/i.test(got.contentType) ? got.body.toString('utf8') : undefined;
    if (html !== undefined) {
      for (const link of linksOf(html, url)) found(link, url);
      const canonical = canonicalOf(html, url);
      if (onSite(canonical) && canonical !== url && !duplicates.has(canonical)) {
        duplicates.set(url, `its canonical address is ${canonical}`);
        found(canonical, url);
        continue;
      }
      const hash = createHash('sha256').update(html).digest('hex');
      const first = byContent.get(hash);
      if (first) {
        duplicates.set(url, `the same page as ${first} (identical content)`);
        continue;
      }
      byContent.set(hash, url);
    }
    if (o.keep(url)) {
      urls.push(url); // a page that failed is kept: its scan reports why
      kept++;
    }
  }
  return { urls, duplicates: [...duplicates].map(([url, reason]) => ({ url, reason })), problems };
}
