import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';
import { BullJobQueues } from './bullmq-job-queues';
import { InProcessJobQueues } from './in-process-job-queues';
import { JobQueues } from './job-queues';

/**
 * Provides {@link JobQueues} to every module (global, imported by CoreModule): BullMQ when
 * REDIS_URL is set (keys under REDIS_KEY_PREFIX + 'jobs'), in-process otherwise. Closed at shutdown.
 */
@Global()
@Module({
  providers: [
    {
      provide: JobQueues,
      inject: [AppConfig, RedisService],
      useFactory: (config: AppConfig, redis: RedisService): JobQueues =>
        config.REDIS_URL
          ? new BullJobQueues(() => redis.newBlockingConnection(), redis.key('jobs'))
          : new InProcessJobQueues(),
    },
  ],
  exports: [JobQueues],
})
export class JobsModule {}
