import { SetMetadata } from '@nestjs/common';

export const RATE_LIMIT_BUCKET = 'beacon:rateLimitBucket';

/**
 * The rate-limit buckets. `visibility` counts per API key; the others (`scan`, `mcp`, `report`:
 * renderings of stored scan reports, `pdf-download`, `pdf-upload`) per client IP.
 * Routes without a bucket are not rate limited by the throttler.
 */
export type RateLimitBucket = 'visibility' | 'scan' | 'mcp' | 'report' | 'pdf-download' | 'pdf-upload';

export const RateLimit = (bucket: RateLimitBucket): MethodDecorator & ClassDecorator =>
  SetMetadata(RATE_LIMIT_BUCKET, bucket);

export const RATE_LIMIT_COST = 'beacon:rateLimitCost';

/** How many units of its bucket a request costs (default 1), e.g. a crawl counting as several scans. */
export type RateLimitCost = (req: { body?: unknown }) => number;

export const RateLimitCostOf = (cost: RateLimitCost): MethodDecorator => SetMetadata(RATE_LIMIT_COST, cost);
