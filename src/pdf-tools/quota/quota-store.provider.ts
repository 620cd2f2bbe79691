import { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RedisService } from '../../common/redis/redis.service';
import { QUOTA_STORE, QuotaStore } from './quota.store';
import { PostgresQuotaStore } from './stores/postgres-quota.store';
import { RedisQuotaStore } from './stores/redis-quota.store';

/** The quota store of this deployment: Redis when REDIS_URL is set, else the database (PostgreSQL or the embedded PGlite). */
export const quotaStoreProvider: Provider = {
  provide: QUOTA_STORE,
  inject: [RedisService, DataSource],
  useFactory: (redis: RedisService, db: DataSource): QuotaStore =>
    redis.client ? new RedisQuotaStore(redis.client, (...parts) => redis.key(...parts)) : new PostgresQuotaStore(db),
};
