import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/env';
import { dataSourceOptions, runMigrations } from './data-source-options';
import { EmbeddedDatabaseHandle, openEmbeddedDatabase } from './embedded-postgres';

/**
 * Injection token: true in the admin CLI, which connects to a running server's embedded database
 * instead of failing when the folder is in use.
 */
export const DATABASE_ATTACH = 'beacon:databaseAttach';

/** Pool size on the embedded database: PGlite runs one query at a time anyway. */
const EMBEDDED_POOL = 4;

/**
 * Owns the process's database connection: DATABASE_URL's server, or the embedded PGlite in DATA_DIR.
 * Opens it, applies migrations, and on shutdown closes the pool before the embedded database.
 */
@Injectable()
export class DatabaseRuntime implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private embedded?: EmbeddedDatabaseHandle;
  private dataSource?: DataSource;
  /** Migrations applied when this process opened the database. */
  appliedMigrations: string[] = [];

  constructor(private readonly config: AppConfig) {}

  /** Creates, connects and migrates the DataSource (called once by TypeOrmModule's factory). */
  async open(attachToRunningServer = false): Promise<DataSource> {
    let url = this.config.DATABASE_URL;
    let pool = this.config.DATABASE_POOL_SIZE;
    if (!url) {
      this.embedded = await openEmbeddedDatabase(this.config.DATA_DIR, attachToRunningServer);
      url = this.embedded.url;
      pool = Math.min(pool, EMBEDDED_POOL);
      this.logger.log(
        this.embedded.owned
          ? `Embedded PostgreSQL (PGlite) in ${this.config.DATA_DIR}`
          : `Connected to the embedded PostgreSQL of the running server (${this.config.DATA_DIR})`,
      );
    }
    const dataSource = new DataSource(dataSourceOptions(url, pool));
    try {
      await dataSource.initialize();
      const applied = await runMigrations(dataSource);
      this.appliedMigrations = applied;
      if (applied.length) this.logger.log(`Applied migrations: ${applied.join(', ')}`);
    } catch (e) {
      if (dataSource.isInitialized) await dataSource.destroy();
      await this.embedded?.stop();
      throw e;
    }
    this.dataSource = dataSource;
    return dataSource;
  }

  /**
   * LISTEN on the embedded database this process owns (see EmbeddedDatabaseHandle.listen);
   * undefined on DATABASE_URL (open a dedicated connection there) and when attached to another
   * process's embedded database.
   */
  get embeddedListen(): EmbeddedDatabaseHandle['listen'] {
    return this.embedded?.listen;
  }

  get isEmbedded(): boolean {
    return this.embedded !== undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource?.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}
