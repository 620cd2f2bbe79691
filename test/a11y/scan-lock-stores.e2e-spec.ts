import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { MemoryScanLockStore } from '../../src/a11y/scan/lock/memory-scan-lock.store';
import { RedisScanLockStore } from '../../src/a11y/scan/lock/redis-scan-lock.store';
import type { ScanLockStore } from '../../src/a11y/scan/lock/scan-lock.store';

/**
 * One contract for every ScanLockStore (the per-client scan lock), run on each technology whatever
 * REDIS_URL says: this instance's memory, and Redis (REDIS_URL, or the CI server on 127.0.0.1:6379)
 * with two stores on separate connections, as two instances would have.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TTL_MS = 60_000;

let clientCounter = 0;
const freshClient = (): string => `198.51.100.${++clientCounter}-${randomBytes(3).toString('hex')}`;

describe('ScanLockStore contract: memory', () => {
  const store: ScanLockStore = new MemoryScanLockStore();

  it('one lock per client: a second acquire is refused until the first is released; other clients go on', async () => {
    const client = freshClient();
    const release = await store.acquire(client, TTL_MS);
    expect(release).toBeDefined();
    expect(await store.acquire(client, TTL_MS)).toBeUndefined();
    const other = await store.acquire(freshClient(), TTL_MS);
    expect(other).toBeDefined();
    await release!();
    const again = await store.acquire(client, TTL_MS);
    expect(again).toBeDefined();
    await again!();
    await other!();
  });

  it('concurrent acquires of one client: exactly one wins', async () => {
    const client = freshClient();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.acquire(client, TTL_MS)));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
  });
});

describe('ScanLockStore contract: Redis, two instances', () => {
  const prefix = `beacon-test:sl:${randomBytes(4).toString('hex')}:`;
  const key = (...parts: string[]): string => prefix + parts.join(':');
  let redis: [Redis, Redis];
  let a: ScanLockStore;
  let b: ScanLockStore;
  beforeAll(() => {
    redis = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    a = new RedisScanLockStore(redis[0], key);
    b = new RedisScanLockStore(redis[1], key);
  });
  afterAll(async () => {
    const keys = await redis[0].keys(`${prefix}*`);
    if (keys.length) await redis[0].del(...keys);
    await Promise.all(redis.map((r) => r.quit()));
  });

  it('a client locked on one instance is refused on the other until released', async () => {
    const client = freshClient();
    const release = await a.acquire(client, TTL_MS);
    expect(release).toBeDefined();
    expect(await b.acquire(client, TTL_MS)).toBeUndefined();
    expect(await a.acquire(client, TTL_MS)).toBeUndefined();
    await release!();
    const onB = await b.acquire(client, TTL_MS);
    expect(onB).toBeDefined();
    await onB!();
  });

  it('the lock expires after its ttl (set on the key), so a crashed instance blocks a client no longer', async () => {
    const client = freshClient();
    const release = await a.acquire(client, 5_000);
    const ttl = await redis[0].pttl(key('a11y', 'client', client));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    await release!();
    expect(await redis[0].exists(key('a11y', 'client', client))).toBe(0);
  });

  it("a release never removes another holder's lock (the first one expired meanwhile)", async () => {
    const client = freshClient();
    const first = await a.acquire(client, TTL_MS);
    await redis[0].del(key('a11y', 'client', client)); // as if it had expired
    const second = await b.acquire(client, TTL_MS);
    expect(second).toBeDefined();
    await first!();
    expect(await redis[0].exists(key('a11y', 'client', client))).toBe(1);
    await second!();
    expect(await redis[0].exists(key('a11y', 'client', client))).toBe(0);
  });

  it('concurrent acquires of one client on both instances: exactly one wins', async () => {
    const client = freshClient();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).acquire(client, TTL_MS)));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
  });
});
