import type { ArgumentsHost } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import type { CsrfService } from './csrf.service';
import type { WebRequest } from './web-context';
import { WebExceptionFilter } from './web-exception.filter';
import type { WebGuard } from './web.guard';

/** What the filter sent: status, headers and page. */
interface Sent {
  status?: number;
  headers: Record<string, string>;
  body?: string;
}

/** A response that records what is sent (and says when it is). */
function response(): { res: Response; sent: Promise<Sent> } {
  const out: Sent = { headers: {} };
  let done: (s: Sent) => void = () => undefined;
  const sent = new Promise<Sent>((resolve) => (done = resolve));
  const res = {
    headersSent: false,
    status(code: number) {
      out.status = code;
      return res;
    },
    set(h: Record<string, string>) {
      Object.assign(out.headers, h);
      return res;
    },
    setHeader(k: string, v: string) {
      out.headers[k] = v;
    },
    cookie: () => res,
    clearCookie: () => res,
    send(body: string) {
      out.body = body;
      res.headersSent = true;
      done(out);
    },
    end() {
      res.headersSent = true;
      done(out);
    },
  };
  return { res: res as unknown as Response, sent };
}

const host = (req: WebRequest, res: Response) =>
  ({ switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) }) as unknown as ArgumentsHost;

const throttled = () => new DomainError(ErrorCode.RateLimited, 'Too many uploads.', {}, { 'Retry-After': '120' });

const request = (cookies?: Record<string, string>): WebRequest =>
  ({
    method: 'POST',
    path: '/pdf/rotate-pages/upload',
    originalUrl: '/pdf/rotate-pages/upload',
    headers: { accept: 'text/html', cookie: 'beacon_session=abc' },
    ...(cookies ? { cookies } : {}),
  }) as unknown as WebRequest;

const user = { id: 'u1', email: 'ada@example.com', role: 'admin', workspace: 'w' } as UserView;

describe('WebExceptionFilter: who is asking, on a page refused before the guard ran', () => {
  const csrf = { token: () => 'token-1' } as unknown as CsrfService;

  it('reads the visitor when the guard did not run: the header shows the signed-in user and Sign out', async () => {
    const calls: WebRequest[] = [];
    const guard = {
      visitor: (req: WebRequest) => {
        calls.push(req);
        req.cookies = { beacon_session: 'abc' };
        req.webUser = user;
        return Promise.resolve();
      },
    } as unknown as WebGuard;
    const { res, sent } = response();
    new WebExceptionFilter(csrf, guard).catch(throttled(), host(request(), res));
    const page = await sent;
    expect(calls).toHaveLength(1);
    expect(page.status).toBe(429);
    expect(page.body).toContain('ada@example.com');
    expect(page.body).toContain('class="signout"');
  });

  it('does not read it again when the guard ran', async () => {
    let calls = 0;
    const guard = {
      visitor: () => {
        calls++;
        return Promise.resolve();
      },
    } as unknown as WebGuard;
    const { res, sent } = response();
    new WebExceptionFilter(csrf, guard).catch(throttled(), host(request({}), res));
    expect((await sent).status).toBe(429);
    expect(calls).toBe(0);
  });

  it('still sends the error page, signed out, when the session cannot be read (its store down)', async () => {
    const guard = {
      visitor: (req: WebRequest) => {
        req.cookies = { beacon_session: 'abc' };
        req.webUser = user; // half-read: must not be trusted
        return Promise.reject(new Error('session store down'));
      },
    } as unknown as WebGuard;
    const { res, sent } = response();
    new WebExceptionFilter(csrf, guard).catch(throttled(), host(request(), res));
    const page = await sent;
    expect(page.status).toBe(429);
    expect(page.headers['Retry-After']).toBe('120');
    expect(page.body).toContain('Too many requests');
    expect(page.body).not.toContain('ada@example.com');
    expect(page.body).not.toContain('class="signout"');
  });
});
