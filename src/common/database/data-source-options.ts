import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * TypeORM options shared by the server, the admin CLI, `migration:run` and the tests.
 * Entities are every `*.entity` file under src/, migrations every file in migrations/:
 * the schema only ever changes through those files (`synchronize` stays off).
 */
export function dataSourceOptions(url: string, poolSize: number): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url,
    entities: [join(ROOT, 'src', '**', '*.entity.{ts,js}')],
    migrations: [join(ROOT, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    uuidExtension: 'pgcrypto',
    logging: false,
    extra: { max: poolSize, connectionTimeoutMillis: 10000 },
  };
}

/** Arbitrary, fixed: the advisory lock that serialises migrations across instances starting together. */
const MIGRATION_LOCK = 724_311_002;

/** Applies pending migrations under an advisory lock; returns the names applied. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
