import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSecretsStore } from '../secrets/app-secrets.store';
import { InstanceSecretsService } from '../secrets/instance-secrets.service';
import { SecretBoxService } from '../secrets/secret-box';
import { DATABASE_ATTACH, DatabaseRuntime } from './database-runtime';

/**
 * Provides the TypeORM DataSource (PostgreSQL from DATABASE_URL, or the embedded PGlite), migrated
 * before anything uses it. It is registered under the token `TypeOrmModule.forFeature()` expects,
 * so feature modules get repositories the usual way. Also the instance secrets and SecretBoxService
 * (sealing keyed from them) for every module that stores a third party's secret.
 */
@Global()
@Module({
  providers: [
    DatabaseRuntime,
    {
      provide: DataSource,
      inject: [DatabaseRuntime, DATABASE_ATTACH],
      useFactory: (runtime: DatabaseRuntime, attach: boolean) => runtime.open(attach),
    },
    AppSecretsStore,
    InstanceSecretsService,
    SecretBoxService,
  ],
  exports: [DataSource, DatabaseRuntime, InstanceSecretsService, SecretBoxService],
})
export class DatabaseModule {}
