import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, TestApp, TestDatabase } from '../utils/test-app';
import { b64, call, connect, createPdfTestApp, download, nextIp, sc, textPdf } from './helpers';

/**
 * Two instances on one PostgreSQL (and one Redis namespace when REDIS_URL is set), as behind a load
 * balancer: a result made on one is served and chained on the other, and quotas hold across both.
 * Needs a shared database server, so it runs with DATABASE_URL only (PGlite is single-process).
 */
(process.env.DATABASE_URL ? describe : describe.skip)('PDF tools on two instances (e2e)', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    // No QUOTA_HASH_SECRET: both instances must find the same generated secret in the database.
    const env = { PDF_MCP_DAILY_CAP: '3', REDIS_KEY_PREFIX: `beacon-test:${randomBytes(4).toString('hex')}:` };
    a = await createPdfTestApp({ database: db, env });
    b = await createPdfTestApp({ database: db, env });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await a.close();
    await b.close();
    await db.drop();
  });

  it('a result stored by one instance is downloaded and chained on the other', async () => {
    const ip = nextIp();
    const [ca, cb] = [await connect(a, ip), await connect(b, ip)];
    clients.push(ca, cb);
    const made = sc(await call(ca, 'rotate_pages', { file: { base64: b64(await textPdf(2)) }, angle: 90 }));
    const chained = sc(await call(cb, 'remove_pages', { file: { file_id: made.file_id }, pages: '1' }));
    expect(chained).toMatchObject({ pages: 1, removed_pages: [1] });
    expect((await download(b, made as { download_url: string })).length).toBe(made.bytes);
  });

  it('30 parallel calls spread over both instances never exceed the cap', async () => {
    const ip = nextIp();
    const [ca, cb] = [await connect(a, ip), await connect(b, ip)];
    clients.push(ca, cb);
    const pdf = b64(await textPdf(1));
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(i % 2 ? ca : cb, 'add_page_numbers', { file: { base64: pdf } })),
    );
    expect(results.filter((r) => !r.isError)).toHaveLength(3);
    expect(results.filter((r) => sc(r).error === 'quota_exceeded')).toHaveLength(27);
  });
});
