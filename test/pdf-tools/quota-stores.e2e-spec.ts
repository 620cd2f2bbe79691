import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/common/config/env';
import { dataSourceOptions, runMigrations } from '../../src/common/database/data-source-options';
import { EmbeddedDatabaseHandle, openEmbeddedDatabase } from '../../src/common/database/embedded-postgres';
import { AppSecretsStore } from '../../src/common/secrets/app-secrets.store';
import { InstanceSecretsService } from '../../src/common/secrets/instance-secrets.service';
import { QuotaClock } from '../../src/pdf-tools/quota/quota-clock';
import { QuotaScope, QuotaStore, REFUNDS_TOOL } from '../../src/pdf-tools/quota/quota.store';
import { QuotaService } from '../../src/pdf-tools/quota/quota.service';
import { PostgresQuotaStore } from '../../src/pdf-tools/quota/stores/postgres-quota.store';
import { RedisQuotaStore } from '../../src/pdf-tools/quota/stores/redis-quota.store';

/**
 * One contract for every QuotaStore, run for real on each technology whatever REDIS_URL says:
 * PostgreSQL (DATABASE_URL, or the CI server on 127.0.0.1:5432), the embedded PGlite, and Redis
 * (REDIS_URL, or the CI server on 127.0.0.1:6379). Each backend gets two "instances": two stores on
 * separate connections (pools) to one database or Redis, as two servers would have.
 */
const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const INSTANCE_POOL = 5;
/**
 * The contract queues 200 calls on pools of 5 on purpose. On a loaded machine the embedded PGlite
 * (one WASM session serving every connection in turn) takes far longer than the server's 10 s
 * wait for a free connection, and opening it with its migrations can take a minute: the pools wait
 * for their connection however long it takes (jest's timeout below is the only deadline), and the
 * hooks and tests get minutes. The assertions are about counts, never about time.
 */
const CONNECTION_WAIT_MS = 0; // pg-pool: 0 = wait for a connection without a deadline
const SLOW_MACHINE_TIMEOUT_MS = 300_000;
jest.setTimeout(SLOW_MACHINE_TIMEOUT_MS);

interface Backend {
  /** Two stores on separate connections to one storage. */
  stores: [QuotaStore, QuotaStore];
  /** A database for the instance secrets of QuotaService (the generated hash key). */
  db: DataSource;
  close(): Promise<void>;
}

async function migratedDataSource(url: string, pool: number): Promise<DataSource> {
  const ds = await new DataSource(dataSourceOptions(url, pool, CONNECTION_WAIT_MS)).initialize();
  await runMigrations(ds);
  return ds;
}

async function postgresBackend(): Promise<Backend> {
  const name = `beacon_qs_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const a = await migratedDataSource(url.toString(), INSTANCE_POOL);
  const b = await migratedDataSource(url.toString(), INSTANCE_POOL);
  return {
    stores: [new PostgresQuotaStore(a), new PostgresQuotaStore(b)],
    db: a,
    close: async () => {
      await a.destroy();
      await b.destroy();
      const c = new Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

async function embeddedBackend(): Promise<Backend> {
  const handle: EmbeddedDatabaseHandle = await openEmbeddedDatabase('memory://', false);
  const a = await migratedDataSource(handle.url, INSTANCE_POOL);
  const b = await migratedDataSource(handle.url, INSTANCE_POOL);
  return {
    stores: [new PostgresQuotaStore(a), new PostgresQuotaStore(b)],
    db: a,
    close: async () => {
      await a.destroy();
      await b.destroy();
      await handle.stop();
    },
  };
}

async function redisBackend(): Promise<Backend> {
  const prefix = `beacon-test:qs:${randomBytes(4).toString('hex')}:`;
  const key = (...parts: string[]): string => prefix + parts.join(':');
  const clients = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
  // The policy tests need a database for the generated hash key only.
  const secrets = await embeddedBackend();
  return {
    stores: [new RedisQuotaStore(clients[0], key), new RedisQuotaStore(clients[1], key)],
    db: secrets.db,
    close: async () => {
      const keys = await clients[0].keys(`${prefix}*`);
      if (keys.length) await clients[0].del(...keys);
      await Promise.all(clients.map((c) => c.quit()));
      await secrets.close();
    },
  };
}

const backends: Array<[string, () => Promise<Backend>]> = [
  ['PostgreSQL', postgresBackend],
  ['embedded PGlite', embeddedBackend],
  ['Redis', redisBackend],
];

let scopeCounter = 0;
/** A fresh caller on a fixed day (so no test depends on today's date). */
const freshScope = (day = '2031-05-17'): QuotaScope => ({
  day,
  group: `ip:${process.pid}-${++scopeCounter}-${randomBytes(3).toString('hex')}`,
});
const TTL = 3600;

describe.each(backends)('QuotaStore contract: %s', (_name, open) => {
  let backend: Backend;
  let a: QuotaStore;
  let b: QuotaStore;
  beforeAll(async () => {
    backend = await open();
    [a, b] = backend.stores;
  });
  afterAll(async () => backend?.close());

  it('200 concurrent reserves from two instances never pass the cap, and each sees a distinct count', async () => {
    const scope = freshScope();
    const counters = [
      { subject: scope.group, cap: 120 },
      { subject: `mcp:${scope.group}`, cap: 1000 },
    ];
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).reserve(scope, 'rotate_pages', counters, TTL)),
    );
    const allowed = results.filter((r) => r.allowed);
    expect(allowed).toHaveLength(120);
    // Atomic: every granted reservation saw its own pool value, 1..120 exactly once.
    expect(allowed.map((r) => r.used[0]).sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    for (const r of results.filter((x) => !x.allowed)) expect(r.used[0]).toBe(120);
    expect(await b.read(scope, 'rotate_pages', [scope.group, `mcp:${scope.group}`])).toEqual([120, 120]);
  });

  it('two channels racing for one pool: the channel cap and the pool cap both hold', async () => {
    const scope = freshScope();
    const pool = { subject: scope.group, cap: 100 };
    const narrow = [pool, { subject: `dev:narrow-${scope.group}`, cap: 30 }];
    const wide = [pool, { subject: `dev:wide-${scope.group}`, cap: 1000 }];
    const calls = Array.from({ length: 200 }, (_, i) =>
      i % 2 ? a.reserve(scope, 'split_pdf', narrow, TTL) : b.reserve(scope, 'split_pdf', wide, TTL),
    );
    const results = await Promise.all(calls);
    const narrowAllowed = results.filter((r, i) => i % 2 === 1 && r.allowed).length;
    const wideAllowed = results.filter((r, i) => i % 2 === 0 && r.allowed).length;
    expect(narrowAllowed).toBeLessThanOrEqual(30);
    expect(narrowAllowed + wideAllowed).toBe(100);
    expect(await a.read(scope, 'split_pdf', [pool.subject, narrow[1].subject, wide[1].subject])).toEqual([
      100,
      narrowAllowed,
      wideAllowed,
    ]);
  });

  it('a refused reserve changes no counter (all or nothing)', async () => {
    const scope = freshScope();
    const counters = [
      { subject: scope.group, cap: 10 },
      { subject: `mcp:${scope.group}`, cap: 2 },
    ];
    expect((await a.reserve(scope, 't', counters, TTL)).allowed).toBe(true);
    expect((await b.reserve(scope, 't', counters, TTL)).allowed).toBe(true);
    const refused = await a.reserve(scope, 't', counters, TTL);
    expect(refused).toEqual({ allowed: false, used: [2, 2] });
    expect(await b.read(scope, 't', [scope.group, `mcp:${scope.group}`])).toEqual([2, 2]);
    // counters are per tool and per day
    expect((await a.reserve(scope, 'other', counters, TTL)).allowed).toBe(true);
    expect((await a.reserve({ ...scope, day: '2031-05-18' }, 't', counters, TTL)).allowed).toBe(true);
  });

  it('concurrent refunds from two instances stop at the allowance and never take a counter below zero', async () => {
    const scope = freshScope();
    const subjects = [scope.group, `mcp:${scope.group}`];
    const counters = subjects.map((subject) => ({ subject, cap: 50 }));
    for (let i = 0; i < 2; i++) await a.reserve(scope, 'compress_pdf', counters, TTL);
    const allowance = { subject: `refund:${scope.group}`, cap: 5 };
    const refunds = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).refund(scope, 'compress_pdf', subjects, allowance, TTL)),
    );
    expect(refunds.filter(Boolean)).toHaveLength(5);
    expect(await a.read(scope, REFUNDS_TOOL, [allowance.subject])).toEqual([5]);
    expect(await b.read(scope, 'compress_pdf', subjects)).toEqual([0, 0]); // 2 reserved, 5 refunded: floored at 0
    expect(await a.refund(scope, 'compress_pdf', subjects, allowance, TTL)).toBe(false);
  });

  it('reads 0 for counters never used', async () => {
    const scope = freshScope();
    expect(await a.read(scope, 'rotate_pages', [scope.group, 'mcp:nobody'])).toEqual([0, 0]);
  });

  describe('under QuotaService (the policy), two instances sharing the store', () => {
    const config = loadConfig({ PDF_DAILY_LIMIT: '4', PDF_MCP_DAILY_CAP: '3', PDF_DAILY_REFUNDS: '1' });
    let clocks: [QuotaClock, QuotaClock];
    let services: [QuotaService, QuotaService];
    let ipCounter = 0;
    const nextIp = (): string => `203.0.113.${++ipCounter}`;
    beforeAll(async () => {
      clocks = [new QuotaClock(), new QuotaClock()];
      const secrets = new InstanceSecretsService(new AppSecretsStore(backend.db));
      services = [new QuotaService(config, a, clocks[0], secrets), new QuotaService(config, b, clocks[1], secrets)];
      await Promise.all(services.map((s) => s.onModuleInit()));
    });
    const setClocks = (iso: string): void => clocks.forEach((c) => c.set(() => new Date(iso)));
    afterEach(() => clocks.forEach((c) => c.set()));

    it('50 concurrent MCP calls on two instances: exactly the cap, and both see the same state', async () => {
      const ip = nextIp();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => services[i % 2].consume('mcp', 'rotate_pages', ip)),
      );
      expect(results.filter((r) => r.decision.allowed)).toHaveLength(3);
      for (const s of services)
        expect(await s.status('mcp', 'rotate_pages', ip)).toMatchObject({ limit: 3, remaining: 0 });
    });

    it('the day rolls over at 00:00 UTC on the QuotaClock; a late refund goes to the day of its reservation', async () => {
      const ip = nextIp();
      setClocks('2031-03-09T23:59:58.000Z');
      const before = await Promise.all(
        Array.from({ length: 3 }, (_, i) => services[i % 2].consume('mcp', 'rotate_pages', ip)),
      );
      expect(before.every((r) => r.decision.allowed)).toBe(true);
      const refused = await services[1].consume('mcp', 'rotate_pages', ip);
      expect(refused.decision).toMatchObject({ allowed: false, remaining: 0, resets_at: '2031-03-10T00:00:00.000Z' });

      setClocks('2031-03-10T00:00:00.000Z');
      const next = await services[0].consume('mcp', 'rotate_pages', ip);
      expect(next.decision).toEqual({
        allowed: true,
        tool: 'rotate_pages',
        limit: 3,
        remaining: 2,
        resets_at: '2031-03-11T00:00:00.000Z',
      });

      // Yesterday's ticket refunded today: yesterday's counters go down, today's do not.
      const r = await services[1].refund('mcp', before[0].ticket!, ip);
      expect(r.refunded).toBe(true);
      expect(r.state.remaining).toBe(2);
      setClocks('2031-03-09T23:59:59.000Z');
      expect(await services[0].status('mcp', 'rotate_pages', ip)).toMatchObject({ remaining: 1 });
    });

    it('refunds: one a day per IP across instances, then failures count', async () => {
      const ip = nextIp();
      const t1 = (await services[0].consume('web', 'compress_pdf', ip, 'phone')).ticket!;
      const t2 = (await services[1].consume('web', 'compress_pdf', ip, 'phone')).ticket!;
      const [r1, r2] = await Promise.all([
        services[0].refund('web', t1, ip, 'phone'),
        services[1].refund('web', t2, ip, 'phone'),
      ]);
      expect([r1.refunded, r2.refunded].sort()).toEqual([false, true]);
      expect(await services[0].refundsUsed(ip)).toBe(1);
      expect(await services[1].status('web', 'compress_pdf', ip, 'phone')).toMatchObject({ limit: 4, remaining: 3 });
    });
  });
});
