/**
 * Over 300 lines: the three ways Chromium's traffic passes the proxy (plain requests, CONNECT tunnels, Upgrade) share
 * one address check, one refusal answer and one set of tracked connections, so no path can skip the guard unnoticed.
 */
import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  request as httpRequest,
  Server,
  ServerResponse,
} from 'node:http';
import { AddressInfo, connect as netConnect, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { EgressGuard, EgressRefusal, PinnedAddress } from './egress-guard';

/** Response header by which the proxy marks its own answers (never passed through from upstream). */
export const EGRESS_HEADER = 'x-beacon-egress';
/** With `x-beacon-egress: unreachable`: the Node error code of the failed upstream connection. */
export const EGRESS_ERROR_HEADER = 'x-beacon-egress-error';
/** A connection with no traffic for this long is closed (both sides). */
export const EGRESS_IDLE_MS = 60_000;
/** Connecting to an upstream address gives up after this long. */
export const EGRESS_CONNECT_TIMEOUT_MS = 15_000;
/** Client connections the proxy holds at once (each tab opens a handful). */
export const EGRESS_MAX_CONNECTIONS = 512;
/** Recent refusals remembered per host (so a caller can tell a refused tunnel from a dead host). */
const REMEMBERED_REFUSALS = 256;

/** Hop-by-hop headers (RFC 9110 7.6.1) and the proxy's own: never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export interface RefusalRecord {
  host: string;
  publicReason: string;
  detail: string;
  unresolvable: boolean;
}

function forwardable(headers: IncomingHttpHeaders, keepUpgrade = false): Record<string, string | string[]> {
  const listed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || k === EGRESS_HEADER || k === EGRESS_ERROR_HEADER) continue;
    if (keepUpgrade && (k === 'upgrade' || k === 'connection')) {
      out[k] = v;
      continue;
    }
    if (HOP_BY_HOP.has(k) || listed.has(k)) continue;
    out[k] = v;
  }
  return out;
}

/** host:port of a CONNECT request line (`example.com:443`, `[::1]:8443`). */
export function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/@\s]+):(\d{1,5})$/.exec(authority);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: m[1], port };
}

/**
 * Beacon's forwarding proxy for Chromium (`--proxy-server`, loopback not bypassed): every request
 * of every target (pages, popups, frames, dedicated/shared/service workers, prefetch, WebSocket)
 * reaches the network only through here. For each connection the proxy resolves the host itself
 * with {@link EgressGuard}, refuses it unless every address is allowed, and connects to the exact
 * address it checked: DNS rebinding has no second lookup to play with.
 *
 * - plain HTTP: absolute-form requests (`GET http://host/path`) are forwarded, one upstream
 *   connection per request, hop-by-hop headers dropped;
 * - CONNECT (https, wss and ws: Chromium tunnels WebSockets): a TCP tunnel to the pinned address;
 * - `Upgrade` on a plain request: forwarded as a raw tunnel after the same check.
 *
 * Refused: HTTP 403 with `x-beacon-egress: refused` (the tunnel is never opened); upstream down:
 * 502 with `x-beacon-egress: unreachable` and `x-beacon-egress-error: <code>`. Listens on 127.0.0.1
 * only; any local process could use it, but it grants nothing that process could not do itself
 * (the policy is the public-internet policy, unless the tests-only loopback setting is on).
 */
export class EgressProxy {
  private readonly logger = new Logger('EgressProxy');
  private server: Server | undefined;
  private readonly sockets = new Set<Duplex>();
  /** The latest refusal per host, the oldest written out first (read with peek: a read does not keep one longer). */
  private readonly refusals = new LRUCache<string, RefusalRecord>({ max: REMEMBERED_REFUSALS });
  /** Connections refused so far (for tests and metrics). */
  refused = 0;

  /** `guard` is called per connection, so a test can swap the resolver or policy at any time. */
  constructor(private readonly guard: () => EgressGuard) {}

  get port(): number | undefined {
    return this.server ? (this.server.address() as AddressInfo | null)?.port : undefined;
  }

  /** `--proxy-server` value for Chromium. */
  get url(): string {
    if (!this.port) throw new Error('The egress proxy is not listening');
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<number> {
    if (this.server) return this.port!;
    const server = createServer({ requireHostHeader: false });
    server.maxConnections = EGRESS_MAX_CONNECTIONS;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void this.forward(req, res));
    server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(req, socket, head));
    server.on('connection', (s: Socket) => this.track(s));
    server.on('clientError', (_e, socket: Duplex) => socket.destroy());
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return this.port!;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    for (const sock of this.sockets) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** The latest refusal of `host` (lowercase, brackets for IPv6), if it was refused recently. */
  refusalFor(host: string): RefusalRecord | undefined {
    return this.refusals.peek(host.toLowerCase());
  }

  private track(s: Duplex): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    if (s instanceof Socket) {
      s.setTimeout(EGRESS_IDLE_MS, () => s.destroy());
    }
  }

  /** The pinned address of `host`, or undefined after answering the refusal through `refuse`. */
  private async check(host: string, refuse: (r: EgressRefusal) => void): Promise<PinnedAddress | undefined> {
    try {
      return await this.guard().resolveAllowed(host);
    } catch (e) {
      const r =
        e instanceof EgressRefusal
          ? e
          : new EgressRefusal(host, 'lookup failed', (e as Error).message, true, 'EAI_FAIL');
      this.refused++;
      const key = host.toLowerCase();
      this.refusals.set(key, {
        host: key,
        publicReason: r.publicReason,
        detail: r.detail,
        unresolvable: r.unresolvable,
      });
      if (!r.unresolvable) this.logger.log(`Refused ${host}: ${r.detail}`);
      refuse(r);
      return undefined;
    }
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res
        .writeHead(400, { 'content-type': 'text/plain', [EGRESS_HEADER]: 'bad-request' })
        .end('Absolute http:// URLs only.');
      return;
    }
    if (url.protocol !== 'http:') {
      res
        .writeHead(400, { 'content-type': 'text/plain', [EGRESS_HEADER]: 'bad-request' })
        .end('Only http:// is forwarded; use CONNECT.');
      return;
    }
    const pinned = await this.check(url.hostname, (r) => this.answerRefused(res, r));
    if (!pinned) return;
    const headers = forwardable(req.headers);
    headers.host = url.host;
    const up = httpRequest({
      host: pinned.address,
      family: pinned.family,
      port: Number(url.port || 80),
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      agent: false,
      timeout: EGRESS_CONNECT_TIMEOUT_MS,
    });
    up.on('timeout', () => up.destroy(Object.assign(new Error('upstream timeout'), { code: 'ETIMEDOUT' })));
    up.on('response', (upRes) => {
      up.setTimeout(EGRESS_IDLE_MS);
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, forwardable(upRes.headers));
      upRes.pipe(res);
      upRes.on('error', () => res.destroy());
    });
    up.on('error', (e: NodeJS.ErrnoException) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res
        .writeHead(502, {
          'content-type': 'text/plain',
          [EGRESS_HEADER]: 'unreachable',
          [EGRESS_ERROR_HEADER]: e.code ?? 'ERROR',
        })
        .end('Upstream unreachable.');
    });
    res.on('close', () => up.destroy());
    req.pipe(up);
  }

  private answerRefused(res: ServerResponse, r: EgressRefusal): void {
    if (r.unresolvable) {
      res
        .writeHead(502, {
          'content-type': 'text/plain',
          [EGRESS_HEADER]: 'unreachable',
          [EGRESS_ERROR_HEADER]: r.dnsCode ?? 'ENOTFOUND',
        })
        .end('Host not found.');
    } else {
      res
        .writeHead(403, { 'content-type': 'text/plain', [EGRESS_HEADER]: 'refused' })
        .end('Refused by the egress policy.');
    }
  }

  private async tunnel(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    this.track(socket);
    socket.on('error', () => socket.destroy());
    const target = parseAuthority(req.url ?? '');
    if (!target) {
      socket.end(
        `HTTP/1.1 400 Bad Request\r\n${EGRESS_HEADER}: bad-request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    const pinned = await this.check(target.host.replace(/^\[|\]$/g, ''), (r) => {
      const status = r.unresolvable ? '502 Bad Gateway' : '403 Forbidden';
      socket.end(
        `HTTP/1.1 ${status}\r\n${EGRESS_HEADER}: ${r.unresolvable ? 'unreachable' : 'refused'}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
    });
    if (!pinned) return;
    this.pipeTo(pinned, target.port, socket, (up) => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
    });
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    this.track(socket);
    socket.on('error', () => socket.destroy());
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:' && url.protocol !== 'ws:') throw new Error('scheme');
    } catch {
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    const pinned = await this.check(url.hostname, () => {
      socket.end(
        `HTTP/1.1 403 Forbidden\r\n${EGRESS_HEADER}: refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
    });
    if (!pinned) return;
    const headers = forwardable(req.headers, true);
    headers.host = url.host;
    const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`];
    for (const [k, v] of Object.entries(headers))
      for (const one of Array.isArray(v) ? v : [v]) lines.push(`${k}: ${one.replace(/[\r\n]/g, '')}`);
    this.pipeTo(pinned, Number(url.port || 80), socket, (up) => {
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
    });
  }

  /** Opens a TCP connection to the pinned address and splices it with the client socket. */
  private pipeTo(pinned: PinnedAddress, port: number, client: Duplex, onConnect: (up: Socket) => void): void {
    const up = netConnect({ host: pinned.address, port, family: pinned.family });
    this.track(up);
    const timer = setTimeout(
      () => up.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })),
      EGRESS_CONNECT_TIMEOUT_MS,
    );
    let connected = false;
    up.once('connect', () => {
      connected = true;
      clearTimeout(timer);
      onConnect(up);
      up.pipe(client);
      client.pipe(up);
    });
    up.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!connected) {
        client.end(
          `HTTP/1.1 502 Bad Gateway\r\n${EGRESS_HEADER}: unreachable\r\n${EGRESS_ERROR_HEADER}: ${e.code ?? 'ERROR'}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
        );
      } else {
        client.destroy();
      }
    });
    up.on('close', () => {
      if (connected) client.destroy();
    });
    client.on('close', () => up.destroy());
  }
}
