import robotsParser from 'robots-parser';
import type { EgressGuard } from '../../common/egress/egress-guard';
import { MAX_CRAWL_PAGES, normalizeUrl } from '../scan/crawl';
import { guardedGet, SITE_FETCH_USER_AGENT } from './guarded-get';
import { crawlSite } from './site-crawl';
import { matchesPattern } from './site-input';
import { crawlDelayMs } from './site-pace';
import type { Site } from './site.types';
import { readSitemap } from './sitemap';

export const SMALL_FILE_BYTES = 512 * 1024;
export const SMALL_FILE_TIMEOUT_MS = 10_000;

/** The pages a scan visits, the addresses found but left out (and why), and the gap between pages. */
export interface SitePages {
  pages: string[];
  skipped: { url: string; reason: string }[];
  /** robots.txt's Crawl-delay for our user agent (capped), 0 when none or robots.txt is not respected. */
  gapMs: number;
  /** How the pages were found. */
  source: 'list' | 'sitemap' | 'crawl';
}

/** The site's robots.txt (undefined when it has none or cannot be read: everything allowed). */
async function robotsOf(guard: EgressGuard, origin: string): Promise<ReturnType<typeof robotsParser> | undefined> {
  const robotsUrl = new URL('/robots.txt', origin);
  const got = await guardedGet(guard, robotsUrl, { maxBytes: SMALL_FILE_BYTES, timeoutMs: SMALL_FILE_TIMEOUT_MS });
  return got.ok ? robotsParser(robotsUrl.href, got.body.toString('utf8')) : undefined;
}

/** `/dir/index.html` (or .htm, .php): the folder's index file, the same page as `/dir/`. */
const INDEX_FILE = /\/index\.(?:html?|php)$/i;

/** The address of the folder an index file serves (`/dir/index.html` -> `/dir/`), undefined for other addresses. */
export function folderOf(url: string): string | undefined {
  const u = new URL(url);
  if (!INDEX_FILE.test(u.pathname)) return undefined;
  u.pathname = u.pathname.replace(INDEX_FILE, '/');
  return u.href;
}

/**
 * The pages a scan visits: the start URL and the listed URLs, then those of the site's page source
 * (the sitemap's, none more for a list, or a same-origin crawl's); duplicates left out (the crawl's,
 * and an index file whose folder is also a page); robots.txt, the include and exclude patterns and
 * the budget applied.
 */
export async function pagesOf(guard: EgressGuard, site: Site): Promise<SitePages> {
  const start = new URL(site.start_url);
  const budget = site.verified_at ? site.page_budget : Math.min(site.page_budget, MAX_CRAWL_PAGES);
  const skipped: { url: string; reason: string }[] = [];
  const robots = site.respect_robots ? await robotsOf(guard, start.origin) : undefined;
  const robotsAllow = (url: string) => !robots || robots.isAllowed(url, SITE_FETCH_USER_AGENT) !== false;
  const patternsAllow = (url: string) =>
    (!site.include_patterns.length || site.include_patterns.some((p) => matchesPattern(url, p))) &&
    !site.exclude_patterns.some((p) => matchesPattern(url, p));
  const gapMs = crawlDelayMs(robots?.getCrawlDelay(SITE_FETCH_USER_AGENT));
  const source = site.page_source;
  const found = new Set<string>([start.href, ...site.urls]);
  const duplicates = new Map<string, string>();
  if (source === 'sitemap' && site.sitemap_url) {
    const sm = await readSitemap(guard, new URL(site.sitemap_url), start.origin, Math.max(budget * 4, 100));
    sm.urls.forEach((u) => found.add(u));
    sm.problems.forEach((p) => skipped.push({ url: site.sitemap_url!, reason: p }));
  } else if (source === 'crawl') {
    const crawled = await crawlSite(guard, start, {
      max: budget,
      mayFetch: robotsAllow,
      keep: patternsAllow,
      gapMs,
    });
    crawled.urls.forEach((u) => found.add(u));
    crawled.duplicates.forEach((d) => duplicates.set(d.url, d.reason));
    crawled.problems.forEach((p) => skipped.push({ url: start.href, reason: p }));
  }
  const all = new Set([...found].map((raw) => normalizeUrl(raw)).filter((u): u is string => !!u));
  const pages: string[] = [];
  for (const url of all) {
    const folder = folderOf(url);
    const duplicate = duplicates.get(url) ?? (folder && all.has(folder) ? `the same page as ${folder}` : undefined);
    if (duplicate) skipped.push({ url, reason: duplicate });
    else if (site.include_patterns.length && !site.include_patterns.some((p) => matchesPattern(url, p)))
      skipped.push({ url, reason: 'not matched by an include pattern' });
    else if (site.exclude_patterns.some((p) => matchesPattern(url, p)))
      skipped.push({ url, reason: 'matched by an exclude pattern' });
    else if (!robotsAllow(url)) skipped.push({ url, reason: 'disallowed by robots.txt' });
    else if (pages.length >= budget)
      skipped.push({
        url,
        reason: site.verified_at
          ? `over the page budget (${budget})`
          : `over the ${MAX_CRAWL_PAGES} pages an unverified site may scan: prove ownership for more`,
      });
    else pages.push(url);
  }
  for (const [url, reason] of duplicates) if (!all.has(url)) skipped.push({ url, reason });
  return { pages, skipped, gapMs, source };
}
