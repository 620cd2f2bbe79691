import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * How long a query waits for a connection of the pool (a new one, or a busy pool's next free one)
 * before it fails as "database unavailable" (503 with Retry-After, see database-errors.ts).
 */
export const CONNECTION_WAIT_MS = 10_000;

/**
 * TypeORM options shared by the server, the admin CLI, `migration:run` and the tests.
 * Entities are every `*.entity` file under src/, migrations every file in migrations/:
 * the schema only ever changes through those files (`synchronize` stays off).
 * `connectionWaitMs`: see {@link CONNECTION_WAIT_MS}; a test that queues hundreds of queries on
 * purpose passes a longer one (it measures correctness, not latency).
 */
export function dataSourceOptions(
  url: string,
  poolSize: number,
  connectionWaitMs = CONNECTION_WAIT_MS,
): PostgresConnectionOptions {
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
    extra: { max: poolSize, connectionTimeoutMillis: connectionWaitMs },
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
