import { Webhook } from 'standardwebhooks';
import { EgressGuard, EgressRefusal, PinnedAddress } from '../egress/egress-guard';
import { pinnedExchange } from '../egress/pinned-request';

/** Longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** Response bytes read (then the connection is closed): the body is not used. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'Beacon-Webhooks/1 (+https://www.standardwebhooks.com/)';

/** The outcome of one attempt; `permanent`: retrying cannot help (refused address). */
export interface WebhookAttempt {
  ok: boolean;
  status?: number;
  error?: string;
  permanent?: boolean;
}

/** A webhook URL as an admin typed it: absolute http(s), a host, no credentials; else a message for the page. */
export function parseWebhookUrl(raw: string): URL | string {
  const s = raw.trim();
  if (!s) return 'Enter the address (URL) that should receive the alerts.';
  if (s.length > MAX_WEBHOOK_URL_LENGTH) return `The address is longer than ${MAX_WEBHOOK_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return 'This is not a complete web address: it should look like https://example.com/hooks/beacon.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `Only http and https addresses can receive webhooks, not ${url.protocol}.`;
  if (!url.hostname) return 'The address has no host name.';
  if (url.username || url.password)
    return 'Put no user name or password in the address: the signature proves that the alert comes from Beacon.';
  url.hash = '';
  return url;
}

/** The reason, in the page's words, why the guard refuses this host; undefined when allowed. */
export async function refusalOf(guard: EgressGuard, url: URL): Promise<string | undefined> {
  try {
    await guard.resolveAll(url.hostname);
    return undefined;
  } catch (e) {
    if (!(e instanceof EgressRefusal)) throw e;
    if (e.unresolvable) return `the host ${url.hostname} could not be found (DNS: ${e.dnsCode ?? 'no address'})`;
    return `${url.hostname} is not on the public internet (${e.plainReason ?? e.publicReason}); alerts are only sent to public addresses`;
  }
}

/**
 * One signed POST (Standard Webhooks: `webhook-id`, `webhook-timestamp` in seconds,
 * `webhook-signature` `v1,<base64 HMAC-SHA256>` over `id.timestamp.body`) to the address the egress
 * guard allows, connecting to that exact address (no second DNS lookup). 2xx is success; redirects
 * are not followed; no complete answer within `timeoutMs` is a failure.
 */
export async function postWebhook(
  guard: EgressGuard,
  url: URL,
  o: { secret: string; messageId: string; body: string; timeoutMs: number; now?: Date },
): Promise<WebhookAttempt> {
  let pinned: PinnedAddress;
  try {
    pinned = await guard.resolveAllowed(url.hostname);
  } catch (e) {
    if (!(e instanceof EgressRefusal)) throw e;
    const why = (await refusalOf(guard, url)) ?? e.publicReason;
    return { ok: false, error: `Refused: ${why}.`, permanent: !e.unresolvable };
  }
  const now = o.now ?? new Date();
  const signature = new Webhook(o.secret).sign(o.messageId, now, o.body);
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': o.messageId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signature,
    'content-length': String(Buffer.byteLength(o.body)),
  };
  const got = await pinnedExchange(url, pinned, {
    method: 'POST',
    headers,
    body: o.body,
    maxBytes: MAX_RESPONSE_BYTES,
    timeoutMs: o.timeoutMs,
  });
  const { status } = got;
  if (status === undefined) return { ok: false, error: 'error' in got ? got.error : 'No answer.' };
  if (status >= 200 && status <= 299) return { ok: true, status };
  if (status >= 300 && status <= 399)
    return {
      ok: false,
      status,
      error: `The endpoint answered HTTP ${status} (a redirect): webhooks do not follow redirects; enter the final address.`,
    };
  return { ok: false, status, error: `The endpoint answered HTTP ${status}.` };
}
