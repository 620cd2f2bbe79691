import type { AddressInfo } from 'node:net';
import type { TestApp } from '../utils/test-app';
import { WebClient } from '../web/web-client';
import { createPdfTestApp, nextIp, textPdf } from './helpers';

/**
 * File names of multipart uploads are UTF-8 (as browsers send them), not Latin-1: both the
 * `POST /files` upload and the website's upload form (the same upload service) keep
 * "résumé-日本.pdf" as it is, in the answer, the stored row and the download's name.
 */
describe('PDF uploads: multipart file names in UTF-8 (e2e)', () => {
  const NAME = 'résumé-日本.pdf';
  let t: TestApp;
  let pdf: Uint8Array;
  let origin: string;

  beforeAll(async () => {
    t = await createPdfTestApp();
    pdf = await textPdf(1, { name: 'names' });
    origin = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
  });

  /** A multipart body as a browser builds it: the file name's UTF-8 bytes in Content-Disposition. */
  const form = (): FormData => {
    const f = new FormData();
    f.set('file', new Blob([Buffer.from(pdf)], { type: 'application/pdf' }), NAME);
    return f;
  };
  const storedName = async (id: string): Promise<string> =>
    (await t.dataSource.query('SELECT filename FROM pdf_files WHERE id = $1', [id]))[0].filename;

  it('POST /files (multipart): the answer, the stored row and the download keep the name', async () => {
    const res = await fetch(`${origin}/files`, {
      method: 'POST',
      body: form(),
      headers: { 'X-Forwarded-For': nextIp() },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { file_id: string; filename: string; download_url: string };
    expect(body.filename).toBe(NAME);
    expect(await storedName(body.file_id)).toBe(NAME);
    const download = await fetch(`${origin}${new URL(body.download_url).pathname}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(NAME)}`);
    await download.arrayBuffer();
  });

  it("the website's upload form keeps the name too (page and stored row)", async () => {
    const c = WebClient.of(t.server);
    await c.get('/pdf/rotate-pages');
    const res = await c.request(
      'POST',
      `/pdf/rotate-pages/upload?${new URLSearchParams({ _csrf: c.csrf() }).toString()}`,
      { body: form() },
    );
    expect(res.status).toBe(200);
    const id = /name="file_id" value="([^"]+)"/.exec(res.text)?.[1];
    expect(id).toBeDefined();
    expect(await storedName(id!)).toBe(NAME);
    expect(res.text).toContain('résumé-日本.pdf');
    expect(res.text).not.toContain('rÃ©sumÃ©');
  });
});
