import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, TestApp } from '../utils/test-app';

/** A machine without the browser: /readyz says so, and a scan's 502 says how to fix it. */
describe('No browser installed (e2e)', () => {
  let t: TestApp;
  let site: Server;
  let origin: string;
  beforeAll(async () => {
    site = createServer((_req, res) => res.end('<!doctype html><html lang="en"><title>t</title><p>hi</p></html>'));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await createTestApp({
      env: { CHROMIUM_PATH: '/nonexistent/chromium', SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => site.close(r));
  });

  it('a scan answers 502 scan_failed naming the missing binary and the command that installs it', async () => {
    const res = await request(t.server)
      .post('/api/scan')
      .send({ url: `${origin}/` })
      .expect(502);
    expect(res.body).toMatchObject({ ok: false, error: 'scan_failed' });
    expect(res.body.message).toMatch(
      /^The browser could not be started\. No Chromium at \/nonexistent\/chromium \(CHROMIUM_PATH\)\. Install it with "sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium fonts-dejavu-core"/,
    );
    const ready = await request(t.server).get('/readyz').expect(200);
    expect(ready.body).toMatchObject({
      status: 'degraded',
      browser: 'missing',
      browser_fix: expect.stringContaining('/nonexistent/chromium'),
    });
  });
});
