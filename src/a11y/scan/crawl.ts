import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { ReportPage } from '../report/report.types';

/** Pages of one crawl: the start page plus up to four linked from it. */
export const MAX_CRAWL_PAGES = 5;

/** Links that are not HTML pages (skipped by the crawl). */
const NOT_A_PAGE =
  /\.(pdf|zip|gz|tgz|rar|7z|png|jpe?g|gif|webp|svg|ico|mp[34]|webm|mov|avi|docx?|xlsx?|pptx?|csv|xml|json|exe|dmg|iso)$/i;

/** False when the address's path names a file that is not an HTML page (by its extension). */
export const isPageLink = (url: string): boolean => !NOT_A_PAGE.test(new URL(url).pathname);

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

/** Linked pages of a crawl scanned at once (tabs of the scan's context). */
export const CRAWL_PARALLEL = 2;

/** A page of the crawl that was not kept, and why (in the report's words). */
export interface SkippedPage {
  url: string;
  error: string;
}

export interface CrawlRun {
  /** Time the next linked page gets (ms); below `floorMs` it is skipped with `deadlineReached`. */
  budgetMs: () => number;
  floorMs: number;
  deadlineReached: string;
  /** Scans one linked page; a DomainError scan_failed ends the crawl, any other failure skips the page. */
  scan: (url: string, budgetMs: number) => Promise<ReportPage>;
}

/**
 * The crawl loop: the pages linked from the start page (crawlCandidates, from the address the start
 * page was read at), CRAWL_PARALLEL at a time, each within the budget left. The first linked page
 * starts as soon as the links are known, while the start page is still being graded; the other
 * lanes start once the start page (`first`) is graded, and none starts a page after it failed (its
 * error is the crawl's). A linked page that redirected off the origin, or onto a page already
 * scanned, is skipped rather than kept.
 */
export async function crawlLinkedPages(
  start: string,
  startUrl: string,
  first: Promise<ReportPage>,
  links: readonly string[],
  run: CrawlRun,
): Promise<{ pages: ReportPage[]; skipped: SkippedPage[] }> {
  const next = crawlCandidates(startUrl, [start, startUrl], links);
  const results: (ReportPage | SkippedPage)[] = new Array(next.length);
  let cursor = 0;
  let failed = false;
  first.catch(() => (failed = true));
  const worker = async (): Promise<void> => {
    while (cursor < next.length && !failed) {
      const i = cursor++;
      const budget = run.budgetMs();
      if (budget < run.floorMs) {
        results[i] = { url: next[i], error: run.deadlineReached };
        continue;
      }
      try {
        results[i] = await run.scan(next[i], budget);
      } catch (e) {
        if (e instanceof DomainError && e.code === ErrorCode.ScanFailed) throw e;
        results[i] = { url: next[i], error: e instanceof DomainError ? `${e.code}: ${e.message}` : 'failed' };
      }
    }
  };
  const lanes = Array.from({ length: CRAWL_PARALLEL }, (_, lane) => (lane === 0 ? worker() : first.then(worker)));
  const [page] = await Promise.all([first, ...lanes]);
  return keepLinked(page, results);
}

/** The linked pages kept (in link order) and those skipped: failed, redirected off the origin, or the same page as one kept. */
function keepLinked(
  first: ReportPage,
  results: readonly (ReportPage | SkippedPage)[],
): { pages: ReportPage[]; skipped: SkippedPage[] } {
  const origin = new URL(first.finalUrl).origin;
  const finals = new Set([first.finalUrl]);
  const pages: ReportPage[] = [];
  const skipped: SkippedPage[] = [];
  for (const r of results) {
    if ('error' in r) skipped.push(r);
    else if (new URL(r.finalUrl).origin !== origin)
      skipped.push({ url: r.url, error: `redirected to another origin (${r.finalUrl})` });
    else if (finals.has(r.finalUrl)) skipped.push({ url: r.url, error: `same page as ${r.finalUrl}` });
    else {
      finals.add(r.finalUrl);
      pages.push(r);
    }
  }
  return { pages, skipped };
}
