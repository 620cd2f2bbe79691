import type { CookieOptions, NextFunction, Request, Response } from 'express';

/** Express app setting: true when PUBLIC_BASE_URL is https (set by configureApp). */
export const PUBLIC_HTTPS_SETTING = 'beacon public base url is https';

/**
 * `Strict-Transport-Security` of every response when the public address is https (one year, this
 * host and its subdomains). Never sent otherwise: HSTS on `localhost` would pin every local http
 * service of the developer's browser to https.
 */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/** Prefix of a cookie of the whole site over https (browsers enforce Secure, Path=/, no Domain). */
export const HOST_PREFIX = '__Host-';

/** Whether the public address of this service (PUBLIC_BASE_URL) is https. */
export const publicIsHttps = (req: Request): boolean => req.app?.get(PUBLIC_HTTPS_SETTING) === true;

/**
 * Whether the browser reached this request over https: TLS here, or a trusted proxy's
 * X-Forwarded-Proto (Express `req.secure` honours TRUST_PROXY), or an https public address (the
 * proxy in front terminates TLS even when TRUST_PROXY is not set).
 */
export const overHttps = (req: Request): boolean => req.secure || publicIsHttps(req);

/** Express middleware sending {@link HSTS_VALUE} when the public address is https. */
export function strictTransportSecurity(req: Request, res: Response, next: NextFunction): void {
  if (publicIsHttps(req)) res.setHeader('Strict-Transport-Security', HSTS_VALUE);
  next();
}

/**
 * The name of a cookie on this request. Over https it carries the browser-enforced prefix:
 * `__Host-` for a cookie of the whole site (Secure, Path=/, no Domain, so no other host, not even a
 * subdomain, can set or replace it), `__Secure-` for one scoped to a path. Plain http (localhost)
 * keeps the bare name, which browsers accept there.
 */
export function cookieName(req: Request, name: string, path = '/'): string {
  if (!overHttps(req)) return name;
  return `${path === '/' ? HOST_PREFIX : '__Secure-'}${name}`;
}

/** What a cookie may choose; the rest (HttpOnly, Secure, no Domain) is fixed here. */
export interface CookieChoice {
  path?: string;
  sameSite?: 'lax' | 'strict';
  maxAge?: number;
  expires?: Date;
}

/**
 * The options of every cookie the service sets or clears: HttpOnly, SameSite=Lax unless stricter,
 * Path=/ unless scoped, never a Domain, and Secure over https ({@link overHttps}). Use with
 * {@link cookieName} and the same `path`, so the name's prefix and the flags always agree.
 */
export function cookieOptions(req: Request, choice: CookieChoice = {}): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', ...choice, secure: overHttps(req) };
}
