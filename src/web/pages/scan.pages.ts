import { MAX_CRAWL_PAGES } from '../../a11y/scan/crawl';
import type { Report } from '../../a11y/report/report.types';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { plural } from '../../common/text/plural';
import { waitWords } from '../../common/text/wait-words';
import { html } from '../../common/html/html';
import { page } from '../../common/html/page';
import { errorSummary } from '../render/layout';
import { CSRF_FIELD, WebRequest } from '../web-context';
import type { FormError } from './account.pages';

/** A cached report the scan form was answered with (columns only). */
export type CachedScan = Pick<Report, 'id' | 'url' | 'crawl' | 'score' | 'scannedAt'>;

/** What the scan page shows: the form as entered, and a refusal or a cached answer. */
export interface ScanForm {
  url: string;
  crawl: boolean;
  error?: FormError;
  /** The cached report this address was answered with, and the time of the answer. */
  cached?: CachedScan;
  now?: Date;
  /** The address scanned after https:// was assumed (no scheme typed). */
  assumed?: string;
}

/** Schemes kept as typed (a refused scheme is refused by name, not turned into https://mailto:...). */
const SCHEME = /^([a-z][a-z0-9+.-]*:\/\/|(https?|ftp|file|data|javascript|mailto|tel|about|blob|ws|wss):)/i;

/**
 * The address to scan from what was typed: without a scheme ("example.com", "//example.com"),
 * https:// is assumed, as a browser's address bar does.
 */
export function withScheme(typed: string): { url: string; assumed: boolean } {
  const t = typed.trim();
  if (!t || SCHEME.test(t)) return { url: t, assumed: false };
  return { url: `https://${t.replace(/^\/+/, '')}`, assumed: true };
}

/** Chromium's network errors (the API's `reason`) in the page's words. */
const NET_WORDS: Record<string, string> = {
  ERR_NAME_NOT_RESOLVED: 'no site has this name (check the spelling of the address)',
  ERR_NAME_RESOLUTION_FAILED: 'the name of the site could not be looked up',
  ERR_CONNECTION_REFUSED: 'the server refused the connection (nothing answers at this address and port)',
  ERR_CONNECTION_RESET: 'the server cut the connection',
  ERR_CONNECTION_CLOSED: 'the server closed the connection without an answer',
  ERR_EMPTY_RESPONSE: 'the server closed the connection without an answer',
  ERR_CONNECTION_TIMED_OUT: 'the server did not answer in time',
  ERR_TIMED_OUT: 'the server did not answer in time',
  ERR_CONNECTION_FAILED: 'the connection to the server failed',
  ERR_ADDRESS_UNREACHABLE: 'the server’s address cannot be reached from the internet',
  ERR_UNSAFE_PORT:
    'browsers do not open web pages on this port, as it belongs to another kind of service (for example e-mail)',
  ERR_TOO_MANY_REDIRECTS: 'the page redirects in a loop',
  ERR_SSL_PROTOCOL_ERROR: 'its secure connection (https) failed',
  ERR_SSL_VERSION_OR_CIPHER_MISMATCH: 'its secure connection (https) uses settings browsers no longer accept',
  ERR_CERT_DATE_INVALID: 'its security certificate has expired or is not valid yet',
  ERR_CERT_AUTHORITY_INVALID: 'its security certificate is not issued by a trusted authority',
  ERR_CERT_COMMON_NAME_INVALID: 'its security certificate is for another site',
  ERR_INVALID_RESPONSE: 'the server’s answer could not be read',
  ERR_INVALID_REDIRECT: 'the page redirects to an address that is not valid',
  ERR_BLOCKED_BY_RESPONSE: 'the site does not allow the page to be loaded this way',
  ERR_ABORTED: 'the address is not a web page (a download, or the load was stopped)',
};

/**
 * The address check's ranges (its `reason`, "127.0.0.1 is loopback", written for the API and kept
 * there) in the page's words: why this address is not one Beacon visits.
 */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'this address belongs to this server itself, not to a site on the internet',
  private: "this address belongs to a private network (an office's, a home's or this server's own network)",
  uniqueLocal: "this address belongs to a private network (an office's, a home's or this server's own network)",
  linkLocal:
    'this address only works inside one local network (it is also where cloud servers keep their own settings)',
  carrierGradeNat: "this address belongs to an internet provider's own network",
};

/** Why a scan of this address is refused (400 target_not_allowed), in the page's words. */
function notAllowedWords(message: string, reason: string | undefined): string {
  const host = /^Scanning (.+) is not allowed:/.exec(message)?.[1];
  if (!reason || !host) {
    // The address itself, before any lookup: its scheme or a user name in it.
    if (/^Only http and https/.test(message))
      return `${message.replace(/^Only http and https URLs can be scanned, not (.+)\.$/, 'Addresses starting with $1 cannot be scanned: only web addresses (http:// or https://).')}`;
    if (/credentials/.test(message)) return 'An address with a user name or password in it cannot be scanned.';
    // A page that led the browser elsewhere (a redirect or a script) during the scan.
    return 'The page sent the browser on to an address that is not on the public internet, which Beacon does not visit.';
  }
  if (/does not resolve to a public address$/.test(reason))
    return `Beacon cannot scan ${host}: that name leads to an address that is not on the public internet.`;
  const range = / is ([A-Za-z0-9]+)(?: \(|$)/.exec(reason)?.[1] ?? '';
  return `Beacon cannot scan ${host}: ${RANGE_WORDS[range] ?? 'this address is not one on the public internet'}.`;
}

/** What a scan refusal means for the person who asked, and what to do: never a program's code or message. */
export function scanErrorInWords(
  e: DomainError,
  o: { url: string; crawl: boolean; assumed?: string; limit: number; windowS: number; throttled?: boolean },
): FormError {
  const retry = Number(e.headers['Retry-After']);
  const again = Number.isFinite(retry) && retry > 0 ? ` You can scan again in ${waitWords(retry)}.` : '';
  const tried = o.assumed ? ` (No http:// or https:// was typed, so Beacon tried ${o.assumed}.)` : '';
  const reason = typeof e.details.reason === 'string' ? e.details.reason : undefined;
  switch (e.code) {
    case ErrorCode.BadRequest:
      return {
        message: o.url
          ? 'This is not a web address Beacon can scan. Enter it like example.com or https://example.com/page.'
          : 'Enter the address of the page to scan.',
        field: 'url',
      };
    case ErrorCode.TargetNotAllowed:
      return {
        message: `${notAllowedWords(e.message, reason)}${tried} Beacon only scans public web addresses (http or https, not private or local networks).`,
        field: 'url',
      };
    case ErrorCode.TargetUnreachable: {
      if (reason === 'timeout')
        return {
          message: `The page did not finish loading in time${tried}. Check it opens in a browser, or try again later.`,
          field: 'url',
        };
      const words = reason ? NET_WORDS[reason] : undefined;
      return {
        message: `The site could not be reached${words ? `: ${words}` : ''}.${tried} Check the address in a browser, or try again later.`,
        field: 'url',
      };
    }
    case ErrorCode.TargetHttpError: {
      const status = typeof e.details.status === 'number' ? e.details.status : undefined;
      const what =
        status === 404 || status === 410
          ? ' (the page does not exist)'
          : status !== undefined && status >= 500
            ? ' (a problem on the site’s server)'
            : '';
      return {
        message: `The page answered with an error${status ? `, status ${status}${what}` : ''}.${tried} Check the address in a browser.`,
        field: 'url',
      };
    }
    case ErrorCode.TargetBlocked:
      return {
        message:
          'The site refused the scanner (a bot check or a firewall), so its block page was not graded. Scan a page that allows automated visits.',
        field: 'url',
      };
    case ErrorCode.RateLimited:
      return o.throttled === false
        ? {
            message: `A scan from your address is still running: Beacon runs one scan at a time for each visitor.${again || ' You can scan again when it has finished.'}`,
          }
        : {
            message: `You started many scans in a short time: up to ${plural(o.limit, 'scan')} every ${waitWords(o.windowS)} from one address, and a crawl counts as ${MAX_CRAWL_PAGES}.${again} Your address and choices are kept below.`,
          };
    case ErrorCode.ServiceUnavailable:
      return {
        message: `Many scans are running right now, or the service is restarting.${again || ' Please try again shortly.'}`,
      };
    case ErrorCode.ScanFailed:
      return {
        message:
          'The browser could not finish the scan. Please try again; if it fails again, the page may be too large or too slow to scan.',
      };
    default:
      return { message: e.message };
  }
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const two = (n: number): string => String(n).padStart(2, '0');

/** "12 minutes ago, on Wednesday 25 November 2026 at 18:40 UTC". */
export function scannedWhen(iso: string, now: Date): string {
  const at = new Date(iso);
  const min = Math.floor((now.getTime() - at.getTime()) / 60000);
  const ago =
    min < 1
      ? 'less than a minute ago'
      : min < 120
        ? `${plural(min, 'minute')} ago`
        : min < 2880
          ? `${plural(Math.floor(min / 60), 'hour')} ago`
          : `${plural(Math.floor(min / 1440), 'day')} ago`;
  const date = `${DAYS[at.getUTCDay()]} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
  return `${ago}, on ${date} at ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
}

function cachedNotice(csrf: string, c: CachedScan, now: Date): ReturnType<typeof html> {
  return html`<div class="notice" id="cached" role="status" aria-labelledby="cached-title">
  <h2 id="cached-title">This is the result of an earlier scan</h2>
  <p><strong>${c.url}</strong>${c.crawl ? ' (with crawl)' : ''} was scanned <strong>${scannedWhen(c.scannedAt, now)}</strong>. A scan of the same address within an hour gives that saved result again, so changes made to the page since then are not in it.</p>
  <p><a href="/r/${encodeURIComponent(c.id)}">Open the saved report</a> (score ${c.score} of 100).</p>
  <form method="post" action="/scan">
    <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
    <input type="hidden" name="url" value="${c.url}">
    ${c.crawl ? html`<input type="hidden" name="crawl" value="true">` : ''}
    <input type="hidden" name="fresh" value="true">
    <button type="submit">Scan again now</button> <span class="hint">Scans the page as it is now, and compares it with the previous scan. It counts as a scan towards the limit.</span>
  </form>
</div>`;
}

export function scanPage(csrf: string, o: ScanForm, user?: WebRequest['webUser']): string {
  return page({
    title: o.cached ? 'Accessibility scan: earlier result' : 'Accessibility scan',
    section: 'scan',
    user,
    csrf,
    body: html`<h1>Accessibility scan</h1>
<p>Scans a page in a real browser with axe-core (WCAG 2.2 A and AA) and gives a public report you can share. The API (<code>POST /api/scan</code>) uses the same engine.</p>
${errorSummary(o.error?.message, o.error?.field)}
${o.cached ? cachedNotice(csrf, o.cached, o.now ?? new Date()) : ''}
<form class="stack" method="post" action="/scan">
  <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
  <div><label for="url">Page address</label><br>
  <input type="text" inputmode="url" autocomplete="url" spellcheck="false" autocapitalize="off" id="url" name="url" required maxlength="2048" placeholder="example.com" value="${o.url}" aria-describedby="url-hint"${o.error?.field === 'url' ? html` aria-invalid="true"` : ''}>
  <br><span class="hint" id="url-hint">A public web address, such as example.com or https://example.com/page. Without http:// or https://, Beacon uses https://.</span></div>
  <div><input type="checkbox" id="crawl" name="crawl" value="true"${o.crawl ? html` checked` : ''}> <label for="crawl">Also scan up to ${plural(MAX_CRAWL_PAGES - 1, 'more page', 'more pages')} of the same site (crawl)</label></div>
  <div><button type="submit">Scan</button> <span class="hint">A scan takes a few seconds (longer with crawl).</span></div>
</form>`,
  });
}
