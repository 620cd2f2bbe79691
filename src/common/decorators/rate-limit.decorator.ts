import { SetMetadata } from '@nestjs/common';

export const RATE_LIMIT_BUCKET = 'beacon:rateLimitBucket';

/**
 * The rate-limit buckets. `visibility` counts per API key; the others per client IP.
 * Routes without a bucket are not rate limited by the throttler.
 */
export type RateLimitBucket = 'visibility' | 'scan' | 'mcp' | 'pdf-download' | 'pdf-upload';

export const RateLimit = (bucket: RateLimitBucket): MethodDecorator & ClassDecorator =>
  SetMetadata(RATE_LIMIT_BUCKET, bucket);
