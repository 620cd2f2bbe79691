import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { FILE_WRITE_WAIT_MS, FileStoreService } from '../../src/pdf-tools/files/file-store.service';
import { bytes } from '../utils/body-parsers';
import { TcpProxy } from '../utils/tcp-proxy';
import { createTestDatabase, TestApp, TestDatabase } from '../utils/test-app';
import { call, connect, createPdfTestApp, imagePdf, nextIp, sc } from './helpers';

/**
 * A stored file's row goes in first and its bytes follow (FileStoreService): the instance that
 * stored it answers at once and serves the bytes from memory; another instance waits for them.
 * Instance A reaches PostgreSQL through a TCP proxy of the test's that slows what A sends (a slow
 * link), so its bytes are still on their way when B is asked. PostgreSQL only (two processes'
 * worth of instances on one database).
 */
(process.env.DATABASE_URL ? describe : describe.skip)(
  'Stored files: bytes after the row, across instances (e2e)',
  () => {
    let db: TestDatabase;
    let proxy: TcpProxy;
    let direct: Client;
    let a: TestApp;
    let b: TestApp;
    let pdf: Uint8Array;
    const clients: McpClient[] = [];
    /** Through the proxy at this rate, the file's bytes take about 1.5 s to reach PostgreSQL. */
    let slowRate: number;

    const viaProxy = (): TestDatabase => {
      const url = new URL(db.env.DATABASE_URL);
      url.port = String(proxy.port);
      return { env: { DATABASE_URL: url.toString() }, drop: async () => undefined };
    };
    const env = {
      REDIS_KEY_PREFIX: `beacon-test:${randomBytes(4).toString('hex')}:`,
      PDF_UPLOAD_RATE_LIMIT: '1000',
      PDF_DOWNLOAD_RATE_LIMIT: '1000',
    };
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    const stored = async (id: string): Promise<boolean | undefined> =>
      (
        await direct.query<{ stored: boolean }>('SELECT content IS NOT NULL AS stored FROM pdf_files WHERE id = $1', [
          id,
        ])
      ).rows[0]?.stored;
    const upload = async (t: TestApp) => {
      const res = await request(t.server)
        .post('/files')
        .set('Content-Type', 'application/pdf')
        .send(Buffer.from(pdf))
        .expect(201);
      return res.body as { file_id: string; download_url: string; sha256: string };
    };
    const get = (t: TestApp, id: string) => request(t.server).get(`/files/${id}`).buffer(true).parse(bytes);

    beforeAll(async () => {
      db = await createTestDatabase();
      proxy = await TcpProxy.start(Number(new URL(db.env.DATABASE_URL).port || 5432));
      direct = new Client({ connectionString: db.env.DATABASE_URL });
      await direct.connect();
      b = await createPdfTestApp({ database: db, env });
      a = await createPdfTestApp({ database: viaProxy(), env });
      pdf = await imagePdf(6, 600, 92);
      slowRate = Math.round(pdf.length / 1.5);
    });
    afterEach(() => proxy.throttle(undefined));
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await a?.close();
      await b?.close();
      await proxy?.close();
      await direct?.end();
      await db?.drop();
    });

    it('the upload is answered before its bytes reach PostgreSQL; its instance serves them at once, the other waits for them', async () => {
      proxy.throttle(slowRate);
      const file = await upload(a);
      expect(await stored(file.file_id)).toBe(false); // the row is there, the bytes are on their way
      const fromA = await get(a, file.file_id).expect(200);
      expect(sha(fromA.body as Buffer)).toBe(file.sha256);
      expect(await stored(file.file_id)).toBe(false); // served from A's memory
      const fromB = await get(b, file.file_id).expect(200); // waits until A's write lands
      expect(await stored(file.file_id)).toBe(true);
      expect(sha(fromB.body as Buffer)).toBe(file.sha256);
    });

    it('a result still being written on one instance is chained by file_id on the other', async () => {
      const ip = nextIp();
      const [ca, cb] = [await connect(a, ip), await connect(b, ip)];
      clients.push(ca, cb);
      const file = await upload(b);
      proxy.throttle(slowRate);
      const made = sc(await call(ca, 'rotate_pages', { file: { file_id: file.file_id }, angle: 90 }));
      expect(await stored(made.file_id)).toBe(false);
      const chained = sc(await call(cb, 'pdf_metadata', { file: { file_id: made.file_id } }));
      expect(chained).toMatchObject({ pages: 6 });
      expect(await stored(made.file_id)).toBe(true);
    });

    it('a file read from PostgreSQL by a call is kept in memory for the next call on that instance', async () => {
      const ip = nextIp();
      const cb = await connect(b, ip);
      clients.push(cb);
      const file = await upload(a);
      expect(sc(await call(cb, 'pdf_metadata', { file: { file_id: file.file_id } }))).toMatchObject({ pages: 6 }); // read from PostgreSQL
      // Its bytes gone from PostgreSQL (as if being written again): B still has them.
      await direct.query('UPDATE pdf_files SET content = NULL WHERE id = $1', [file.file_id]);
      expect(sc(await call(cb, 'rotate_pages', { file: { file_id: file.file_id }, angle: 90 }))).toMatchObject({
        pages: 6,
      });
    });

    it('a write cut off mid-way is retried: the file is then served everywhere', async () => {
      proxy.throttle(slowRate);
      const file = await upload(a);
      await new Promise((r) => setTimeout(r, 300));
      expect(await stored(file.file_id)).toBe(false);
      proxy.cut(); // A's connections drop in the middle of the write
      proxy.throttle(undefined);
      const fromB = await get(b, file.file_id).expect(200);
      expect(sha(fromB.body as Buffer)).toBe(file.sha256);
    });

    it('an instance shutting down finishes its writes first', async () => {
      const c = await createPdfTestApp({ database: viaProxy(), env });
      proxy.throttle(slowRate);
      const file = await upload(c);
      expect(await stored(file.file_id)).toBe(false);
      await c.close();
      expect(await stored(file.file_id)).toBe(true);
      expect(sha((await get(b, file.file_id).expect(200)).body as Buffer)).toBe(file.sha256);
    });

    it('a row whose bytes never came (its instance stopped) is reported as lost, not waited for forever', async () => {
      const id = randomBytes(32).toString('base64url');
      await direct.query(
        `INSERT INTO pdf_files (id, filename, content, size, pages, sha256, created_at, expires_at)
       VALUES ($1, 'lost.pdf', NULL, 1000, 1, repeat('0', 64), now() - make_interval(secs => $2), now() + interval '1 hour')`,
        [id, FILE_WRITE_WAIT_MS / 1000 + 1],
      );
      const res = await get(b, id).expect(404);
      expect(JSON.parse(String(res.body))).toMatchObject({
        ok: false,
        error: 'file_not_found',
        message: expect.stringMatching(/not stored completely/),
      });
      const client = await connect(b);
      clients.push(client);
      expect(sc(await call(client, 'rotate_pages', { file: { file_id: id }, angle: 90 }))).toMatchObject({
        error: 'file_not_found',
        input: 'file',
      });
    });
  },
);

/**
 * PDF_FILE_DIR: the bytes as files in a directory the instances share (a volume), the rows in
 * PostgreSQL. Two instances on one database and one directory (PostgreSQL only, like the block above).
 */
(process.env.DATABASE_URL ? describe : describe.skip)('Stored files in a shared directory (PDF_FILE_DIR, e2e)', () => {
  let db: TestDatabase;
  let dir: string;
  let direct: Client;
  let a: TestApp;
  let b: TestApp;
  let pdf: Uint8Array;
  const clients: McpClient[] = [];
  const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
  const pathOf = (id: string) => join(dir, id.slice(0, 2), id);
  const get = (t: TestApp, id: string) => request(t.server).get(`/files/${id}`).buffer(true).parse(bytes);

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'beacon-files-'));
    direct = new Client({ connectionString: db.env.DATABASE_URL });
    await direct.connect();
    const env = {
      PDF_FILE_DIR: dir,
      REDIS_KEY_PREFIX: `beacon-test:${randomBytes(4).toString('hex')}:`,
      PDF_UPLOAD_RATE_LIMIT: '1000',
      PDF_DOWNLOAD_RATE_LIMIT: '1000',
    };
    a = await createPdfTestApp({ database: db, env });
    b = await createPdfTestApp({ database: db, env });
    pdf = await imagePdf(3, 300, 90);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await a?.close();
    await b?.close();
    await direct?.end();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("an upload on A is a file in the directory (not in PostgreSQL); B serves it and chains it; A serves B's result", async () => {
    const up = await request(a.server)
      .post('/files')
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from(pdf))
      .expect(201);
    const file = up.body as { file_id: string; sha256: string };
    await a.close().then(async () => (a = await createPdfTestApp({ database: db, env: { PDF_FILE_DIR: dir } }))); // its writes finished, its memory gone
    expect(sha(await readFile(pathOf(file.file_id)))).toBe(file.sha256);
    expect(
      (await direct.query('SELECT content IS NULL AS empty FROM pdf_files WHERE id = $1', [file.file_id])).rows[0],
    ).toEqual({ empty: true });
    expect(sha((await get(b, file.file_id).expect(200)).body as Buffer)).toBe(file.sha256);
    const cb = await connect(b, nextIp());
    clients.push(cb);
    const made = sc(await call(cb, 'rotate_pages', { file: { file_id: file.file_id }, angle: 90 }));
    expect(made).toMatchObject({ pages: 3 });
    const fromA = await get(a, made.file_id).expect(200);
    expect(sha(fromA.body as Buffer)).toBe(made.sha256);
  });

  it('a refused upload leaves no file in the directory and no row; an accepted one is a file', async () => {
    // Files are "ab/<id>" (their folders are "ab").
    const files = async () => (await readdir(dir, { recursive: true })).filter((f) => f.includes('/')).sort();
    const rows = async () => Number((await direct.query('SELECT count(*)::int AS n FROM pdf_files')).rows[0].n);
    const [beforeFiles, beforeRows] = [await files(), await rows()];
    // A %PDF- header on bytes that are no PDF: refused by the check in a PDF worker.
    const damaged = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000)]);
    const refused = await request(a.server)
      .post('/files')
      .set('Content-Type', 'application/pdf')
      .send(damaged)
      .expect(400);
    expect(refused.body).toMatchObject({ error_detail: 'corrupt_pdf' });
    expect(await files()).toEqual(beforeFiles);
    expect(await rows()).toBe(beforeRows);
    const up = await request(a.server)
      .post('/files')
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from(pdf))
      .expect(201);
    const file = up.body as { file_id: string; sha256: string; pages: number };
    expect(file.pages).toBe(3);
    await a.app.get(FileStoreService).beforeApplicationShutdown(); // its write has ended
    expect(sha(await readFile(pathOf(file.file_id)))).toBe(file.sha256);
    expect(await rows()).toBe(beforeRows + 1);
  });

  it('expired files leave the directory with their rows; bytes gone from the directory are reported, not waited for', async () => {
    const up = await request(b.server)
      .post('/files')
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from(pdf))
      .expect(201);
    const id = (up.body as { file_id: string }).file_id;
    await b.app.get(FileStoreService).beforeApplicationShutdown(); // its write has ended
    expect(existsSync(pathOf(id))).toBe(true);
    await direct.query(`UPDATE pdf_files SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await a.app.get(FileStoreService).cleanup()).toBeGreaterThanOrEqual(1);
    expect(existsSync(pathOf(id))).toBe(false);
    expect((await direct.query('SELECT 1 FROM pdf_files WHERE id = $1', [id])).rowCount).toBe(0);

    const lost = await request(b.server)
      .post('/files')
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from(pdf))
      .expect(201);
    const lostId = (lost.body as { file_id: string }).file_id;
    await b.app.get(FileStoreService).beforeApplicationShutdown();
    await rm(pathOf(lostId));
    await direct.query('UPDATE pdf_files SET created_at = now() - make_interval(secs => $2) WHERE id = $1', [
      lostId,
      FILE_WRITE_WAIT_MS / 1000 + 1,
    ]);
    const res = await get(a, lostId).expect(404);
    expect(JSON.parse(String(res.body))).toMatchObject({
      error: 'file_not_found',
      message: expect.stringMatching(/not stored completely/),
    });
  });
});
