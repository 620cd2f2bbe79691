import type Redis from 'ioredis';
import { QuotaCounter, QuotaReservation, QuotaScope, QuotaStore, REFUNDS_TOOL } from '../quota.store';

/**
 * Quota counters in Redis, one key per day, subject and tool, expiring after `ttlSeconds`. Atomic
 * through Lua scripts (Redis runs one script at a time). Every key of one call carries the scope's
 * group as hash tag, so a Redis Cluster keeps them in one slot.
 */
export class RedisQuotaStore implements QuotaStore {
  /**
   * @param client the connection (RedisService.client)
   * @param key the namespaced key of its parts (RedisService.key: REDIS_KEY_PREFIX)
   */
  constructor(
    private readonly client: Redis,
    private readonly key: (...parts: string[]) => string,
  ) {}

  async reserve(
    scope: QuotaScope,
    tool: string,
    counters: readonly QuotaCounter[],
    ttlSeconds: number,
  ): Promise<QuotaReservation> {
    const keys = counters.map((c) => this.counterKey(scope, c.subject, tool));
    const r = (await this.client.eval(
      RESERVE_LUA,
      keys.length,
      ...keys,
      ttlSeconds,
      ...counters.map((c) => c.cap),
    )) as number[];
    return { allowed: r[0] === 1, used: r.slice(1).map(Number) };
  }

  async refund(
    scope: QuotaScope,
    tool: string,
    subjects: readonly string[],
    allowance: QuotaCounter,
    ttlSeconds: number,
  ): Promise<boolean> {
    const keys = [
      this.counterKey(scope, allowance.subject, REFUNDS_TOOL),
      ...subjects.map((s) => this.counterKey(scope, s, tool)),
    ];
    return ((await this.client.eval(REFUND_LUA, keys.length, ...keys, allowance.cap, ttlSeconds)) as number) === 1;
  }

  async read(scope: QuotaScope, tool: string, subjects: readonly string[]): Promise<number[]> {
    if (subjects.length === 0) return [];
    const values = await this.client.mget(...subjects.map((s) => this.counterKey(scope, s, tool)));
    return values.map((v) => Number(v ?? 0));
  }

  private counterKey(scope: QuotaScope, subject: string, tool: string): string {
    return this.key('pdfq', scope.day, `{${scope.group}}`, subject, tool);
  }
}

/** KEYS: the counters. ARGV: ttl, then each counter's cap. Returns {allowed, used...}. */
const RESERVE_LUA = `
local used = {}
for i = 1, #KEYS do
  used[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
end
for i = 1, #KEYS do
  if used[i] >= tonumber(ARGV[i + 1]) then return {0, unpack(used)} end
end
for i = 1, #KEYS do
  used[i] = redis.call('INCR', KEYS[i])
  redis.call('EXPIRE', KEYS[i], ARGV[1])
end
return {1, unpack(used)}`;

/** KEYS: the refund allowance, then the counters to give back. ARGV: allowance cap, ttl. Returns 1 when refunded. */
const REFUND_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
for i = 2, #KEYS do
  local v = tonumber(redis.call('GET', KEYS[i]) or '0')
  if v > 0 then redis.call('DECR', KEYS[i]) end
end
return 1`;
