import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { CSRF_FIELD } from '../common/html/page';

export const SESSION_COOKIE = 'beacon_session';
export const DEVICE_COOKIE = 'beacon_device';
export const CSRF_COOKIE = 'beacon_csrf';
/** The hidden form field (or X-CSRF-Token header) carrying the CSRF token: the page shell's, for the header's Sign out form. */
export { CSRF_FIELD };

/** What the website middleware and guard attach to a request. */
export interface WebRequest extends Request {
  cookies: Record<string, string | undefined>;
  /** The device id (cookie `beacon_device`), set on the first visit. */
  deviceId: string;
  /** The signed-in user, when a live session cookie came with the request. */
  webUser?: UserView;
  /** The raw session id of that cookie. */
  sessionId?: string;
}

export const ANONYMOUS = 'beacon:web:anonymous';
export const ADMIN_ONLY = 'beacon:web:adminOnly';
export const CSRF_AFTER_BODY = 'beacon:web:csrfAfterBody';
export const PASSWORD_CHANGE_PAGE = 'beacon:web:passwordChangePage';

/** A page anyone may open (the website denies every other one to visitors without a session). */
export const Anonymous = (): MethodDecorator & ClassDecorator => SetMetadata(ANONYMOUS, true);
/** Admins only: members get 403. */
export const AdminOnly = (): MethodDecorator & ClassDecorator => SetMetadata(ADMIN_ONLY, true);
/** The handler checks the CSRF token itself, after parsing a multipart body. */
export const CsrfAfterBody = (): MethodDecorator => SetMetadata(CSRF_AFTER_BODY, true);
/** Reachable while the user must still replace a one-time password. */
export const PasswordChangePage = (): MethodDecorator => SetMetadata(PASSWORD_CHANGE_PAGE, true);

export const WebUserParam = createParamDecorator((_: unknown, ctx: ExecutionContext): UserView => {
  const req = ctx.switchToHttp().getRequest<WebRequest>();
  if (!req.webUser) throw new Error('WebUserParam on a page without a signed-in user');
  return req.webUser;
});

/** A string field of a form body ('' when absent or not a string). */
export function field(req: Request, name: string): string {
  const body = req.body as Record<string, unknown> | undefined;
  const v = body && typeof body === 'object' ? body[name] : undefined;
  return typeof v === 'string' ? v : '';
}

/** Signals to the web exception filter. */
export class SignInRequired extends Error {}
export class PasswordChangeRequired extends Error {}
