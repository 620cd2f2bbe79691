import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { ApiKeysService } from '../../src/common/api-keys/api-keys.service';
import { CoreModule, CoreOptions } from '../../src/common/core.module';
import { AppConfig, loadConfig } from '../../src/common/config/env';
import { dataSourceOptions, runMigrations } from '../../src/common/database/data-source-options';
import { configureApp } from '../../src/common/http/configure-app';
import { recordApiResponses } from './openapi-responses';

/** Arbitrary, fixed: the advisory lock under which one jest worker builds the migrated template. */
const TEMPLATE_LOCK = 724_311_003;
/** This test file's migrated template (its name), built or found once. */
let migratedTemplate: Promise<string> | undefined;

/**
 * The database every test database on PostgreSQL is a copy of: empty, with every migration applied
 * (by runMigrations, as a server applies them). Its name carries a hash of the migration files, so
 * a changed or new migration gets a new template; it is built once on that PostgreSQL by the first
 * test that needs it (the other jest workers wait on an advisory lock) and kept for later runs
 * (marked IS_TEMPLATE only once complete, so a half-built one is built again). A test app then
 * starts on a database already at the last migration: its start-up finds nothing to apply instead
 * of running every migration again (about half a second per app on 2 cores). Every migration
 * still runs from scratch in the template's build, on the empty databases of
 * test/platform/migrations.e2e-spec.ts and of the CLI tests (test/utils/cli.ts), in the process
 * tests and in every app on the embedded PGlite.
 */
async function buildMigratedTemplate(base: string): Promise<string> {
  const dir = join(__dirname, '..', '..', 'migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(`${file}\0`).update(readFileSync(join(dir, file)));
  const name = `beacon_template_${hash.digest('hex').slice(0, 16)}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate', [name]);
    if (found.rowCount === 0) {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}"`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      const ds = new DataSource(dataSourceOptions(url.toString(), 2));
      await ds.initialize();
      try {
        await runMigrations(ds);
      } finally {
        await ds.destroy();
      }
      await admin.query(`ALTER DATABASE "${name}" IS_TEMPLATE true`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined);
    await admin.end();
  }
  return name;
}

/**
 * A database of its own for one test app: a new database on the PostgreSQL of DATABASE_URL
 * (dropped at close), or an in-memory PGlite when DATABASE_URL is not set.
 */
export interface TestDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * On PostgreSQL a copy of the migrated template (buildMigratedTemplate), or with `empty` a database
 * with no migration applied (for tests of applying them). The embedded PGlite always starts empty.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) return { env: { DATA_DIR: 'memory://' }, drop: async () => undefined };
  const name = `beacon_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = options.empty ? undefined : await (migratedTemplate ??= buildMigratedTemplate(base));
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** METRICS_TOKEN of every test app (GET /metrics answers only it) unless the test sets its own. */
export const TEST_METRICS_TOKEN = 'test-metrics-token-4f1c9b2e';
/** The header that opens GET /metrics of a test app. */
export const METRICS_AUTH = { Authorization: `Bearer ${TEST_METRICS_TOKEN}` };

/** A Redis namespace of its own (REDIS_URL set) or none. */
export function testRedisEnv(prefix = `beacon-test:${randomBytes(4).toString('hex')}:`): Record<string, string> {
  return process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: prefix } : {};
}

export interface TestApp {
  app: NestExpressApplication;
  server: Server;
  config: AppConfig;
  dataSource: DataSource;
  /** Creates a workspace and a key in it; returns the full key. */
  createKey(slug?: string): Promise<{ key: string; id: string; workspace: string }>;
  /**
   * Validates every `/api/v1` response the app sent against its published OpenAPI document (issue
   * #21; a suite fails on any mismatch), then closes the app and drops its database.
   */
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra settings (strings, as in the environment). */
  env?: Record<string, string>;
  /** Use this database instead of a new one (e.g. two instances sharing one). */
  database?: TestDatabase;
  /** Build another root module than AppModule (e.g. CoreModule plus one feature). */
  module?: (options: CoreOptions) => DynamicModule;
  /**
   * Record every `/api/v1` response and validate it at close (default: on). Benchmarks turn it off:
   * keeping each body in memory is not what production does, and would be measured as ours.
   */
  checkApiResponses?: boolean;
}

let slugCounter = 0;

/**
 * The full application (AppModule, or `options.module`) with the production pipeline
 * (configureApp), on its own database and Redis namespace, listening on an ephemeral loopback port.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDatabase = options.database ? undefined : await createTestDatabase();
  const database = options.database ?? ownDatabase!;
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SEED_DEMO: 'false',
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    ...testRedisEnv(),
    ...database.env,
    ...options.env,
  });
  const root = options.module ? options.module({ config }) : AppModule.forRoot({ config });
  const app = await NestFactory.create<NestExpressApplication>(root, {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer();
  const api = options.checkApiResponses === false ? undefined : recordApiResponses(server);
  return {
    app,
    server,
    config,
    dataSource: app.get(DataSource),
    createKey: async (slug?: string) => {
      const keys = app.get(ApiKeysService);
      const s = slug ?? `ws-${process.pid}-${++slugCounter}`;
      await keys.createWorkspace(s).catch((e: unknown) => {
        if ((e as { code?: string }).code !== 'conflict') throw e; // reusing a workspace is fine
      });
      const created = await keys.createKey(s, 'test');
      return { key: created.key, id: created.id, workspace: s };
    },
    close: async () => {
      try {
        await api?.expectValid();
      } finally {
        await app.close();
        await ownDatabase?.drop();
      }
    },
  };
}

/** CoreModule plus one feature module: proves a feature can be shipped alone. */
export const coreWith =
  (feature: DynamicModule['module']) =>
  (options: CoreOptions): DynamicModule => ({
    module: class FeatureOnlyModule {},
    imports: [CoreModule.forRoot(options), feature],
  });
