import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { html } from '../../common/html/html';
import { plural } from '../../common/text/plural';
import { page } from '../render/layout';
import type { WebRequest } from '../web-context';

const TITLES: Record<number, string> = {
  400: 'The request could not be used',
  401: 'Please sign in',
  403: 'Not allowed',
  404: 'Page not found',
  405: 'Not allowed here',
  413: 'Too large',
  415: 'Unsupported file',
  422: 'The target could not be used',
  429: 'Too many requests',
  500: 'Something went wrong',
  502: 'Something went wrong upstream',
  503: 'Busy right now',
};

/**
 * The error page of a status: a title, the message, where to go next; never a stack trace. `csrf`
 * is the token of the header's Sign out form (for a signed-in user).
 */
export function errorPage(req: WebRequest, err: DomainError, csrf: string): string {
  const status = err.status;
  const id = (req as WebRequest & { id?: string | number }).id;
  const retry = err.headers['Retry-After'];
  return page({
    title: TITLES[status] ?? `Error ${status}`,
    user: req.webUser,
    csrf,
    body: html`<h1>${TITLES[status] ?? `Error ${status}`}</h1>
<p>${err.message}</p>
${retry ? html`<p>You can try again in ${plural(Math.ceil(Number(retry) / 60), 'minute')}.</p>` : ''}
${err.code === ErrorCode.InternalError && id !== undefined ? html`<p>Request id: <code>${String(id)}</code> (quote it when reporting the problem).</p>` : ''}
<p class="meta">Error code: <code>${err.code}</code> (HTTP ${status})</p>
<p><a href="/">Go to the home page</a>${req.webUser ? html` or <a href="/dashboard">the dashboard</a>` : ''}.</p>`,
  });
}
