import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createHash } from 'node:crypto';
import { connect as tcpConnect } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { TestApp } from '../utils/test-app';
import { qpdf } from './corpus';
import { call, connect, createPdfTestApp, download, nextIp, sc, textPdf } from './helpers';

/** POST /files: uploads outside MCP (raw body or multipart), limits, slow clients, rate limit. */
describe('PDF upload, POST /files (e2e)', () => {
  let t: TestApp;
  let pdf: Uint8Array;
  const clients: Client[] = [];
  const MAX = 200_000;

  beforeAll(async () => {
    t = await createPdfTestApp({
      env: {
        PDF_MAX_FILE_BYTES: String(MAX),
        PDF_UPLOAD_IDLE_TIMEOUT_MS: '500',
        PDF_UPLOAD_RATE_LIMIT: '6',
        PDF_MCP_DAILY_CAP: '3',
      },
    });
    pdf = await textPdf(3, { name: 'upload' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });
  /** POST /files with `body` as a raw application/pdf body, from client IP `ip`. */
  const postPdf = (body: Uint8Array | string, ip = nextIp()): request.Test =>
    request(t.server)
      .post('/files')
      .set('X-Forwarded-For', ip)
      .set('Content-Type', 'application/pdf')
      .send(Buffer.from(body));
  const storedCount = async (): Promise<number> =>
    Number((await t.dataSource.query('SELECT count(*)::int AS n FROM pdf_files'))[0].n);

  it('raw body: 201 {file_id, expires_at, bytes, pages, sha256}; two tools chain on it; no tool quota spent', async () => {
    const ip = nextIp();
    const res = await postPdf(pdf, ip).expect(201);
    expect(res.body).toMatchObject({
      bytes: pdf.length,
      pages: 3,
      sha256: createHash('sha256').update(pdf).digest('hex'),
    });
    expect(res.body.file_id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(res.body.expires_at).getTime()).toBeGreaterThan(Date.now());
    const client = await connect(t, ip);
    clients.push(client);
    const rotated = sc(await call(client, 'rotate_pages', { file: { file_id: res.body.file_id }, angle: 90 }));
    expect(rotated.quota.remaining).toBe(2); // the upload spent nothing: this call is the first
    const numbered = sc(await call(client, 'add_page_numbers', { file: { file_id: rotated.file_id } }));
    expect(numbered.pages).toBe(3);
    expect((await download(t, numbered as { download_url: string })).length).toBeGreaterThan(0);
  });

  it('multipart field "file" (a browser form) works the same', async () => {
    const res = await request(t.server)
      .post('/files')
      .set('X-Forwarded-For', nextIp())
      .attach('file', Buffer.from(pdf), 'form.pdf')
      .expect(201);
    expect(res.body).toMatchObject({ bytes: pdf.length, pages: 3, filename: 'form.pdf' });
    // Stored as sent: the file alone, not the rest of the body its Content-Length covers.
    expect(Buffer.from(await download(t, res.body as { download_url: string })).equals(Buffer.from(pdf))).toBe(true);
  });

  it('a raw body takes its name from ?filename= or Content-Disposition (else upload.pdf); results are named after it', async () => {
    const post = () =>
      request(t.server).post('/files').set('X-Forwarded-For', nextIp()).set('Content-Type', 'application/pdf');
    const byQuery = await post().query({ filename: 'Q3 report.pdf' }).send(Buffer.from(pdf)).expect(201);
    expect(byQuery.body.filename).toBe('Q3 report.pdf');
    const byHeader = await post()
      .set('Content-Disposition', 'attachment; filename="minutes.pdf"')
      .send(Buffer.from(pdf))
      .expect(201);
    expect(byHeader.body.filename).toBe('minutes.pdf');
    const utf8 = await post()
      .set('Content-Disposition', `attachment; filename="x.pdf"; filename*=UTF-8''${encodeURIComponent('отчёт.pdf')}`)
      .send(Buffer.from(pdf))
      .expect(201);
    expect(utf8.body.filename).toBe('отчёт.pdf');
    const unnamed = await post().send(Buffer.from(pdf)).expect(201);
    expect(unnamed.body.filename).toBe('upload.pdf');
    const client = await connect(t, nextIp());
    clients.push(client);
    expect(
      sc(await call(client, 'rotate_pages', { file: { file_id: byHeader.body.file_id }, angle: 90 })).filename,
    ).toBe('minutes-rotated.pdf');
  });

  it('a file encrypted with a user password is stored as sent; the tools open its file_id with `password`', async () => {
    const ip = nextIp();
    const enc = qpdf(pdf, ['--encrypt', 'user', 'owner', '256', '--']);
    const res = await postPdf(enc, ip).expect(201);
    expect(res.body).toMatchObject({ encrypted: true, pages: null, bytes: enc.length });
    expect(res.body.note).toContain(`{"file_id": "${res.body.file_id}", "password": "..."}`);
    const client = await connect(t, ip);
    clients.push(client);
    const none = await call(client, 'rotate_pages', { file: { file_id: res.body.file_id }, angle: 90 });
    expect(sc(none)).toMatchObject({ error: 'encrypted', password_given: false });
    expect(sc(none).message).toMatch(/Pass it as `password` next to the file/);
    const wrong = await call(client, 'rotate_pages', {
      file: { file_id: res.body.file_id, password: 'nope' },
      angle: 90,
    });
    expect(sc(wrong)).toMatchObject({ error: 'encrypted', password_given: true });
    const right = await call(client, 'rotate_pages', {
      file: { file_id: res.body.file_id, password: 'user' },
      angle: 90,
    });
    expect(right.isError).toBeFalsy();
    expect(sc(right).pages).toBe(3);
    expect(sc(right).note).toMatch(/^File was opened with the given password; the result is not encrypted\.$/);
    // An owner-password-only file opens without a password: checked and counted at upload.
    const owner = qpdf(pdf, ['--encrypt', '', 'owner', '256', '--']);
    const ownerRes = await postPdf(owner, ip).expect(201);
    expect(ownerRes.body.pages).toBe(3);
    expect(ownerRes.body.encrypted).toBeUndefined();
  });

  it('not a PDF, another media type, a multipart body without "file": clear errors, nothing stored', async () => {
    const before = await storedCount();
    const notPdf = await postPdf('hello').expect(415);
    expect(notPdf.body).toMatchObject({
      ok: false,
      error: 'unsupported_media_type',
      message: expect.stringMatching(/not a PDF/),
    });
    const json = await request(t.server).post('/files').set('X-Forwarded-For', nextIp()).send({ a: 1 }).expect(415);
    expect(json.body.message).toMatch(/application\/pdf.*multipart\/form-data field "file"/);
    const noFile = await request(t.server)
      .post('/files')
      .set('X-Forwarded-For', nextIp())
      .field('other', 'x')
      .expect(400);
    expect(noFile.body.message).toMatch(/field "file"/);
    expect(await storedCount()).toBe(before);
  });

  it('over the size limit: 413 from Content-Length, and cut off while streaming without one; nothing stored', async () => {
    const before = await storedCount();
    const big = Buffer.concat([Buffer.from(pdf), Buffer.alloc(MAX)]);
    const declared = await postPdf(big).expect(413);
    expect(declared.body).toMatchObject({ error: 'payload_too_large', limit: MAX });
    const multipart = await request(t.server)
      .post('/files')
      .set('X-Forwarded-For', nextIp())
      .attach('file', big, 'big.pdf')
      .expect(413);
    expect(multipart.body.message).toMatch(/larger than the limit/);
    expect(await storedCount()).toBe(before);
  });

  it('a client trickling bytes is cut off with 408 and its connection freed', async () => {
    const port = (t.server.address() as AddressInfo).port;
    const socket = tcpConnect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /files HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${nextIp()}\r\nContent-Type: application/pdf\r\nContent-Length: 100000\r\n\r\n%PDF-1.7\n`,
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toMatch(/request_timeout/);
  });

  it('llms.txt and the server instructions show the one curl line, then file_id', async () => {
    const text = (await request(t.server).get('/llms.txt').expect(200)).text;
    const base = t.config.publicBaseUrl();
    expect(text).toContain(
      `curl -sS -H 'Content-Type: application/pdf' --data-binary @file.pdf '${base}/files?filename=file.pdf'`,
    );
    expect(text).toMatch(/pass the `file_id` to any tool/);
    // The scan API is POST only: llms.txt links the scan form, which answers.
    expect(text).not.toContain(`](${base}/api/scan)`);
    expect(text).toContain(`[Accessibility scans](${base}/scan)`);
    const client = await connect(t, nextIp());
    clients.push(client);
    // The real address, not a placeholder.
    expect(client.getInstructions()).toContain(
      `--data-binary @file.pdf "${base}/files?filename=file.pdf", then pass the file_id`,
    );
    expect(client.getInstructions()).not.toContain('<server>');
    // Clients that drop the instructions still see where a file_id comes from, on every file argument.
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const props = tool.inputSchema.properties as Record<
        string,
        { description?: string; items?: { description?: string } }
      >;
      const file = props.file ?? props.files?.items;
      expect({ tool: tool.name, description: file?.description }).toEqual({
        tool: tool.name,
        description: 'file_id (from a result or POST /files), url or base64.',
      });
    }
  });

  it('uploads are rate-limited per client IP', async () => {
    const ip = nextIp();
    for (let i = 0; i < 6; i++) await postPdf(pdf, ip).expect(201);
    await postPdf(pdf, ip).expect(429);
  });
});
