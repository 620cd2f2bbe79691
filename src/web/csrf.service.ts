import { Injectable, OnModuleInit } from '@nestjs/common';
import { doubleCsrf, DoubleCsrfUtilities } from 'csrf-csrf';
import type { Request, Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { InstanceSecretsService } from '../common/secrets/instance-secrets.service';
import { CSRF_COOKIE, CSRF_FIELD, DEVICE_COOKIE, SESSION_COOKIE, WebRequest } from './web-context';

/**
 * CSRF protection of every state-changing website request: csrf-csrf's signed double-submit
 * token, bound to the session id (signed in) or the device id (anonymous pages, sign-in itself),
 * sent back in a hidden form field or the X-CSRF-Token header.
 */
@Injectable()
export class CsrfService implements OnModuleInit {
  private utils?: DoubleCsrfUtilities;

  constructor(private readonly secrets: InstanceSecretsService) {}

  async onModuleInit(): Promise<void> {
    const secret = await this.secrets.get('web_csrf_secret');
    this.utils = doubleCsrf({
      getSecret: () => secret,
      getSessionIdentifier: (req) => {
        const c = (req as WebRequest).cookies;
        return c[SESSION_COOKIE] ?? c[DEVICE_COOKIE] ?? '';
      },
      cookieName: CSRF_COOKIE,
      cookieOptions: { sameSite: 'lax', path: '/', secure: false, httpOnly: true },
      getCsrfTokenFromRequest: (req) => {
        const body = req.body as Record<string, unknown> | undefined;
        const fromBody = body && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
        return typeof fromBody === 'string' ? fromBody : (req.headers['x-csrf-token']);
      },
    });
  }

  /** The token for the forms of this response (sets or keeps the cookie). */
  token(req: Request, res: Response): string {
    return this.utils!.generateCsrfToken(req, res, { cookieOptions: { sameSite: 'lax', path: '/', httpOnly: true, secure: req.secure } });
  }

  /** 403 unless the request carries a valid token. */
  assert(req: Request): void {
    if (!this.utils!.validateRequest(req)) {
      throw new DomainError(
        ErrorCode.Forbidden,
        'This form has expired or did not come from this site (missing or wrong security token). Go back, reload the page and submit it again.',
        { reason: 'csrf' },
      );
    }
  }
}
