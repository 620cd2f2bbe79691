import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A page served by the test itself on 127.0.0.1. */
export interface FixtureServer {
  origin: string;
  port: number;
  /** Requests received per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, origin: string) => void;

export const html = (body: string, title = 'Fixture', lang = 'en'): string =>
  `<!DOCTYPE html><html${lang ? ` lang="${lang}"` : ''}><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

export function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
}

/**
 * Starts a server on 127.0.0.1 (or another loopback `host`, e.g. 127.0.0.2 standing in for an
 * internal service) answering from `routes` (path -> handler); 404 otherwise. WebSocket upgrade
 * attempts are counted in `hits` as `WS <path>` and refused.
 */
export async function startFixtureServer(
  routes: Record<string, Handler>,
  opts: { host?: string; port?: number } = {},
): Promise<FixtureServer> {
  const host = opts.host ?? '127.0.0.1';
  const hits = new Map<string, number>();
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const h = routes[path];
    if (h) h(req, res, origin);
    else send(res, 404, html('<main><h1>Not found</h1></main>', 'Not found'));
  });
  server.on('upgrade', (req, socket) => {
    const key = `WS ${new URL(req.url ?? '/', 'http://x').pathname}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://${host}:${port}`;
  return {
    origin,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A page with known violations of WCAG A/AA rules. */
export const BAD_PAGE = html(
  `<main>
  <h1>Bad page</h1>
  <img id="logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <button id="empty-button"></button>
  <label>Name</label><input id="name-input" type="text">
  <p id="faint" style="color:#ccc;background:#fff">Low contrast text</p>
  </main>`,
  'Bad page',
  '',
);

/** A page that passes every automated check. */
export const GOOD_PAGE = html(
  `<main><h1>Good page</h1><p>Plain, readable text.</p>
   <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="A dot">
   <label for="q">Search</label> <input id="q" type="text">
   <button type="button">Go</button></main>`,
  'Good page',
);
