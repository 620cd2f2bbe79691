import { Client } from 'pg';
import request from 'supertest';
import { createTestApp, createTestDatabase, TestApp, TestDatabase } from '../utils/test-app';
import { probeApp } from './probe.module';
import { TcpProxy } from '../utils/tcp-proxy';

/**
 * PostgreSQL outages, simulated by a TCP proxy the test starts between the app and the shared
 * server (which is never restarted): cut connections and refused connections are 503
 * service_unavailable with Retry-After, never 500; a cut transaction leaves nothing behind; the
 * next request after the database returns works.
 */
const withPostgres = process.env.DATABASE_URL ? describe : describe.skip;

withPostgres('Database outage (e2e, TCP proxy in front of PostgreSQL)', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    const url = new URL(db.env.DATABASE_URL);
    proxy = await TcpProxy.start(Number(url.port || 5432));
    direct = new Client({ connectionString: url.toString() });
    await direct.connect();
    url.port = String(proxy.port);
    t = await createTestApp({
      module: probeApp,
      database: { env: { DATABASE_URL: url.toString() }, drop: async () => undefined },
    });
    await direct.query('CREATE TABLE probe_writes (tag text NOT NULL)');
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await direct?.end();
    await db?.drop();
  });

  const read = (sleep = 0) => request(t.server).get(`/probe/db?sleep=${sleep}`);
  const expect503 = (res: request.Response) => {
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      ok: false,
      error: 'service_unavailable',
      message: expect.stringMatching(/database is not reachable/),
    });
    expect(res.headers['retry-after']).toBe('5');
  };

  it('connections cut mid-query: 503 with Retry-After for those requests, none 500; the next request works', async () => {
    await read().expect(200);
    const inFlight = Array.from({ length: 8 }, () => read(1).then((r) => r));
    await new Promise((r) => setTimeout(r, 300));
    proxy.cut();
    const answers = await Promise.all(inFlight);
    for (const res of answers) expect503(res);
    const next = await read().expect(200);
    expect(next.body).toEqual({ ok: true, value: 1 });
  });

  it('connections refused: 503 at once, /readyz 503; after the database returns the next request works', async () => {
    await proxy.refuse();
    try {
      const started = Date.now();
      expect503(await read());
      expect(Date.now() - started).toBeLessThan(2000);
      const ready = await request(t.server).get('/readyz').expect(503);
      expect(ready.body).toMatchObject({ error: 'service_unavailable', database: 'down' });
    } finally {
      await proxy.restore();
    }
    await read().expect(200);
    await request(t.server).get('/readyz').expect(200);
  });

  it('a transaction cut between its two writes leaves neither row', async () => {
    const pending = request(t.server)
      .post('/probe/db/write?tag=cut')
      .then((r) => r);
    await new Promise((r) => setTimeout(r, 400));
    proxy.cut();
    expect503(await pending);
    await new Promise((r) => setTimeout(r, 200));
    const { rows } = await direct.query<{ n: string }>("SELECT count(*) AS n FROM probe_writes WHERE tag = 'cut'");
    expect(rows[0].n).toBe('0');
    await request(t.server).post('/probe/db/write?tag=ok').expect(201);
    const after = await direct.query<{ n: string }>("SELECT count(*) AS n FROM probe_writes WHERE tag = 'ok'");
    expect(after.rows[0].n).toBe('2');
  });
});
