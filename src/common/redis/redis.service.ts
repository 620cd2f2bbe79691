import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/env';
import { MetricsService } from '../metrics/metrics.service';

/** After a failed or timed-out command, Redis is skipped for this long before it is tried again. */
export const REDIS_RETRY_AFTER_FAILURE_MS = 1000;
/** Longest pause between reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 2000;

/**
 * The optional Redis connection (REDIS_URL). When it is set, rate limits, quotas and caches live in
 * Redis and are shared by every instance; when not, each feature keeps them in its own store.
 * Keys are namespaced by REDIS_KEY_PREFIX through {@link key}.
 *
 * Outages never stall a request: commands time out after REDIS_COMMAND_TIMEOUT_MS, are not queued
 * while disconnected (they fail at once), and are not retried. {@link orFallback} runs a command or
 * a per-use fallback when Redis is down or just failed (then Redis is skipped for a second);
 * the outage is logged once, its end too, and fallbacks are counted in /metrics.
 */
@Injectable()
export class RedisService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client: Redis | null;
  private skipUntil = 0;
  private down = false;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.client = config.REDIS_URL
      ? new Redis(config.REDIS_URL, {
          lazyConnect: false,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
          connectTimeout: Math.max(1000, config.REDIS_COMMAND_TIMEOUT_MS * 4),
          retryStrategy: (attempt: number) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
        })
      : null;
    this.client?.on('error', (e: Error) => this.markDown(e.message));
    this.client?.on('close', () => this.markDown('connection closed'));
    this.client?.on('ready', () => this.markUp());
    this.metrics.redisUp.set(this.client ? 0 : 1);
  }

  /** Start-up: give a configured Redis a moment to connect, so the first requests use it. */
  async onApplicationBootstrap(): Promise<void> {
    const client = this.client;
    if (!client || client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, client.options.connectTimeout);
      function done(): void {
        clearTimeout(timer);
        client!.off('ready', done);
        resolve();
      }
      client.once('ready', done);
    });
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /** True when a command can be sent now: connected, and no recent failure. */
  get usable(): boolean {
    return this.client?.status === 'ready' && Date.now() >= this.skipUntil;
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

  /**
   * `command()` on Redis, or `fallback()` when Redis is not configured, down, recently failed, or
   * fails now (counted as `redis_fallbacks_total{use}`).
   */
  async orFallback<T>(use: string, command: (client: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (!this.client) return fallback();
    if (this.usable) {
      try {
        return await command(this.client);
      } catch (e) {
        this.skipUntil = Date.now() + REDIS_RETRY_AFTER_FAILURE_MS;
        this.markDown((e as Error).message);
      }
    }
    this.metrics.redisFallbacks.inc({ use });
    return fallback();
  }

  async ping(): Promise<boolean> {
    if (!this.client) return true;
    if (this.client.status !== 'ready') return false;
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  private markDown(reason: string): void {
    this.metrics.redisUp.set(0);
    if (this.down) return;
    this.down = true;
    this.logger.warn(
      `Redis unavailable (${reason}): rate limits fall back to this instance's memory until it returns; see docs/operations.md, "Faults".`,
    );
  }

  private markUp(): void {
    this.metrics.redisUp.set(1);
    this.skipUntil = 0;
    if (!this.down) return;
    this.down = false;
    this.logger.log('Redis is reachable again: shared rate limits, quotas and caches resume.');
  }

  async onApplicationShutdown(): Promise<void> {
    const client = this.client;
    if (!client || client.status === 'end') return;
    if (client.status !== 'ready') {
      client.disconnect();
      return;
    }
    await client.quit().catch(() => client.disconnect());
  }
}
