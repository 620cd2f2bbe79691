import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ExecutionContext, Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerModule, ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { AppConfig } from '../config/env';
import { RATE_LIMIT_BUCKET, RateLimitBucket } from '../decorators/rate-limit.decorator';
import { RedisService } from '../redis/redis.service';

const reflector = new Reflector();
const bucketOf = (ctx: ExecutionContext): RateLimitBucket | undefined =>
  reflector.getAllAndOverride<RateLimitBucket>(RATE_LIMIT_BUCKET, [ctx.getHandler(), ctx.getClass()]);

/** Namespaces throttler keys with REDIS_KEY_PREFIX so deployments (and test runs) sharing a Redis don't mix. */
class PrefixedStorage implements ThrottlerStorage {
  constructor(
    private readonly inner: ThrottlerStorage,
    private readonly prefix: string,
  ) {}
  increment(key: string, ttl: number, limit: number, blockDuration: number, name: string) {
    return this.inner.increment(this.prefix + key, ttl, limit, blockDuration, name);
  }
}

/**
 * @nestjs/throttler with one named throttler per bucket; a route opts into its bucket with
 * @RateLimit(bucket). In memory per instance by default, in Redis (shared) when REDIS_URL is set.
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
            bucket('pdf-download', config.PDF_DOWNLOAD_RATE_LIMIT, config.PDF_TRANSFER_RATE_WINDOW_S),
            bucket('pdf-upload', config.PDF_UPLOAD_RATE_LIMIT, config.PDF_TRANSFER_RATE_WINDOW_S),
          ],
          storage: new PrefixedStorage(
            redis.client ? new ThrottlerStorageRedisService(redis.client) : new ThrottlerStorageService(),
            redis.key('rl', ''),
          ),
        };
      },
    }),
  ],
})
export class ThrottlingModule {}
