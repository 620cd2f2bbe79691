import { Logger } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { AddressPolicy } from './address-policy';
import { EgressGuard, EgressRefusal, Resolver, systemResolver } from './egress-guard';

export { systemResolver };
export type { Resolver };

/**
 * The verdict on one URL: allowed, or refused. `reason` is safe for the client (for a host name it
 * does not say what the name resolves to); `detail` names the address, for logs.
 */
export type Verdict = { allowed: true } | { allowed: false; reason: string; detail?: string; unresolvable?: boolean };

const logger = new Logger('EgressGuard');

const MAX_URL_LENGTH = 2048;

/**
 * Parses a scan target given by a client: absolute http(s) URL with a host, no credentials.
 * Missing or malformed: 400 bad_request naming `url`; another scheme: 400 target_not_allowed.
 * Returns the normalised URL (WHATWG parsing canonicalises host spellings such as `127.1`,
 * `2130706433` or `0x7f.1` to dotted quads; the fragment is dropped).
 */
export function parseTargetUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw DomainError.badRequest('Invalid url: a URL to scan is required.', 'url');
  }
  if (raw.length > MAX_URL_LENGTH)
    throw DomainError.badRequest(`Invalid url: longer than ${MAX_URL_LENGTH} characters.`, 'url');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw DomainError.badRequest('Invalid url: not an absolute URL (e.g. https://example.com/).', 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DomainError(ErrorCode.TargetNotAllowed, `Only http and https URLs can be scanned, not ${url.protocol}.`, {
      field: 'url',
    });
  }
  if (!url.hostname) throw DomainError.badRequest('Invalid url: the URL has no host.', 'url');
  if (url.username || url.password) {
    throw new DomainError(ErrorCode.TargetNotAllowed, 'URLs with credentials cannot be scanned.', { field: 'url' });
  }
  url.hash = '';
  return url;
}

/**
 * The SSRF gate: a URL is allowed only when it is http(s) and every address its host resolves to
 * is public (see address-policy). Used before navigation and, through {@link verdict}, for every
 * request the page makes. Verdicts are memoised per host for the life of the guard (one scan).
 */
export class TargetGuard {
  private readonly memo = new Map<string, Promise<Verdict>>();
  private readonly egress: EgressGuard;

  constructor(policy: AddressPolicy, resolver: Resolver = systemResolver) {
    this.egress = new EgressGuard(policy, resolver);
  }

  /** Verdict for any URL string the browser is about to fetch. */
  async verdict(rawUrl: string): Promise<Verdict> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { allowed: false, reason: 'malformed URL' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return { allowed: false, reason: `scheme ${url.protocol}` };
    if (url.username || url.password) return { allowed: false, reason: 'credentials in URL' };
    const host = url.hostname.toLowerCase();
    let v = this.memo.get(host);
    if (!v) {
      v = this.hostVerdict(host);
      this.memo.set(host, v);
    }
    return v;
  }

  /** Throws 400 target_not_allowed (or 422 target_unreachable when the name does not resolve). */
  async assertAllowed(url: URL): Promise<void> {
    const v = await this.verdict(url.href);
    if (v.allowed) return;
    if (v.unresolvable) {
      throw new DomainError(ErrorCode.TargetUnreachable, `The host ${url.hostname} could not be resolved.`, {
        reason: v.reason,
      });
    }
    throw new DomainError(ErrorCode.TargetNotAllowed, `Scanning ${url.hostname} is not allowed: ${v.reason}.`, {
      field: 'url',
      reason: v.reason,
    });
  }

  private async hostVerdict(host: string): Promise<Verdict> {
    try {
      await this.egress.resolveAll(host);
      return { allowed: true };
    } catch (e) {
      if (!(e instanceof EgressRefusal)) throw e;
      if (!e.unresolvable) logger.log(`Refused ${host}: ${e.detail}`);
      return { allowed: false, reason: e.publicReason, detail: e.detail, unresolvable: e.unresolvable };
    }
  }
}
