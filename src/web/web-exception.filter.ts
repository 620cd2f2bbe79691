import { ArgumentsHost, Catch, ExceptionFilter, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { sendError, toDomainError } from '../common/filters/all-exceptions.filter';
import { ErrorPages } from '../common/filters/error-pages';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { CsrfService } from './csrf.service';
import { errorPage } from './pages/error.pages';
import { sendPage } from '../common/html/page';
import { PasswordChangeRequired, SignInRequired, WebRequest } from './web-context';
import { WebGuard } from './web.guard';

/** Paths of the JSON services: a miss there keeps the JSON error body. */
const JSON_PATHS = /^\/(api|mcp|files|healthz|readyz|metrics)(\/|$)/;

/** Whether an error of this request is answered with a page (a browser on a website path). */
export function wantsHtml(req: Request): boolean {
  if (JSON_PATHS.test(req.path)) return false;
  const accept = req.headers.accept ?? '';
  return accept === '' || accept.includes('text/html') || accept.includes('*/*');
}

/**
 * Reads who is asking for a page answered before the website's guard ran (the throttler's 429, a
 * body parser's 413): its header then shows the signed-in user and Sign out, as every other page
 * does. Never fails: when the session cannot be read (its store down), the page is still sent,
 * with the signed-out header.
 */
export async function readVisitor(guard: WebGuard, req: WebRequest, res: Response, logger: Logger): Promise<void> {
  if (req.cookies) return; // the guard ran
  try {
    await guard.visitor(req, res);
  } catch (e) {
    delete req.webUser;
    delete req.sessionId;
    logger.warn(`no visitor for an error page: ${(e as Error).message}`);
  }
}

/**
 * Errors of website pages become readable pages with their status (and Retry-After); a missing
 * session on a GET goes to the sign-in page. JSON paths and non-HTML clients keep the JSON body.
 * A page whose guard did not run (refused before it) reads the visitor first ({@link readVisitor}).
 */
@Catch()
@Injectable()
export class WebExceptionFilter implements ExceptionFilter {
  protected readonly logger = new Logger('Web');

  constructor(
    private readonly csrf: CsrfService,
    protected readonly guard: WebGuard,
  ) {}

  /** A CSRF token for the page's forms (the header's Sign out); '' when there is no signed-in user to sign out. */
  private token(req: WebRequest, res: Response): string {
    if (!req.webUser || !req.cookies) return '';
    try {
      return this.csrf.token(req, res);
    } catch (e) {
      this.logger.warn(`no CSRF token for an error page: ${(e as Error).message}`);
      return '';
    }
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<WebRequest>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) {
      res.end();
      return;
    }
    if (exception instanceof SignInRequired) {
      if (req.method === 'GET' || req.method === 'HEAD') {
        res.redirect(303, `/signin?next=${encodeURIComponent(req.originalUrl)}`);
        return;
      }
      const err = new DomainError(
        ErrorCode.Unauthorized,
        'Your session has ended or you are not signed in. Sign in again, then repeat the action.',
      );
      sendPage(res, 401, errorPage(req, err, ''));
      return;
    }
    if (exception instanceof PasswordChangeRequired) {
      res.redirect(303, '/account/password');
      return;
    }
    const err = toDomainError(exception, this.logger);
    if (!wantsHtml(req)) {
      sendError(res, req, err);
      return;
    }
    this.errorPage(req, res, err).catch((e: unknown) => {
      this.logger.error(`error page not sent: ${(e as Error).message}`);
      if (!res.headersSent) res.status(err.status).end();
    });
  }

  /** Sends `err` as the website's error page, the visitor read first when the guard did not run. */
  async errorPage(req: WebRequest, res: Response, err: DomainError): Promise<void> {
    await readVisitor(this.guard, req, res, this.logger);
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
    sendPage(res, err.status, errorPage(req, err, this.token(req, res)));
  }
}

/**
 * The website's error pages for errors raised before any route ran (a form body over the field
 * limit: 413), used by the global filter (ErrorPages). The visitor is read here too, so a signed-in
 * user keeps the header with Sign out.
 */
@Injectable()
export class WebErrorPages extends ErrorPages {
  constructor(private readonly filter: WebExceptionFilter) {
    super();
  }

  wants(req: Request): boolean {
    return wantsHtml(req);
  }

  send(req: Request, res: Response, err: DomainError): void {
    void this.filter.errorPage(req as WebRequest, res, err);
  }
}
