import type { Logger } from '@nestjs/common';
import type { BrowserContext, HTTPResponse } from 'puppeteer-core';
import { EGRESS_ERROR_HEADER, EGRESS_HEADER } from '../../common/egress/egress-proxy';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { ScanEgress } from '../security/scan-egress';

/** Chromium's names for the proxy's upstream connection errors (so answers match a direct connection). */
const CHROMIUM_NET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'ERR_CONNECTION_REFUSED',
  ECONNRESET: 'ERR_CONNECTION_RESET',
  ETIMEDOUT: 'ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'ERR_ADDRESS_UNREACHABLE',
  ENOTFOUND: 'ERR_NAME_NOT_RESOLVED',
  EAI_AGAIN: 'ERR_NAME_NOT_RESOLVED',
  ENODATA: 'ERR_NAME_NOT_RESOLVED',
};

/** The error of a scan whose browser crashed (a site scan tries such a page once more: src/a11y/sites/site-run.ts). */
export const BROWSER_CRASHED = 'The browser crashed during the scan; please try again.';

/** A navigation (the page's or a script's) to an address the scan may not reach. */
export function refusedError(reason: string): DomainError {
  return new DomainError(
    ErrorCode.TargetNotAllowed,
    `The page led to an address that may not be scanned (${reason}).`,
    { field: 'url', reason },
  );
}

/**
 * Page-level failures in the API's words: the egress proxy's own answers and whatever the browser
 * threw while a page loaded or was graded (target_*, scan_failed).
 */
export class PageErrors {
  constructor(
    private readonly egress: ScanEgress,
    private readonly logger: Logger,
  ) {}

  /** The egress proxy's own answers: a refused address (DNS rebinding past the page-level check) or a dead host. */
  checkEgress(response: HTTPResponse): void {
    const headers = response.headers();
    const verdict = headers[EGRESS_HEADER];
    if (verdict === 'refused') {
      const host = new URL(response.url()).hostname;
      throw refusedError(this.egress.proxy.refusalFor(host)?.publicReason ?? `${host} is not a public address`);
    }
    if (verdict === 'unreachable') {
      const code = headers[EGRESS_ERROR_HEADER] ?? 'ERROR';
      const reason = CHROMIUM_NET_ERRORS[code] ?? 'ERR_CONNECTION_FAILED';
      throw new DomainError(ErrorCode.TargetUnreachable, `The target could not be reached (${reason}).`, { reason });
    }
  }

  /** Turns a browser failure into the API's errors. */
  classify(
    e: unknown,
    context: BrowserContext,
    refused: { reason?: string },
    timeoutMs: number,
    url?: string,
  ): DomainError {
    if (e instanceof DomainError) return e;
    if (refused.reason) return refusedError(refused.reason);
    const message = e instanceof Error ? e.message : String(e);
    if (url && message.includes('net::ERR_TUNNEL_CONNECTION_FAILED')) {
      // https/wss go through CONNECT: Chromium does not show the proxy's answer, ask the proxy.
      const refusal = this.egress.proxy.refusalFor(new URL(url).hostname.replace(/^\[|\]$/g, ''));
      if (refusal && !refusal.unresolvable) return refusedError(refusal.publicReason);
      if (refusal)
        return new DomainError(
          ErrorCode.TargetUnreachable,
          'The target could not be reached (ERR_NAME_NOT_RESOLVED).',
          { reason: 'ERR_NAME_NOT_RESOLVED' },
        );
    }
    if (!context.browser().connected) {
      return new DomainError(ErrorCode.ScanFailed, BROWSER_CRASHED);
    }
    const net = /net::(ERR_[A-Z_]+)/.exec(message);
    if (net) {
      const code = net[1];
      const what =
        code === 'ERR_ABORTED'
          ? 'The target is not a web page (download or aborted load).'
          : `The target could not be reached (${code}).`;
      return new DomainError(ErrorCode.TargetUnreachable, what, { reason: code });
    }
    if (e instanceof Error && e.name === 'TimeoutError') {
      return new DomainError(ErrorCode.TargetUnreachable, `The page did not load within ${timeoutMs} ms.`, {
        reason: 'timeout',
      });
    }
    this.logger.warn(`Scan failed: ${e instanceof Error ? (e.stack ?? message) : message}`);
    return new DomainError(ErrorCode.ScanFailed, 'The scan failed in the browser; please try again.');
  }
}
