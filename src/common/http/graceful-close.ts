import type { Server } from 'node:http';

/**
 * Stops accepting connections and lets in-flight requests finish; idle keep-alive connections
 * are closed at once, and whatever still runs after `timeoutMs` is cut.
 */
export function closeHttpServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
