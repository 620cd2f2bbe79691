import { XMLParser } from 'fast-xml-parser';
import { gunzipSync } from 'node:zlib';
import type { EgressGuard } from '../../common/egress/egress-guard';
import { normalizeUrl } from '../scan/crawl';
import { guardedGet } from './guarded-get';

/** Bytes of one sitemap file as fetched (compressed or not). */
export const SITEMAP_MAX_BYTES = 5 * 1024 * 1024;
/** Bytes a gzipped sitemap may inflate to (the sitemaps.org limit is 50 MB; a bomb stops here). */
export const SITEMAP_MAX_INFLATED_BYTES = 20 * 1024 * 1024;
/** Sitemap files read for one scan (an index and its children). */
export const SITEMAP_MAX_FILES = 20;
export const SITEMAP_TIMEOUT_MS = 10_000;

const parser = new XMLParser({
  ignoreAttributes: true,
  processEntities: false,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

export interface SitemapResult {
  urls: string[];
  problems: string[];
}

const asLoc = (v: unknown): string | undefined =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined;

/**
 * The page addresses of a sitemap or sitemap index (sitemaps.org), gzipped or not: same origin as
 * `origin` only (off-origin entries and child sitemaps are dropped), each file read once (a loop
 * stops), at most SITEMAP_MAX_FILES files and `max` addresses; a file over the size caps is
 * skipped with a problem noted.
 */
export async function readSitemap(guard: EgressGuard, start: URL, origin: string, max: number): Promise<SitemapResult> {
  const urls = new Set<string>();
  const problems: string[] = [];
  const seen = new Set<string>();
  const todo = [start.href];
  while (todo.length && urls.size < max) {
    const href = todo.shift()!;
    if (seen.has(href)) continue;
    if (seen.size >= SITEMAP_MAX_FILES) {
      problems.push(`More than ${SITEMAP_MAX_FILES} sitemap files: the rest were not read.`);
      break;
    }
    seen.add(href);
    const got = await guardedGet(guard, new URL(href), { maxBytes: SITEMAP_MAX_BYTES, timeoutMs: SITEMAP_TIMEOUT_MS });
    if (!got.ok) {
      problems.push(`${href}: ${got.error}`);
      continue;
    }
    let body = got.body;
    if (body[0] === 0x1f && body[1] === 0x8b) {
      try {
        body = gunzipSync(body, { maxOutputLength: SITEMAP_MAX_INFLATED_BYTES });
      } catch {
        problems.push(`${href}: not a valid gzip file, or it inflates beyond ${SITEMAP_MAX_INFLATED_BYTES} bytes.`);
        continue;
      }
    }
    let doc: { urlset?: { url?: { loc?: unknown }[] }; sitemapindex?: { sitemap?: { loc?: unknown }[] } };
    try {
      doc = parser.parse(body.toString('utf8')) as typeof doc;
    } catch {
      problems.push(`${href}: not valid XML.`);
      continue;
    }
    for (const s of doc.sitemapindex?.sitemap ?? []) {
      const n = normalizeUrl(asLoc(s.loc) ?? '', href);
      if (n && new URL(n).origin === origin && !seen.has(n)) todo.push(n);
    }
    for (const u of doc.urlset?.url ?? []) {
      const n = normalizeUrl(asLoc(u.loc) ?? '', href);
      if (n && new URL(n).origin === origin) urls.add(n);
      if (urls.size >= max) break;
    }
  }
  return { urls: [...urls], problems };
}
