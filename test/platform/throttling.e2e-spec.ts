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
        await request((i % 2 ? a : b).server)
          .get('/probe/whoami')
          .set('Authorization', `Bearer ${key}`)
          .expect(200);
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

  it('IPv6 clients behind a trusted proxy hop are counted by /64: seven addresses share one allowance', async () => {
    const env = { TRUST_PROXY: 'loopback', VISIBILITY_RATE_LIMIT: '3' };
    const by64 = await createTestApp({ module: probeApp, env });
    const single = await createTestApp({ module: probeApp, env: { ...env, IPV6_CLIENT_PREFIX: '128' } });
    try {
      const from = (t: TestApp, ip: string) => request(t.server).get('/probe/ip').set('X-Forwarded-For', ip);
      const first = await from(by64, '2001:db8:1:2::1').expect(200);
      expect(first.body).toMatchObject({ ip: '2001:db8:1:2::1', subject: '2001:db8:1:2::/64' });
      await from(by64, '2001:db8:1:2::2').expect(200);
      await from(by64, '2001:db8:1:2:abcd::3').expect(200);
      for (let i = 4; i <= 7; i++) {
        const res = await from(by64, `2001:db8:1:2::${i}`).expect(429);
        expect(res.body.error).toBe('rate_limited');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      await from(by64, '2001:db8:1:3::1').expect(200); // the next /64 is someone else
      await from(by64, '198.51.100.7').expect(200);
      // IPV6_CLIENT_PREFIX=128 counts single addresses again.
      for (let i = 1; i <= 7; i++) await from(single, `2001:db8:1:2::${i}`).expect(200);
    } finally {
      await by64.close();
      await single.close();
    }
  });
});
