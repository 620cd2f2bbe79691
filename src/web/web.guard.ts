import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { parse as parseCookies } from 'cookie';
import type { Response } from 'express';
import { randomBytes } from 'node:crypto';
import { AccountsService } from '../accounts/accounts.service';
import { SessionsService } from '../accounts/sessions.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { cookieName, cookieOptions } from '../common/http/transport-security';
import { CsrfService } from './csrf.service';
import {
  ADMIN_ONLY,
  ANONYMOUS,
  CSRF_AFTER_BODY,
  DEVICE_COOKIE,
  PASSWORD_CHANGE_PAGE,
  PasswordChangeRequired,
  SESSION_COOKIE,
  SignInRequired,
  WebRequest,
} from './web-context';

const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;
const YEAR_MS = 365 * 24 * 3600_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The website's guard, on every website controller (deny by default): reads the cookies, gives a
 * new visitor a device id, resolves the session to an active user (a disabled account or ended
 * session is signed out at once), then refuses a page without a user unless it is @Anonymous(),
 * sends a user with a one-time password to the password page, refuses members on @AdminOnly()
 * actions, and checks the CSRF token of every state-changing request.
 */
@Injectable()
export class WebGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
    private readonly accounts: AccountsService,
    private readonly csrf: CsrfService,
  ) {}

  private flag(key: string, context: ExecutionContext): boolean {
    return this.reflector.getAllAndOverride<boolean>(key, [context.getHandler(), context.getClass()]) === true;
  }

  /**
   * Who is asking: the cookies, the device id (a new visitor gets one) and the signed-in user of an
   * active session (a forged, expired or ended one is forgotten). Also for a page answered before
   * this guard runs (the scan form's throttled refusal), so its header shows who is signed in.
   */
  async visitor(req: WebRequest, res: Response): Promise<void> {
    req.cookies = req.headers.cookie ? parseCookies(req.headers.cookie) : {};
    // Over https the names carry the __Host- prefix (src/common/http/transport-security.ts).
    const deviceCookie = cookieName(req, DEVICE_COOKIE);
    const sessionCookie = cookieName(req, SESSION_COOKIE);

    let device = req.cookies[deviceCookie];
    if (!device || !DEVICE_ID.test(device)) {
      device = randomBytes(16).toString('base64url');
      res.cookie(deviceCookie, device, cookieOptions(req, { maxAge: YEAR_MS }));
      req.cookies[deviceCookie] = device;
    }
    req.deviceId = device;

    const sessionId = req.cookies[sessionCookie];
    if (sessionId) {
      const userId = await this.sessions.userOf(sessionId);
      const user = userId ? await this.accounts.activeUser(userId) : null;
      if (user) {
        req.webUser = user;
        req.sessionId = sessionId;
      } else {
        // Forged, expired or ended: forget it, so CSRF tokens bind to the device again.
        res.clearCookie(sessionCookie, cookieOptions(req));
        delete req.cookies[sessionCookie];
      }
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<WebRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    await this.visitor(req, res);

    if (!this.flag(ANONYMOUS, context)) {
      if (!req.webUser) throw new SignInRequired();
      if (req.webUser.must_change_password && !this.flag(PASSWORD_CHANGE_PAGE, context))
        throw new PasswordChangeRequired();
      if (this.flag(ADMIN_ONLY, context) && req.webUser.role !== 'admin') {
        throw new DomainError(
          ErrorCode.Forbidden,
          'Only an admin of this workspace can do this. Ask an admin of your workspace.',
        );
      }
    }
    if (!SAFE_METHODS.has(req.method) && !this.flag(CSRF_AFTER_BODY, context)) this.csrf.assert(req);
    return true;
  }
}
