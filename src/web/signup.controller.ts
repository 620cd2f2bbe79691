import { Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { SessionsService } from '../accounts/sessions.service';
import { SignupService } from '../accounts/signup.service';
import { AppConfig } from '../common/config/env';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { clientSubject } from '../common/http/client-ip';
import { cookieName, cookieOptions } from '../common/http/transport-security';
import { CsrfService } from './csrf.service';
import { signupPage, signupSentPage, verifyPage, welcomePage } from './pages/signup.pages';
import { sendPage } from '../common/html/page';
import { Anonymous, field, SESSION_COOKIE, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

/** Sign-up for the PDF site (docs/web.md, "Sign-up"): the form, the mailed link, the account. */
@WebController('signup')
export class SignupController {
  constructor(
    private readonly signups: SignupService,
    private readonly sessions: SessionsService,
    private readonly csrf: CsrfService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Anonymous()
  form(@Req() req: WebRequest, @Res() res: Response): void {
    if (req.webUser) return res.redirect(303, '/pdf');
    sendPage(res, 200, signupPage(this.csrf.token(req, res), { mailConfigured: this.signups.mailConfigured }));
  }

  @Post()
  @Anonymous()
  async submit(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const email = field(req, 'email');
    try {
      const r = await this.signups.request(
        email,
        field(req, 'password'),
        field(req, 'confirm_password'),
        clientSubject(req),
      );
      sendPage(res, 200, signupSentPage(this.csrf.token(req, res), r.email, this.config.SIGNUP_LINK_TTL_H));
    } catch (e) {
      if (
        !(e instanceof DomainError) ||
        ![ErrorCode.BadRequest, ErrorCode.RateLimited, ErrorCode.ServiceUnavailable].includes(e.code)
      )
        throw e;
      for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
      const f = (e.details.field as string | undefined) ?? (e.code === ErrorCode.BadRequest ? 'email' : undefined);
      sendPage(
        res,
        e.status,
        signupPage(this.csrf.token(req, res), {
          email: email.slice(0, 254),
          error: { message: e.message, field: f },
          mailConfigured: this.signups.mailConfigured,
        }),
      );
    }
  }

  @Get('verify')
  @Anonymous()
  async landing(@Req() req: WebRequest, @Res() res: Response, @Query('token') token?: string): Promise<void> {
    const t = typeof token === 'string' ? token : '';
    const state = await this.signups.linkState(t);
    const csrf = this.csrf.token(req, res);
    if (state === 'valid') return sendPage(res, 200, verifyPage(csrf, t, {}), false);
    sendPage(
      res,
      400,
      verifyPage(csrf, '', {
        error:
          state === 'expired'
            ? 'This link has expired: sign up again to get a new one.'
            : 'This link is not valid: it was already used, or it was copied incompletely.',
      }),
      false,
    );
  }

  @Post('verify')
  @Anonymous()
  async verify(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    let userId: string;
    try {
      ({ userId } = await this.signups.verify(field(req, 'token')));
    } catch (e) {
      if (!(e instanceof DomainError) || (e.code !== ErrorCode.BadRequest && e.code !== ErrorCode.Conflict)) throw e;
      sendPage(res, e.status, verifyPage(this.csrf.token(req, res), '', { error: e.message }), false);
      return;
    }
    // Signed in at once, with a new session id (as at sign-in).
    const session = await this.sessions.start(userId, req.sessionId);
    res.cookie(cookieName(req, SESSION_COOKIE), session.id, cookieOptions(req, { expires: session.expiresAt }));
    res.redirect(303, '/signup/welcome');
  }

  @Get('welcome')
  welcome(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): void {
    sendPage(res, 200, welcomePage(user, this.csrf.token(req, res)));
  }
}
