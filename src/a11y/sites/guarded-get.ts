import type { IncomingMessage } from 'node:http';
import { EgressGuard, EgressRefusal, PinnedAddress } from '../../common/egress/egress-guard';
import { pinnedRequest } from '../../common/egress/pinned-request';

export const SITE_FETCH_USER_AGENT = 'BeaconA11yMonitor/1.0 (+https://github.com/beacon)';

export type GetResult =
  { ok: true; status: number; body: Buffer; contentType: string } | { ok: false; status?: number; error: string };

/**
 * One GET of a small file of a site (sitemap, robots.txt, the ownership file) to the address the
 * egress guard allows, connecting to that exact address (no second DNS lookup). Redirects are not
 * followed; the body is cut off at `maxBytes` (an error); no complete answer within `timeoutMs` is an error.
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
  return new Promise<GetResult>((resolve) => {
    let settled = false;
    const req = pinnedRequest(url, pinned, {
      method: 'GET',
      headers: { 'user-agent': SITE_FETCH_USER_AGENT, accept: '*/*' },
    });
    const done = (r: GetResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ ok: false, error: `No answer within ${o.timeoutMs} ms.` }), o.timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) =>
      done({ ok: false, error: `Connection failed: ${e.code ?? e.message}.` }),
    );
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let read = 0;
      res.on('data', (c: Buffer) => {
        read += c.length;
        if (read > o.maxBytes) done({ ok: false, status, error: `The file is larger than ${o.maxBytes} bytes.` });
        else chunks.push(c);
      });
      res.on('error', () => done({ ok: false, status, error: 'The answer was cut off.' }));
      res.on('end', () => {
        if (status >= 200 && status <= 299)
          done({
            ok: true,
            status,
            body: Buffer.concat(chunks),
            contentType: String(res.headers['content-type'] ?? ''),
          });
        else done({ ok: false, status, error: `HTTP ${status}.` });
      });
    });
    req.end();
  });
}
