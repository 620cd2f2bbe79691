import Redis from 'ioredis';
import { loadConfig } from '../config/env';
import { MetricsService } from '../metrics/metrics.service';
import { isRedisUnavailable } from './redis-errors';
import { RedisService } from './redis.service';

describe('isRedisUnavailable', () => {
  it('recognises what ioredis raises for an unreachable server, and nothing else', async () => {
    // A real client to a port nobody listens on, without an offline queue, as RedisService configures it.
    const client = new Redis({
      host: '127.0.0.1',
      port: 1,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    const error = await client.get('x').catch((e: unknown) => e);
    client.disconnect();
    expect(isRedisUnavailable(error)).toBe(true);
    expect(isRedisUnavailable(new Error('Command timed out'))).toBe(true);
    expect(isRedisUnavailable(new Error('Connection is closed.'))).toBe(true);
    expect(isRedisUnavailable(new Error("ERR wrong number of arguments for 'get' command"))).toBe(false);
    expect(isRedisUnavailable('Command timed out')).toBe(false);
  });
});

describe('RedisService connections', () => {
  it('the shared client fails fast; blocking connections (job queues) wait instead', () => {
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_COMMAND_TIMEOUT_MS: '250' });
    const service = new RedisService(config, new MetricsService());
    const blocking = service.newBlockingConnection();
    try {
      expect(service.client?.options).toMatchObject({
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 2000,
      });
      expect(blocking.options).toMatchObject({ enableOfflineQueue: true, maxRetriesPerRequest: null });
      expect(blocking.options.commandTimeout).toBeUndefined();
    } finally {
      blocking.disconnect();
      service.client?.disconnect();
    }
  });
});
