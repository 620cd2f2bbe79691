import type { LookupAddress } from 'node:dns';
import { ClientRequest, OutgoingHttpHeaders, request as httpRequest } from 'node:http';
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
