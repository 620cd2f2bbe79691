import { createServer, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a receiver hands it over: its path, headers and body (UTF-8). */
export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface TestReceiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

/** An HTTP receiver on loopback (webhook destinations): hands each request to `onRequest` once read, answers 200 "ok". */
export async function startReceiver(onRequest: (r: ReceivedRequest) => void): Promise<TestReceiver> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      onRequest({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
