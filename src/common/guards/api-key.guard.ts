import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { getStorageToken, ThrottlerStorage } from '@nestjs/throttler';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AppConfig } from '../config/env';
import { AuthedRequest } from '../decorators/auth-context.decorator';
import { IS_PUBLIC } from '../decorators/public.decorator';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { clientSubject } from '../http/client-ip';

const unauthorized = (message: string): DomainError => new DomainError(ErrorCode.Unauthorized, message);

/** Throttler bucket counting refused credentials per client subject. */
export const AUTH_FAILURE_BUCKET = 'auth';

/** Blocked subjects remembered by this instance (so a blocked client costs no storage round trip). */
const MAX_BLOCKED_REMEMBERED = 10_000;

/**
 * Deny by default: every route needs `Authorization: Bearer <API key>` unless marked @Public().
 * Missing, malformed, unknown and revoked keys all get 401 unauthorized.
 *
 * Refused credentials (malformed, unknown or revoked keys) are counted per client subject in the
 * throttler bucket "auth": past AUTH_FAILURE_LIMIT in AUTH_FAILURE_WINDOW_S, that client's requests
 * with a key get 429 rate_limited with Retry-After for one window, without a database lookup, so
 * guessing keys is slow and costs the database nothing. Requests without a key cost no lookup and
 * are not counted.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly config: AppConfig,
    @Inject(getStorageToken()) private readonly storage: ThrottlerStorage,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const header = req.headers.authorization;
    if (!header) throw unauthorized('Missing API key: send the header "Authorization: Bearer <API_KEY>".');
    // The client subject only when some client is blocked or the key is refused (not per request).
    if (this.blockedUntil.size > 0) this.refuseWhileBlocked(clientSubject(req));
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!match) return this.refused(clientSubject(req), 'Malformed Authorization header: expected "Bearer <API_KEY>".');
    const auth = await this.apiKeys.authenticate(match[1]);
    if (!auth) return this.refused(clientSubject(req), 'Invalid or revoked API key.');
    req.auth = auth;
    return true;
  }

  private refuseWhileBlocked(subject: string): void {
    const until = this.blockedUntil.get(subject);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) {
      this.blockedUntil.delete(subject);
      return;
    }
    throw this.tooMany(Math.ceil(left / 1000));
  }

  /** Counts a refused credential; 401, or 429 once the client is past its allowance. */
  private async refused(subject: string, message: string): Promise<never> {
    const windowMs = this.config.AUTH_FAILURE_WINDOW_S * 1000;
    const { isBlocked, timeToBlockExpire } = await this.storage.increment(
      `${AUTH_FAILURE_BUCKET}:ip:${subject}`,
      windowMs,
      this.config.AUTH_FAILURE_LIMIT,
      windowMs,
      AUTH_FAILURE_BUCKET,
    );
    if (!isBlocked) throw unauthorized(message);
    const retryAfter = Math.max(1, Math.ceil(timeToBlockExpire));
    if (this.blockedUntil.size >= MAX_BLOCKED_REMEMBERED) this.forgetExpired();
    if (this.blockedUntil.size < MAX_BLOCKED_REMEMBERED) this.blockedUntil.set(subject, Date.now() + retryAfter * 1000);
    throw this.tooMany(retryAfter);
  }

  private tooMany(retryAfter: number): DomainError {
    return new DomainError(
      ErrorCode.RateLimited,
      `Too many requests with invalid API keys from this address. Retry after ${retryAfter} s.`,
      { retry_after: retryAfter },
      { 'Retry-After': String(retryAfter) },
    );
  }

  private forgetExpired(): void {
    const now = Date.now();
    for (const [subject, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(subject);
  }
}
