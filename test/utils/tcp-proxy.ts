import { AddressInfo, createServer, connect, Server, Socket } from 'node:net';

/**
 * A TCP proxy on a loopback port in front of a loopback service (PostgreSQL), for fault tests: it
 * can cut every open connection, refuse new ones (nothing listens on its port), come back on the
 * same port, and slow down what clients send (a slow link). Never touches the service itself.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  /** Bytes per second clients may send through, or unlimited. */
  private rate?: number;
  port = 0;

  private constructor(private readonly targetPort: number) {}

  static async start(targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetPort);
    await proxy.listen(0);
    return proxy;
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect({ host: '127.0.0.1', port: this.targetPort });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      upstream.pipe(client);
      // Client to service with backpressure, each chunk held for its time at the rate when throttled.
      client.on('data', (chunk: Buffer) => {
        client.pause();
        const send = () => (upstream.write(chunk) ? client.resume() : upstream.once('drain', () => client.resume()));
        if (this.rate) setTimeout(send, (chunk.length / this.rate) * 1000);
        else send();
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    return new Promise((resolve) => {
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  /** Lets clients send at most `bytesPerSecond` (each connection), or as fast as they can (undefined). */
  throttle(bytesPerSecond: number | undefined): void {
    this.rate = bytesPerSecond;
  }

  /** Drops every open connection (as a server crash or a network cut does). */
  cut(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** Cuts and stops listening: new connections are refused (ECONNREFUSED). */
  async refuse(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.cut();
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.refuse();
  }
}
