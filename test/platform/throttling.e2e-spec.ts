import request from 'supertest';
import { createTestApp, createTestDatabase, TestApp, TestDatabase, testRedisEnv } from '../utils/test-app';
import { probeApp } from './probe.module';

describe('Rate limiting (e2e)', () => {
  it('the 61st request in a minute with one key is 429 rate_limited with Retry-After: 60', async () => {
    const t = await createTestApp({ module: probeApp });
    try {
      const { key } = await t.createKey();
      const other = await t.createKey();
      for (let i = 1; i <= 60; i++) {
        const res = await request(t.server).get('/probe/whoami').set('Authorization', `Bearer ${key}`).expect(200);
        expect(res.headers['ratelimit-remaining']).toBe(String(60 - i));
      }
      const res = await request(t.server).get('/probe/whoami').set('Authorization', `Bearer ${key}`).expect(429);
      expect(res.headers['retry-after']).toBe('60');
      expect(res.body).toMatchObject({ ok: false, error: 'rate_limited' });
      expect(res.headers['ratelimit-remaining']).toBe('0');
      // Per key: another key of the same IP is not affected.
      await request(t.server).get('/probe/whoami').set('Authorization', `Bearer ${other.key}`).expect(200);
      // Public routes without a bucket are not limited.
      await request(t.server).get('/healthz').expect(200);
    } finally {
      await t.close();
    }
  });

  const withRedis = process.env.REDIS_URL ? it : it.skip;
  withRedis('two instances on one Redis share one limit', async () => {
    const db: TestDatabase = await createTestDatabase();
    const redis = testRedisEnv(); // one namespace for both instances
    let a: TestApp | undefined;
    let b: TestApp | undefined;
    try {
      a = await createTestApp({ module: probeApp, database: db, env: redis });
      b = await createTestApp({ module: probeApp, database: db, env: redis });
      const { key } = await a.createKey();
      for (let i = 0; i < 60; i++) {
        await request((i % 2 ? a : b).server).get('/probe/whoami').set('Authorization', `Bearer ${key}`).expect(200);
      }
      const res = await request(a.server).get('/probe/whoami').set('Authorization', `Bearer ${key}`).expect(429);
      expect(res.headers['retry-after']).toBe('60');
      await request(b.server).get('/probe/whoami').set('Authorization', `Bearer ${key}`).expect(429);
    } finally {
      await a?.close();
      await b?.close();
      await db.drop();
    }
  });

  it('reads X-Forwarded-For only when TRUST_PROXY says so', async () => {
    const plain = await createTestApp({ module: probeApp });
    const proxied = await createTestApp({ module: probeApp, env: { TRUST_PROXY: 'loopback' } });
    try {
      const a = await request(plain.server).get('/probe/ip').set('X-Forwarded-For', '203.0.113.9').expect(200);
      expect(a.body.ip).toBe('127.0.0.1');
      const b = await request(proxied.server).get('/probe/ip').set('X-Forwarded-For', '203.0.113.9').expect(200);
      expect(b.body.ip).toBe('203.0.113.9');
    } finally {
      await plain.close();
      await proxied.close();
    }
  });
});
