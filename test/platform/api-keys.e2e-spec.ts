import request from 'supertest';
import { ApiKeysService } from '../../src/common/api-keys/api-keys.service';
import { hashApiKey } from '../../src/common/api-keys/api-key-format';
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
    const rows: Array<Record<string, unknown>> = await t.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [created.id]);
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
    const before: Array<{ last_used_at: Date | null }> = await t.dataSource.query('SELECT last_used_at FROM api_keys WHERE id = $1', [created.id]);
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
});
