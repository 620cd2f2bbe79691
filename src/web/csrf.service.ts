import { Injectable, OnModuleInit } from '@nestjs/common';
import { doubleCsrf, DoubleCsrfUtilities } from 'csrf-csrf';
import type { Request, Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { cookieName, cookieOptions, HOST_PREFIX, overHttps } from '../common/http/transport-security';
import { InstanceSecretsService } from '../common/secrets/instance-secrets.service';
import { CSRF_COOKIE, CSRF_FIELD, DEVICE_COOKIE, SESSION_COOKIE, WebRequest } from './web-context';

/**
 * CSRF protection of every state-changing website request: csrf-csrf's signed double-submit
 * token, bound to the session id (signed in) or the device id (anonymous pages, sign-in itself),
 * sent back in a hidden form field or the X-CSRF-Token header.
 */
@Injectable()
export class CsrfService implements OnModuleInit {
  /** csrf-csrf fixes the cookie name: one set of utilities for plain http, one for https (`__Host-`). */
  private utils?: { plain: DoubleCsrfUtilities; https: DoubleCsrfUtilities };

  constructor(private readonly secrets: InstanceSecretsService) {}

  async onModuleInit(): Promise<void> {
    const secret = await this.secrets.get('web_csrf_secret');
    const utilities = (https: boolean): DoubleCsrfUtilities =>
      doubleCsrf({
        getSecret: () => secret,
        getSessionIdentifier: (req) => {
          const c = (req as WebRequest).cookies;
          return c[cookieName(req, SESSION_COOKIE)] ?? c[cookieName(req, DEVICE_COOKIE)] ?? '';
        },
        cookieName: https ? `${HOST_PREFIX}${CSRF_COOKIE}` : CSRF_COOKIE,
        cookieOptions: { sameSite: 'lax', path: '/', secure: https, httpOnly: true },
        getCsrfTokenFromRequest: (req) => {
          const body = req.body as Record<string, unknown> | undefined;
          const fromBody = body && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
          return typeof fromBody === 'string' ? fromBody : req.headers['x-csrf-token'];
        },
      });
    this.utils = { plain: utilities(false), https: utilities(true) };
  }

  /** The utilities whose cookie name is this request's (`cookieName(req, CSRF_COOKIE)`). */
  private of(req: Request): DoubleCsrfUtilities {
    return overHttps(req) ? this.utils!.https : this.utils!.plain;
  }

  /** The token for the forms of this response (sets or keeps the cookie). */
  token(req: Request, res: Response): string {
    return this.of(req).generateCsrfToken(req, res, { cookieOptions: cookieOptions(req) });
  }

  /** 403 unless the request carries a valid token. */
  assert(req: Request): void {
    if (!this.of(req).validateRequest(req)) {
      throw new DomainError(
        ErrorCode.Forbidden,
        'This form has expired or did not come from this site (missing or wrong security token). Go back, reload the page and submit it again.',
        { reason: 'csrf' },
      );
    }
  }

  /**
   * For an upload without JavaScript, checked before the body is read: the token travels in the
   * query string (`_csrf`). A refusal closes the connection after the answer (bytes still coming).
   */
  assertBeforeUpload(req: WebRequest, res: Response): void {
    const token = req.query[CSRF_FIELD];
    if (typeof token === 'string') req.headers['x-csrf-token'] = token;
    try {
      this.assert(req);
    } catch (e) {
      res.setHeader('Connection', 'close');
      throw e;
    }
  }
}
