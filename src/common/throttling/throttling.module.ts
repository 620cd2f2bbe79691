import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ExecutionContext, Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerModule, ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig } from '../config/env';
import { RATE_LIMIT_BUCKET, RateLimitBucket } from '../decorators/rate-limit.decorator';
import { RedisService } from '../redis/redis.service';
import { MemoryThrottlerStorage } from './memory-throttler-storage';

const reflector = new Reflector();
const bucketOf = (ctx: ExecutionContext): RateLimitBucket | undefined =>
  reflector.getAllAndOverride<RateLimitBucket>(RATE_LIMIT_BUCKET, [ctx.getHandler(), ctx.getClass()]);

/**
 * Throttler counters in Redis (shared by instances, keys namespaced with REDIS_KEY_PREFIX), or in
 * this instance's memory (MemoryThrottlerStorage) when Redis is not configured, down, or slower than
 * REDIS_COMMAND_TIMEOUT_MS: a Redis outage never turns a request into a 500 or a stall, it only
 * makes the limits per instance until Redis returns (logged once, counted in /metrics).
 */
export class ResilientThrottlerStorage implements ThrottlerStorage {
  private readonly memory = new MemoryThrottlerStorage();
  private readonly shared?: ThrottlerStorage;

  constructor(
    private readonly redis: RedisService,
    private readonly prefix: string,
  ) {
    this.shared = redis.client ? new ThrottlerStorageRedisService(redis.client) : undefined;
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, name: string) {
    const k = this.prefix + key;
    const shared = this.shared;
    if (!shared) return this.memory.increment(k, ttl, limit, blockDuration);
    return this.redis.orFallback(
      'rate_limit',
      () => shared.increment(k, ttl, limit, blockDuration, name),
      () => this.memory.increment(k, ttl, limit, blockDuration),
    );
  }

  onApplicationShutdown(): void {
    this.memory.onApplicationShutdown();
  }
}

/**
 * @nestjs/throttler with one named throttler per bucket; a route opts into its bucket with
 * @RateLimit(bucket). In memory per instance by default, in Redis (shared) when REDIS_URL is set,
 * back in memory while Redis is down (see ResilientThrottlerStorage).
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, RedisService],
      useFactory: (config: AppConfig, redis: RedisService) => {
        const bucket = (name: RateLimitBucket, limit: number, windowS: number) => ({
          name,
          limit,
          ttl: windowS * 1000,
          skipIf: (ctx: ExecutionContext) => bucketOf(ctx) !== name,
        });
        return {
          throttlers: [
            bucket('visibility', config.VISIBILITY_RATE_LIMIT, config.VISIBILITY_RATE_WINDOW_S),
            bucket('scan', config.SCAN_RATE_LIMIT, config.SCAN_RATE_WINDOW_S),
            bucket('mcp', config.MCP_RATE_LIMIT, config.MCP_RATE_WINDOW_S),
            bucket('report', config.REPORT_RATE_LIMIT, config.REPORT_RATE_WINDOW_S),
            bucket('pdf-download', config.PDF_DOWNLOAD_RATE_LIMIT, config.PDF_TRANSFER_RATE_WINDOW_S),
            bucket('pdf-upload', config.PDF_UPLOAD_RATE_LIMIT, config.PDF_TRANSFER_RATE_WINDOW_S),
          ],
          storage: new ResilientThrottlerStorage(redis, redis.key('rl', '')),
        };
      },
    }),
  ],
})
export class ThrottlingModule {}
