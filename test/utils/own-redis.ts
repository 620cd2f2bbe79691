import { ChildProcess, spawn } from 'node:child_process';
import { AddressInfo, createServer } from 'node:net';
import Redis from 'ioredis';

/** A free loopback port (bound, read, released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Kills a Redis server started by {@link startRedis} and waits for it to exit. */
export async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/**
 * A Redis server of the test's own on `port` (never the shared one: fault tests stop, flush and
 * restart it), in memory only; resolves once it answers PING.
 */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const probe = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return child;
    } catch {
      probe.disconnect();
      if (Date.now() > deadline) {
        await stopRedis(child);
        throw new Error('redis-server did not start');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
