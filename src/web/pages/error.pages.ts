import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { html } from '../../common/html/html';
import { plural } from '../../common/text/plural';
import { waitWords } from '../../common/text/wait-words';
import type { RateLimitBucket } from '../../common/decorators/rate-limit.decorator';
import { Throttled } from '../../common/throttling/app-throttler.guard';
import { page } from '../../common/html/page';
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

/** What one request of a rate-limited bucket is, in the page's words. */
const THROTTLED_WHAT: Record<RateLimitBucket, string> = {
  'pdf-upload': 'uploads',
  'pdf-download': 'downloads',
  scan: 'scans',
  report: 'report pages',
  mcp: 'tool calls',
  visibility: 'requests',
};

/** The message of an error page: the throttler's limit said in words, every other error's own message. */
function messageOf(err: DomainError): string {
  if (!(err instanceof Throttled)) return err.message;
  return `You sent more ${THROTTLED_WHAT[err.bucket]} than Beacon takes from one address in a short time: up to ${err.limit} every ${waitWords(err.windowS)}.`;
}

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
<p>${messageOf(err)}</p>
${retry ? html`<p>You can try again in ${plural(Math.ceil(Number(retry) / 60), 'minute')}.</p>` : ''}
${err.code === ErrorCode.InternalError && id !== undefined ? html`<p>Request id: <code>${String(id)}</code> (quote it when reporting the problem).</p>` : ''}
<p class="meta">Error code: <code>${err.code}</code> (HTTP ${status})</p>
<p><a href="/">Go to the home page</a>${req.webUser ? html` or <a href="/dashboard">the dashboard</a>` : ''}.</p>`,
  });
}
