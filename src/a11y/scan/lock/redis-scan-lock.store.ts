import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { MemoryScanLockStore } from './memory-scan-lock.store';
import type { ScanLockRelease, ScanLockStore } from './scan-lock.store';

/** Releases a Redis lock only if it still holds our token. */
const RELEASE_LOCK =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * The scan lock across instances: this instance's memory first (no round trip for a client
 * already scanning here), then a Redis key with a random token (SET NX PX), released only by its
 * holder. Redis failing lets the scan go (this instance's lock still holds).
 */
export class RedisScanLockStore implements ScanLockStore {
  private readonly local = new MemoryScanLockStore();

  constructor(
    private readonly redis: Redis,
    private readonly key: (...parts: string[]) => string,
  ) {}

  async acquire(client: string, ttlMs: number): Promise<ScanLockRelease | undefined> {
    const releaseLocal = await this.local.acquire(client);
    if (!releaseLocal) return undefined;
    const lock = this.key('a11y', 'client', client);
    const token = randomBytes(12).toString('hex');
    const got = await this.redis.set(lock, token, 'PX', ttlMs, 'NX').catch(() => 'OK');
    if (got !== 'OK') {
      await releaseLocal();
      return undefined;
    }
    return async () => {
      await releaseLocal();
      await this.redis.eval(RELEASE_LOCK, 1, lock, token).catch(() => undefined);
    };
  }
}
