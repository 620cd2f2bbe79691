import type { LookupAddress } from 'node:dns';
import {
  ClientRequest,
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  request as httpRequest,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { PinnedAddress } from './egress-guard';

/**
 * An http(s) request to `url` that connects to the address the egress guard checked (`pinned`):
 * its lookup never asks DNS again, so the name cannot resolve elsewhere between check and connect.
 * No agent (no pooled connection to another address); the caller ends the request and handles it.
 */
export function pinnedRequest(
  url: URL,
  pinned: PinnedAddress,
  o: { method: string; headers: OutgoingHttpHeaders },
): ClientRequest {
  const lookup = (
    _host: string,
    options: { all?: boolean } | ((...a: unknown[]) => void),
    cb?: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const callback = (typeof options === 'function' ? options : cb)!;
    if (typeof options === 'object' && options.all)
      callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  const https = url.protocol === 'https:';
  return (https ? httpsRequest : httpRequest)({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || (https ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    method: o.method,
    headers: o.headers,
    lookup,
    agent: false,
  });
}

/** An answer read by {@link pinnedExchange}; `truncated`: the body passed `maxBytes` and was cut there. */
export interface PinnedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

/** Why no answer was read: `status` when the headers had arrived. */
export interface PinnedFailure {
  error: string;
  status?: number;
}

/**
 * One whole exchange over {@link pinnedRequest}: sends `body`, reads the answer up to `maxBytes`
 * (then stops reading and closes), and gives up after `timeoutMs`. Redirects are not followed.
 * Messages are in the page's words (sitemaps, robots.txt, webhooks share them).
 */
export function pinnedExchange(
  url: URL,
  pinned: PinnedAddress,
  o: { method: string; headers: OutgoingHttpHeaders; body?: string; maxBytes: number; timeoutMs: number },
): Promise<PinnedAnswer | PinnedFailure> {
  return new Promise((resolve) => {
    let settled = false;
    const req = pinnedRequest(url, pinned, { method: o.method, headers: o.headers });
    const done = (r: PinnedAnswer | PinnedFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ error: `No answer within ${o.timeoutMs} ms.` }), o.timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => done({ error: `Connection failed: ${e.code ?? e.message}.` }));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let read = 0;
      const answer = (truncated: boolean) =>
        done({ status, headers: res.headers, body: Buffer.concat(chunks), truncated });
      res.on('data', (c: Buffer) => {
        read += c.length;
        if (read > o.maxBytes) answer(true);
        else chunks.push(c);
      });
      res.on('error', () => done({ status, error: 'The answer was cut off.' }));
      res.on('end', () => answer(false));
    });
    req.end(o.body);
  });
}
