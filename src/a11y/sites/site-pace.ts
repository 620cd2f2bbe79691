/** The longest wait a site's Retry-After can ask of a scan. */
export const RETRY_AFTER_MAX_MS = 60_000;
/** The longest gap between pages a robots.txt Crawl-delay can ask for. */
export const CRAWL_DELAY_MAX_MS = 10_000;

/**
 * The wait an HTTP 429's Retry-After asks for (RFC 9110 10.2.3: whole seconds or an HTTP date),
 * at most RETRY_AFTER_MAX_MS; undefined when absent or unreadable (the caller's own back-off applies).
 */
export function retryAfterMs(value: unknown, now = Date.now()): number | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const v = value.trim();
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at) || !/[a-z]/i.test(v)) return undefined;
    ms = at - now;
  }
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, ms));
}

/** The gap between pages a robots.txt Crawl-delay (seconds, for our user agent) asks for, at most CRAWL_DELAY_MAX_MS. */
export function crawlDelayMs(seconds: number | undefined): number {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.min(CRAWL_DELAY_MAX_MS, Math.round(seconds * 1000));
}
