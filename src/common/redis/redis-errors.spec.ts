import Redis from 'ioredis';
import { isRedisUnavailable } from './redis-errors';

describe('isRedisUnavailable', () => {
  it('recognises what ioredis raises for an unreachable server, and nothing else', async () => {
    // A real client to a port nobody listens on, without an offline queue, as RedisService configures it.
    const client = new Redis({ host: '127.0.0.1', port: 1, enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    client.on('error', () => undefined);
    const error = await client.get('x').catch((e: unknown) => e);
    client.disconnect();
    expect(isRedisUnavailable(error)).toBe(true);
    expect(isRedisUnavailable(new Error('Command timed out'))).toBe(true);
    expect(isRedisUnavailable(new Error('Connection is closed.'))).toBe(true);
    expect(isRedisUnavailable(new Error('ERR wrong number of arguments for \'get\' command'))).toBe(false);
    expect(isRedisUnavailable('Command timed out')).toBe(false);
  });
});
