import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { ApiKeysService, REVOCATION_LISTENER } from '../../src/common/api-keys/api-keys.service';
import { PostgresRevocationListener } from '../../src/common/api-keys/revocation-listener';
import { runCliCaptured } from '../utils/cli';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../utils/test-app';
import { probeApp } from './probe.module';

/**
 * The in-process cache of resolved API keys and its invalidation: cached keys cost no query, and a
 * revocation (API, web settings and CLI all go through ApiKeysService.revokeKey, or the CLI's own
 * process) is refused on the revoking instance's next request and on the others as soon as their
 * listener reads the notification (milliseconds), also while the revocation listener is lost and
 * right after it is back. PostgreSQL (DATABASE_URL) and the embedded PGlite.
 */
const whoami = (t: TestApp, key: string) =>
  request(t.server).get('/probe/whoami').set('Authorization', `Bearer ${key}`);

/**
 * Waits until `t` refuses `key` (401), at most `ms`. revokeKey returns once the revoking instance
 * has its own copy of the notification; PostgreSQL sends another instance's copy from that
 * instance's listening session, which may read it a few milliseconds later (seen on CI).
 */
async function refusedWithin(t: TestApp, key: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  let status = (await whoami(t, key)).status;
  while (status !== 401 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 5));
    status = (await whoami(t, key)).status;
  }
  expect(status).toBe(401);
}

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Lookups of keys that reach the database (spied, not replaced). */
function countLookups(t: TestApp): { count(): number; restore(): void } {
  const spy = jest.spyOn(t.dataSource, 'query');
  const lookups = () =>
    spy.mock.calls.filter(([sql]) => typeof sql === 'string' && sql.includes('FROM api_keys k JOIN workspaces')).length;
  return { count: lookups, restore: () => spy.mockRestore() };
}

/** Warms `t`'s cache with `key` (listener up, one lookup) and checks the next request is served from it. */
async function warm(t: TestApp, key: string): Promise<void> {
  await whoami(t, key).expect(200); // the first lookup starts the listener
  const keys = t.app.get(ApiKeysService);
  await until('cache enabled', () => keys.cacheActive);
  await whoami(t, key).expect(200); // cached now
  const lookups = countLookups(t);
  try {
    const res = await whoami(t, key).expect(200);
    expect(res.body).toEqual({ ok: true, workspace: expect.any(String) });
    expect(lookups.count()).toBe(0);
  } finally {
    lookups.restore();
  }
}

describe('API key cache (e2e)', () => {
  it('a cached key needs no query; a new key works at once; revocation is refused on the next request', async () => {
    const t = await createTestApp({ module: probeApp });
    try {
      const first = await t.createKey('cache-one');
      await warm(t, first.key);
      // Misses are not cached: a key created after a refused attempt works at once.
      const second = await t.createKey('cache-one');
      await whoami(t, second.key).expect(200);
      await t.app.get(ApiKeysService).revokeKey(first.id);
      await whoami(t, first.key).expect(401);
      await whoami(t, second.key).expect(200);
    } finally {
      await t.close();
    }
  });

  it('API_KEY_CACHE_MAX=0 turns the cache off: every request reads its key', async () => {
    const t = await createTestApp({ module: probeApp, env: { API_KEY_CACHE_MAX: '0' } });
    try {
      const { key } = await t.createKey('cache-off');
      await whoami(t, key).expect(200);
      const lookups = countLookups(t);
      for (let i = 0; i < 3; i++) await whoami(t, key).expect(200);
      expect(lookups.count()).toBe(3);
      lookups.restore();
      expect(t.app.get(ApiKeysService).cacheActive).toBe(false);
    } finally {
      await t.close();
    }
  });

  // Two instances on one database: PostgreSQL only (an in-memory PGlite belongs to one app).
  const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;
  onPostgres('two instances on PostgreSQL', () => {
    let db: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      db = await createTestDatabase();
      a = await createTestApp({ module: probeApp, database: db });
      b = await createTestApp({ module: probeApp, database: db });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await db?.drop();
    });

    it('revoked on instance A: A refuses the next request, B (serving the key from its cache) as soon as its listener reads the notification', async () => {
      const created = await a.createKey('two-cached');
      await warm(b, created.key);
      await warm(a, created.key);
      await a.app.get(ApiKeysService).revokeKey(created.id);
      await whoami(a, created.key).expect(401);
      await refusedWithin(b, created.key, 1000);
    });

    it('listener killed: B drops and disables its cache, refuses keys revoked in the gap, and caches again once back', async () => {
      const revokedInGap = await a.createKey('gap');
      const kept = await a.createKey('gap');
      await warm(b, revokedInGap.key);
      await warm(b, kept.key);
      const bKeys = b.app.get(ApiKeysService);
      const listener = b.app.get<PostgresRevocationListener>(REVOCATION_LISTENER);
      const pid = listener.pid;
      expect(pid).toEqual(expect.any(Number));

      const base = process.env.DATABASE_URL!;
      const name = new URL(db.env.DATABASE_URL).pathname.slice(1);
      const admin = new Client({ connectionString: base });
      await admin.connect();
      try {
        // Hold the gap open: no new connection to this test's database (pooled ones keep working),
        // so B's listener cannot come back until allowed again.
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
        const [{ killed }] = (
          await admin.query<{ killed: boolean }>(
            'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE pid = $1 AND datname = $2',
            [pid, name],
          )
        ).rows;
        expect(killed).toBe(true);
        await until('B cache disabled', () => !bKeys.cacheActive);

        await a.app.get(ApiKeysService).revokeKey(revokedInGap.id);
        await whoami(b, revokedInGap.key).expect(401);
        const lookups = countLookups(b);
        await whoami(b, kept.key).expect(200); // from the database while the listener is down
        expect(lookups.count()).toBe(1);
        lookups.restore();
        expect(bKeys.cacheActive).toBe(false);
      } finally {
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
        await admin.end();
      }

      await until('B cache enabled again', () => bKeys.cacheActive);
      expect(listener.pid).not.toBe(pid);
      await whoami(b, revokedInGap.key).expect(401);
      await warm(b, kept.key);
      // and revocations reach B through its new listener
      await a.app.get(ApiKeysService).revokeKey(kept.id);
      await refusedWithin(b, kept.key, 1000);
    });

    it('a revocation from the admin CLI (its own process and connection) reaches both instances', async () => {
      const created = await a.createKey('cli-revoke');
      await warm(a, created.key);
      await warm(b, created.key);
      const r = await runCliCaptured(
        { LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...db.env },
        'key:revoke',
        created.id,
        '--json',
      );
      expect(r.code).toBe(0);
      await refusedWithin(a, created.key, 1000);
      await refusedWithin(b, created.key, 1000);
    });
  });

  // The embedded database: the CLI attaches to the server's socket; its revocation reaches the server's cache.
  const onEmbedded = process.env.DATABASE_URL ? describe.skip : describe;
  onEmbedded('embedded PGlite', () => {
    let dir: string;
    let t: TestApp;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'beacon-keycache-'));
      t = await createTestApp({ module: probeApp, env: { DATA_DIR: join(dir, 'data') } });
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a revocation from the admin CLI attached to the running server is refused on the next request', async () => {
      const created = await t.createKey('cli-embedded');
      await warm(t, created.key);
      const r = await runCliCaptured(
        { LOG_LEVEL: 'silent', SEED_DEMO: 'false', DATA_DIR: join(dir, 'data') },
        'key:revoke',
        created.id,
        '--json',
      );
      expect(r.code).toBe(0);
      await whoami(t, created.key).expect(401);
    });
  });
});
