/** Caching and safety headers of a report's renderings, shared by the report, export and screenshot routes. */

/** Stored reports never change: clients and CDNs may keep them for an hour. */
export const REPORT_CACHE = 'public, max-age=3600';

/** What changes with each new scan of an address (its stable badge, the badge fallbacks): five minutes. */
export const ADDRESS_BADGE_CACHE = 'public, max-age=300';

/**
 * Headers of the exports of a report (badge, JUnit, SARIF, diff): no content sniffing, no active
 * content, never framed (an <img> of the badge is not a frame: it stays embeddable).
 */
export const EXPORT_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
} as const;

/** The PDF's: the browser's PDF viewer needs its own resources, so only framing is refused. */
export const PDF_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "frame-ancestors 'none'",
} as const;
