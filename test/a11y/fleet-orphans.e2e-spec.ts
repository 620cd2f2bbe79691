import { randomBytes } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '../utils/test-app';
import { FixtureServer, GOOD_PAGE, send, startFixtureServer } from './fixture-server';
import { Child, childEnv, chromiumPidsUnder, http, startServer, until } from './fleet-processes';

/** Issue 12, item 4: no Chromium outlives the server that started it, even after kill -9. */
describe('No orphan browsers (e2e, real server process and Chromium)', () => {
  let db: TestDatabase;
  let site: FixtureServer;
  let server: Child | undefined;

  beforeAll(async () => {
    site = await startFixtureServer({ '/good': (_q, res) => send(res, 200, GOOD_PAGE) });
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.kill();
    await db?.drop();
    await site?.close();
  });

  it('kill -9 of a server that ran a scan leaves no Chromium process with its profile behind', async () => {
    server = await startServer(
      childEnv({
        ...db.env,
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        REDIS_KEY_PREFIX: `beacon-test:${randomBytes(4).toString('hex')}:`,
      }),
    );
    const scan = await http(server.port!, 'POST', '/api/scan', { url: `${site.origin}/good` });
    expect(scan.status).toBe(200);
    const browsers = chromiumPidsUnder(server.tmp);
    expect(browsers.length).toBeGreaterThan(0); // the scan's Chromium (browser, zygotes, renderers) runs

    server.proc.kill('SIGKILL');
    await server.exited;
    await until(
      () => chromiumPidsUnder(server!.tmp).length === 0,
      15_000,
      'every Chromium process of the killed server exits',
    );
  }, 180_000);
});
