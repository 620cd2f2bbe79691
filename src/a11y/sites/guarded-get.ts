import type { IncomingHttpHeaders } from 'node:http';
import { EgressGuard, EgressRefusal, PinnedAddress } from '../../common/egress/egress-guard';
import { pinnedExchange } from '../../common/egress/pinned-request';

export const SITE_FETCH_USER_AGENT = 'BeaconA11yMonitor/1.0 (+https://github.com/beacon)';

export type GetResult =
  | { ok: true; status: number; body: Buffer; contentType: string; headers: IncomingHttpHeaders }
  | { ok: false; status?: number; error: string; headers?: IncomingHttpHeaders };

/**
 * One GET of a small file of a site (sitemap, robots.txt, the ownership file, a page read for its
 * links) to the address the egress guard allows, connecting to that exact address (no second DNS
 * lookup). Redirects are not followed (a 3xx is not ok; its headers say where); the body is cut
 * off at `maxBytes` (an error); no complete answer within `timeoutMs` is an error.
 */
export async function guardedGet(
  guard: EgressGuard,
  url: URL,
  o: { maxBytes: number; timeoutMs: number },
): Promise<GetResult> {
  let pinned: PinnedAddress;
  try {
    pinned = await guard.resolveAllowed(url.hostname);
  } catch (e) {
    if (!(e instanceof EgressRefusal)) throw e;
    return { ok: false, error: `Refused: ${e.plainReason ?? e.publicReason}.` };
  }
  const got = await pinnedExchange(url, pinned, {
    method: 'GET',
    headers: { 'user-agent': SITE_FETCH_USER_AGENT, accept: '*/*' },
    ...o,
  });
  if ('error' in got) return { ok: false, status: got.status, error: got.error };
  const { status, headers } = got;
  if (got.truncated) return { ok: false, status, headers, error: `The file is larger than ${o.maxBytes} bytes.` };
  if (status < 200 || status > 299) return { ok: false, status, headers, error: `HTTP ${status}.` };
  return { ok: true, status, body: got.body, contentType: String(headers['content-type'] ?? ''), headers };
}
