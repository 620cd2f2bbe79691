import { ThrottlerStorageService } from '@nestjs/throttler';
import { MemoryThrottlerStorage } from './memory-throttler-storage';

describe('MemoryThrottlerStorage', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-27T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it("answers as @nestjs/throttler's ThrottlerStorageService does, request after request", async () => {
    const ours = new MemoryThrottlerStorage();
    const theirs = new ThrottlerStorageService();
    let seed = 11;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    // Two buckets: with a block (the guard's buckets) and without one; a few keys; time moving in uneven steps.
    const buckets = [
      { name: 'visibility', ttl: 10_000, limit: 5, block: 10_000 },
      { name: 'auth', ttl: 3_000, limit: 3, block: 0 },
    ];
    for (let i = 0; i < 3000; i++) {
      const b = buckets[rnd(2)];
      const key = `${b.name}:key:${rnd(3)}`;
      const a = await ours.increment(key, b.ttl, b.limit, b.block);
      const e = await theirs.increment(key, b.ttl, b.limit, b.block, b.name);
      expect({ i, ...a }).toEqual({ i, ...e });
      jest.advanceTimersByTime([0, 1, 37, 400, 1500, 4000][rnd(6)]);
    }
    ours.onApplicationShutdown();
    theirs.onApplicationShutdown();
  });

  it('keeps counting over many hits in one window (the oldest expire first)', async () => {
    const s = new MemoryThrottlerStorage();
    for (let i = 0; i < 5000; i++) {
      const r = await s.increment('k', 1000, 1_000_000, 1000);
      expect(r.totalHits).toBe(Math.min(i + 1, 1000));
      jest.advanceTimersByTime(1);
    }
    s.onApplicationShutdown();
  });
});
