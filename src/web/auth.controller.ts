import { Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AccountsService, UserView } from '../accounts/accounts.service';
import { SessionsService } from '../accounts/sessions.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { clientSubject } from '../common/http/client-ip';
import { cookieName, cookieOptions } from '../common/http/transport-security';
import { CsrfService } from './csrf.service';
import { OneTimeProofService, PROOF_TTL_MS } from './one-time-proof.service';
import { passwordPage, signInPage } from './pages/account.pages';
import { sendPage } from '../common/html/page';
import { Anonymous, field, PasswordChangePage, SESSION_COOKIE, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

/** Where to go after sign-in: a local path only (never another site). */
export function safeNext(raw: unknown): string {
  return typeof raw === 'string' && /^\/(?![/\\])[^\s]*$/.test(raw) && raw.length < 2000 ? raw : '/dashboard';
}

/** Sign-in, sign-out and password change. */
@WebController()
export class AuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly csrf: CsrfService,
    private readonly proof: OneTimeProofService,
  ) {}

  private setSession(req: WebRequest, res: Response, id: string, expiresAt: Date): void {
    res.cookie(cookieName(req, SESSION_COOKIE), id, cookieOptions(req, { expires: expiresAt }));
  }

  @Get('signin')
  @Anonymous()
  signInForm(
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('next') next?: string,
    @Query('signed_out') signedOut?: string,
  ): void {
    if (req.webUser) {
      res.redirect(303, safeNext(next));
      return;
    }
    sendPage(
      res,
      200,
      signInPage(this.csrf.token(req, res), {
        next: next ? safeNext(next) : undefined,
        notice: signedOut ? 'You are signed out.' : undefined,
      }),
    );
  }

  @Post('signin')
  @Anonymous()
  async signIn(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const email = field(req, 'email');
    const next = safeNext(field(req, 'next') || undefined);
    let user: UserView;
    const password = field(req, 'password');
    try {
      user = await this.accounts.signIn(email, password, { ip: clientSubject(req), device: req.deviceId });
    } catch (e) {
      if (!(e instanceof DomainError) || (e.code !== ErrorCode.Unauthorized && e.code !== ErrorCode.RateLimited))
        throw e;
      for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
      const field = e.details.field === 'password' ? 'password' : 'email';
      sendPage(
        res,
        e.status,
        signInPage(this.csrf.token(req, res), { next, email, error: { message: e.message, field } }),
      );
      return;
    }
    // A new session id at every sign-in (the old session, if any, ends).
    const session = await this.sessions.start(user.id, req.sessionId);
    this.setSession(req, res, session.id, session.expiresAt);
    // The password page will not ask again for the one-time password this sign-in just proved.
    if (user.must_change_password) this.proof.issue(req, res, session.id, password);
    res.redirect(303, user.must_change_password ? '/account/password' : next);
  }

  @Post('signout')
  @Anonymous()
  async signOut(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    await this.endSession(req, res);
    res.redirect(303, '/signin?signed_out=1');
  }

  /** Ends this browser's session; later tokens bind to the device again. */
  private async endSession(req: WebRequest, res: Response): Promise<void> {
    if (req.sessionId) await this.sessions.end(req.sessionId);
    res.clearCookie(cookieName(req, SESSION_COOKIE), cookieOptions(req));
    delete req.cookies[cookieName(req, SESSION_COOKIE)];
    delete req.sessionId;
    delete req.webUser;
  }

  @Get('account/password')
  @PasswordChangePage()
  passwordForm(
    @WebUserParam() user: UserView,
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('done') done?: string,
  ): void {
    sendPage(
      res,
      200,
      passwordPage(user, this.csrf.token(req, res), { done: done === '1', proven: this.proven(user, req) !== null }),
    );
  }

  /** The one-time password this session proved at sign-in minutes ago, while it must still be replaced. */
  private proven(user: UserView, req: WebRequest): string | null {
    return user.must_change_password ? this.proof.proven(req) : null;
  }

  @Post('account/password')
  @PasswordChangePage()
  async changePassword(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const proven = this.proven(user, req);
    const current = proven ?? field(req, 'current_password');
    try {
      if (!current && user.must_change_password) {
        // The form had no field for it (the proof expired meanwhile): the page now asks for it.
        throw DomainError.badRequest(
          `Your sign-in is more than ${PROOF_TTL_MS / 60_000} minutes old: type the one-time password again.`,
          'current_password',
        );
      }
      await this.accounts.changePassword(
        user.id,
        current,
        field(req, 'new_password'),
        field(req, 'confirm_password'),
        clientSubject(req),
      );
    } catch (e) {
      if (e instanceof DomainError && e.code === ErrorCode.RateLimited) {
        // Too many wrong current passwords: this session ends (whoever holds it must sign in again).
        await this.endSession(req, res);
        this.proof.clear(req, res);
        for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
        sendPage(
          res,
          e.status,
          signInPage(this.csrf.token(req, res), {
            email: user.email,
            error: { message: e.message, field: 'password' },
          }),
        );
        return;
      }
      if (!(e instanceof DomainError) || e.code !== ErrorCode.BadRequest) throw e;
      sendPage(
        res,
        400,
        passwordPage(user, this.csrf.token(req, res), {
          error: { message: e.message, field: e.details.field as string | undefined },
          proven: proven !== null,
        }),
      );
      return;
    }
    this.proof.clear(req, res);
    // Every session ended with the change; this browser gets a fresh one.
    const session = await this.sessions.start(user.id);
    this.setSession(req, res, session.id, session.expiresAt);
    res.redirect(303, user.must_change_password ? '/dashboard' : '/account/password?done=1');
  }
}
