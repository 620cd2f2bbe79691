import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerRequest } from '@nestjs/throttler';
import type { Response } from 'express';
import { AuthedRequest } from '../decorators/auth-context.decorator';
import { RATE_LIMIT_COST, RateLimitBucket, RateLimitCost } from '../decorators/rate-limit.decorator';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { clientSubject } from '../http/client-ip';

/** Fixed Retry-After per bucket where a spec fixes it (visibility: 60 s). */
const FIXED_RETRY_AFTER: Partial<Record<RateLimitBucket, number>> = { visibility: 60 };

/**
 * The throttler's refusal: the API answers it as every 429 (`rate_limited`, `retry_after`, its
 * message); the limit and window it counted are kept for pages that say it in their own words.
 */
export class Throttled extends DomainError {
  constructor(
    readonly bucket: RateLimitBucket,
    readonly limit: number,
    readonly windowS: number,
    retryAfter: number,
  ) {
    super(
      ErrorCode.RateLimited,
      `Rate limit exceeded: ${limit} requests per ${windowS} s. Retry after ${retryAfter} s.`,
      { retry_after: retryAfter },
      { 'Retry-After': String(retryAfter) },
    );
  }
}

/**
 * The throttler guard for the named buckets (see RateLimit decorator). Tracks the API key for the
 * visibility bucket and the client subject (IP; IPv6 by network, see clientSubject) otherwise; one counter per bucket and tracker, whatever the
 * route. Sets RateLimit-Limit/Remaining/Reset and answers 429 rate_limited with Retry-After.
 */
@Injectable()
export class AppThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: AuthedRequest): Promise<string> {
    return req.auth ? `key:${req.auth.keyId}` : `ip:${clientSubject(req)}`;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}`;
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = props;
    const http = context.switchToHttp();
    const req = http.getRequest<AuthedRequest>();
    const res = http.getResponse<Response>();
    const name = throttler.name ?? 'default';
    const tracker = await getTracker(req, context);
    const key = generateKey(context, tracker, name);
    // A request may cost several units (RateLimitCostOf): one increment per unit.
    const costOf = this.reflector.get<RateLimitCost | undefined>(RATE_LIMIT_COST, context.getHandler());
    const cost = Math.max(1, Math.floor(costOf?.(req) ?? 1));
    let hit = await this.storageService.increment(key, ttl, limit, blockDuration, name);
    for (let i = 1; i < cost && !hit.isBlocked; i++)
      hit = await this.storageService.increment(key, ttl, limit, blockDuration, name);
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = hit;
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - totalHits)));
    res.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(isBlocked ? timeToBlockExpire : timeToExpire))));
    if (isBlocked) {
      const retryAfter = FIXED_RETRY_AFTER[name as RateLimitBucket] ?? Math.max(1, Math.ceil(timeToBlockExpire));
      throw new Throttled(name as RateLimitBucket, limit, Math.round(ttl / 1000), retryAfter);
    }
    return true;
  }
}
