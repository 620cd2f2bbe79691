import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LoggerModule } from 'nestjs-pino';
import { AiModule } from './ai/ai.module';
import { ApiKeyStore } from './api-keys/api-key.store';
import { ApiKeysService, REVOCATION_LISTENER } from './api-keys/api-keys.service';
import {
  EmbeddedRevocationListener,
  PostgresRevocationListener,
  RevocationListener,
} from './api-keys/revocation-listener';
import { ApiKey } from './api-keys/entities/api-key.entity';
import { Workspace } from './api-keys/entities/workspace.entity';
import { AppConfig, loadConfig } from './config/env';
import { createValidationPipe } from './config/validation';
import { DATABASE_ATTACH, DatabaseRuntime } from './database/database-runtime';
import { DatabaseModule } from './database/database.module';
import { AllExceptionsFilter } from './filters/all-exceptions.filter';
import { ApiKeyGuard } from './guards/api-key.guard';
import { HealthController } from './health/health.controller';
import { JsonBodyParser } from './http/json-body';
import { JobsModule } from './jobs/jobs.module';
import { NotifyModule } from './notify/notify.module';
import { loggerParams } from './logging/logging';
import { MetricsMiddleware } from './metrics/metrics.middleware';
import { MetricsService } from './metrics/metrics.service';
import { RedisService } from './redis/redis.service';
import { AppThrottlerGuard } from './throttling/app-throttler.guard';
import { ThrottlingModule } from './throttling/throttling.module';

export interface CoreOptions {
  /** Settings; default: validated from process.env. Tests pass their own. */
  config?: AppConfig;
  /** Admin CLI: connect to a running server's embedded database instead of failing. */
  attachToRunningDatabase?: boolean;
  /** Leave out HTTP concerns (CLI). */
  http?: boolean;
}

/** Settings and connections every feature module uses (global). */
@Global()
@Module({})
class CoreProvidersModule {
  static forRoot(options: CoreOptions): DynamicModule {
    const config = options.config ?? loadConfig();
    return {
      module: CoreProvidersModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: DATABASE_ATTACH, useValue: options.attachToRunningDatabase ?? false },
        RedisService,
        MetricsService,
      ],
      exports: [AppConfig, DATABASE_ATTACH, RedisService, MetricsService],
    };
  }
}

/** Workspaces and API keys (platform), exported for the CLI and the guard. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Workspace, ApiKey])],
  providers: [
    {
      // Revocations reach every instance: LISTEN on PostgreSQL, or the embedded database's own notifications.
      provide: REVOCATION_LISTENER,
      inject: [AppConfig, DatabaseRuntime, DataSource],
      useFactory: (config: AppConfig, runtime: DatabaseRuntime): RevocationListener | null => {
        if (config.DATABASE_URL) return new PostgresRevocationListener(config.DATABASE_URL);
        const listen = runtime.embeddedListen;
        return listen ? new EmbeddedRevocationListener(listen) : null;
      },
    },
    ApiKeyStore,
    ApiKeysService,
  ],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}

/**
 * The platform: configuration, database, Redis, API keys, logging, metrics, health, and the
 * request pipeline registered once (filter, pipe, guards, interceptor). Every feature module
 * stands on it; an application is `CoreModule.forRoot()` plus the feature modules it ships.
 */
@Module({})
export class CoreModule implements NestModule {
  static forRoot(options: CoreOptions = {}): DynamicModule {
    const core = CoreProvidersModule.forRoot(options);
    if (options.http === false) {
      return { module: CoreModule, imports: [core, DatabaseModule, ApiKeysModule, AiModule, JobsModule, NotifyModule] };
    }
    return {
      module: CoreModule,
      imports: [
        core,
        DatabaseModule,
        ApiKeysModule,
        AiModule,
        JobsModule,
        NotifyModule,
        ThrottlingModule,
        LoggerModule.forRootAsync({ inject: [AppConfig], useFactory: loggerParams }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        // Order matters: authenticate first, so the throttler can count per API key.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: AppThrottlerGuard },
        JsonBodyParser,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(MetricsMiddleware).forRoutes('*');
  }
}
