import request from 'supertest';
import { ApiKeysService } from '../../src/common/api-keys/api-keys.service';
import { generateApiKey, hashApiKey } from '../../src/common/api-keys/api-key-format';
import { createTestApp, createTestDatabase, TestApp } from '../utils/test-app';
import { probeApp } from './probe.module';

describe('API keys (e2e)', () => {
  let t: TestApp;
  let keys: ApiKeysService;
  beforeAll(async () => {
    t = await createTestApp({ module: probeApp });
    keys = t.app.get(ApiKeysService);
  });
  afterAll(async () => t.close());

  const whoami = (key: string) => request(t.server).get('/probe/whoami').set('Authorization', `Bearer ${key}`);

  it('life cycle: create, use, revoke, and the very next request is refused', async () => {
    await keys.createWorkspace('life', 'Life Inc');
    const created = await keys.createKey('life', 'ci');
    expect(created.key.startsWith(created.prefix)).toBe(true);
    await whoami(created.key).expect(200, { ok: true, workspace: 'life' });
    await whoami(created.key).expect(200);
    const revoked = await keys.revokeKey(created.id);
    expect(Date.parse(revoked.revoked_at)).not.toBeNaN();
    const res = await whoami(created.key).expect(401);
    expect(res.body).toEqual({ ok: false, error: 'unauthorized', message: 'Invalid or revoked API key.' });
    const again = await keys.revokeKey(created.id);
    expect(again.revoked_at).toBe(revoked.revoked_at);
  });

  it('stores only the SHA-256 of a key, never the key', async () => {
    await keys.createWorkspace('hash-only');
    const created = await keys.createKey('hash-only');
    const rows: Array<Record<string, unknown>> = await t.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [
      created.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(rows[0])).not.toContain(created.key);
  });

  it('a key sees only its own workspace', async () => {
    await keys.createWorkspace('iso-a');
    await keys.createWorkspace('iso-b');
    const a = await keys.createKey('iso-a');
    const b = await keys.createKey('iso-b');
    await whoami(a.key).expect(200, { ok: true, workspace: 'iso-a' });
    await whoami(b.key).expect(200, { ok: true, workspace: 'iso-b' });
    await keys.revokeKey(a.id);
    await whoami(a.key).expect(401);
    await whoami(b.key).expect(200);
  });

  it('records last use without a write per request (batched flush)', async () => {
    await keys.createWorkspace('used');
    const created = await keys.createKey('used');
    await whoami(created.key).expect(200);
    const before: Array<{ last_used_at: Date | null }> = await t.dataSource.query(
      'SELECT last_used_at FROM api_keys WHERE id = $1',
      [created.id],
    );
    expect(before[0].last_used_at).toBeNull(); // not written by the request itself
    await keys.flushLastUsed();
    const listed = await keys.listKeys('used');
    expect(listed[0].last_used_at).not.toBeNull();
    expect(Date.now() - Date.parse(listed[0].last_used_at!)).toBeLessThan(60_000);
  });

  it('refuses bad slugs, duplicate slugs, unknown workspaces and unknown key ids', async () => {
    await expect(keys.createWorkspace('Bad Slug')).rejects.toMatchObject({ code: 'bad_request' });
    await keys.createWorkspace('dupe');
    await expect(keys.createWorkspace('dupe')).rejects.toMatchObject({ code: 'conflict' });
    await expect(keys.createKey('nobody')).rejects.toMatchObject({ code: 'not_found' });
    await expect(keys.revokeKey('not-a-uuid')).rejects.toMatchObject({ code: 'bad_request' });
    await expect(keys.revokeKey('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found' });
  });

  // Two instances on one database: PostgreSQL only (an in-memory PGlite belongs to one app).
  const withSharedDatabase = process.env.DATABASE_URL ? it : it.skip;
  withSharedDatabase('a revocation on one instance is effective on the next request to another instance', async () => {
    const db = await createTestDatabase();
    const a = await createTestApp({ module: probeApp, database: db });
    const b = await createTestApp({ module: probeApp, database: db });
    try {
      const created = await a.createKey('two-instances');
      await request(b.server).get('/probe/whoami').set('Authorization', `Bearer ${created.key}`).expect(200);
      await a.app.get(ApiKeysService).revokeKey(created.id);
      await request(b.server).get('/probe/whoami').set('Authorization', `Bearer ${created.key}`).expect(401);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });

  it('refused keys are limited per client: past AUTH_FAILURE_LIMIT, 429 with Retry-After and no lookup', async () => {
    const limited = await createTestApp({
      module: probeApp,
      env: { AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_S: '60', TRUST_PROXY: 'loopback' },
    });
    try {
      const { key } = await limited.createKey();
      const service = limited.app.get(ApiKeysService);
      const lookups = jest.spyOn(service, 'authenticate');
      const from = (ip: string, k: string) =>
        request(limited.server).get('/probe/whoami').set('X-Forwarded-For', ip).set('Authorization', `Bearer ${k}`);
      for (let i = 0; i < 3; i++) await from('2001:db8:9:9::1', generateApiKey()).expect(401);
      const blocked = await from('2001:db8:9:9::2', generateApiKey()).expect(429); // same /64
      expect(blocked.body).toMatchObject({ ok: false, error: 'rate_limited' });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(59);
      expect(lookups).toHaveBeenCalledTimes(4);
      // Blocked: further keys from that client are refused without a database lookup, valid ones too.
      for (let i = 0; i < 5; i++) await from('2001:db8:9:9::3', generateApiKey()).expect(429);
      await from('2001:db8:9:9::1', 'not-a-key').expect(429);
      await from('2001:db8:9:9::1', key).expect(429);
      expect(lookups).toHaveBeenCalledTimes(4);
      // Other clients are not affected; requests without a key are not counted.
      await from('198.51.100.1', key).expect(200);
      await from('198.51.100.1', generateApiKey()).expect(401);
      for (let i = 0; i < 5; i++)
        await request(limited.server).get('/probe/whoami').set('X-Forwarded-For', '198.51.100.2').expect(401);
      await from('198.51.100.2', key).expect(200);
    } finally {
      await limited.close();
    }
  });
});
