import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/env';

/**
 * The optional Redis connection (REDIS_URL). When it is set, rate limits, quotas and caches live in
 * Redis and are shared by every instance; when not, each feature keeps them in its own store.
 * Keys are namespaced by REDIS_KEY_PREFIX through {@link key}.
 */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client: Redis | null;

  constructor(private readonly config: AppConfig) {
    this.client = config.REDIS_URL
      ? new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true })
      : null;
    this.client?.on('error', (e: Error) => this.logger.warn(`Redis: ${e.message}`));
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /** The namespaced key. */
  key(...parts: string[]): string {
    return this.config.REDIS_KEY_PREFIX + parts.join(':');
  }

  /** Redis client or an error naming the missing setting. */
  required(): Redis {
    if (!this.client) throw new Error('REDIS_URL is not set');
    return this.client;
  }

  async ping(): Promise<boolean> {
    if (!this.client) return true;
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.client && this.client.status !== 'end') await this.client.quit().catch(() => this.client?.disconnect());
  }
}
