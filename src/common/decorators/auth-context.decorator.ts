import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** What the API-key guard attaches to an authenticated request. */
export interface AuthContext {
  keyId: string;
  workspaceId: string;
  workspaceSlug: string;
}

export type AuthedRequest = Request & { auth?: AuthContext };

/** Injects the {@link AuthContext} of the request (the guard guarantees it on non-public routes). */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const req = ctx.switchToHttp().getRequest<AuthedRequest>();
  if (!req.auth) throw new Error('Auth() used on a route without an authenticated request');
  return req.auth;
});
