import { CRAWL_DELAY_MAX_MS, crawlDelayMs, RETRY_AFTER_MAX_MS, retryAfterMs } from './site-pace';

describe('site pace', () => {
  const now = Date.parse('2026-11-27T10:00:00Z');

  it('reads Retry-After as seconds or as an HTTP date, capped', () => {
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Fri, 27 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Fri, 27 Nov 2026 09:00:00 GMT', now)).toBe(0); // already past
    expect(retryAfterMs('3600', now)).toBe(RETRY_AFTER_MAX_MS);
    expect(retryAfterMs('Sat, 28 Nov 2026 10:00:00 GMT', now)).toBe(RETRY_AFTER_MAX_MS);
  });

  it('gives no wait for an absent or unreadable Retry-After', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs('1.5', now)).toBeUndefined();
  });

  it('turns a Crawl-delay into a capped gap', () => {
    expect(crawlDelayMs(undefined)).toBe(0);
    expect(crawlDelayMs(0)).toBe(0);
    expect(crawlDelayMs(-1)).toBe(0);
    expect(crawlDelayMs(NaN)).toBe(0);
    expect(crawlDelayMs(0.5)).toBe(500);
    expect(crawlDelayMs(2)).toBe(2000);
    expect(crawlDelayMs(120)).toBe(CRAWL_DELAY_MAX_MS);
  });
});
