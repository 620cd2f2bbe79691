import request from 'supertest';
import { randomBytes } from 'node:crypto';
import { BrowserPool } from '../../src/a11y/browser/browser-pool';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../utils/test-app';
import { FixtureServer, GOOD_PAGE, send, startFixtureServer } from './fixture-server';

/** Two instances sharing one PostgreSQL database and one Redis (needs DATABASE_URL and REDIS_URL). */
const withRedis = process.env.REDIS_URL && process.env.DATABASE_URL ? describe : describe.skip;

withRedis('Accessibility scans across instances (e2e, shared PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let site: FixtureServer;

  beforeAll(async () => {
    site = await startFixtureServer({ '/slow': (_q, res) => setTimeout(() => send(res, 200, GOOD_PAGE), 500) });
    db = await createTestDatabase();
    const env = {
      SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
      TRUST_PROXY: '1',
      REDIS_KEY_PREFIX: `beacon-test:${randomBytes(4).toString('hex')}:`,
    };
    a = await createTestApp({ database: db, env });
    b = await createTestApp({ database: db, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await site?.close();
  });

  it('concurrent identical scans on two instances share one browser run and one report', async () => {
    const url = `${site.origin}/slow`;
    const [ra, rb] = await Promise.all([
      request(a.server)
        .post('/api/scan')
        .set('X-Forwarded-For', '198.51.100.1')
        .send({ url })
        .then((r) => r), // two clients
      request(b.server)
        .post('/api/scan')
        .set('X-Forwarded-For', '198.51.100.2')
        .send({ url })
        .then((r) => r),
    ]);
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(ra.body.id).toBe(rb.body.id);
    expect(site.hits.get('/slow')).toBe(1);
    expect(a.app.get(BrowserPool).launches + b.app.get(BrowserPool).launches).toBe(1);
    // the other instance answers later scans from the shared cache
    const later = await request(b.server).post('/api/scan').send({ url }).expect(200);
    expect(later.body).toMatchObject({ id: ra.body.id, cached: true });
  });
});
