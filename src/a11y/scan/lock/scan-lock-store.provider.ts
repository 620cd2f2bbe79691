import { Provider } from '@nestjs/common';
import { RedisService } from '../../../common/redis/redis.service';
import { MemoryScanLockStore } from './memory-scan-lock.store';
import { RedisScanLockStore } from './redis-scan-lock.store';
import { SCAN_LOCK_STORE, ScanLockStore } from './scan-lock.store';

/** The scan lock of this deployment: Redis when REDIS_URL is set (shared by the instances), else this instance's memory. */
export const scanLockStoreProvider: Provider = {
  provide: SCAN_LOCK_STORE,
  inject: [RedisService],
  useFactory: (redis: RedisService): ScanLockStore =>
    redis.client ? new RedisScanLockStore(redis.client, (...parts) => redis.key(...parts)) : new MemoryScanLockStore(),
};
