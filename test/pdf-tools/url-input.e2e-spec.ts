import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PDFDocument } from 'pdf-lib';
import type { TestApp } from '../utils/test-app';
import { b64, call, connect, createPdfTestApp, download, nextIp, sc, textPdf } from './helpers';

const MAX = 300_000;

/** A loopback web server with the PDFs and the misbehaviours the tests need; counts connections and bytes sent. */
class PdfSite {
  server!: Server;
  connections = 0;
  sent = 0;
  closedEarly = 0;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly files: Record<string, Uint8Array>) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.route(req, res));
    this.server.on('connection', (s: Socket) => {
      this.connections++;
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const file = this.files[url.pathname.slice(1)];
    if (file) {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': file.length }).end(Buffer.from(file));
      return;
    }
    switch (url.pathname) {
      case '/metadata':
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/' }).end();
        return;
      case '/around':
        res.writeHead(302, { location: `/around?n=${Number(url.searchParams.get('n') ?? 0) + 1}` }).end();
        return;
      case '/page.html':
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<!doctype html><title>Not a PDF</title>${'<p>text</p>'.repeat(200)}`);
        return;
      case '/huge.pdf': {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        const chunk = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64 * 1024 - 9, 0x20)]);
        const total = 100 * 1024 * 1024;
        let closed = false;
        res.on('close', () => {
          closed = true;
          if (this.sent < total) this.closedEarly++;
        });
        const pump = () => {
          while (!closed && this.sent < total) {
            this.sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!closed) res.end();
        };
        pump();
        return;
      }
      case '/slow.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.write('%PDF-1.7\n');
        return; // the rest never comes
      default:
        res.writeHead(404).end();
    }
  }
}

/** Tool inputs as an http(s) address: the server downloads them itself (e2e, official SDK client). */
describe('PDF tools, url input and progress (e2e)', () => {
  let t: TestApp;
  let site: PdfSite;
  let twelve: Uint8Array;
  let forty: Uint8Array;
  const clients: Client[] = [];
  const storedCount = async (app: TestApp): Promise<number> =>
    Number((await app.dataSource.query('SELECT count(*)::int AS n FROM pdf_files'))[0].n);
  const client = async (app = t, ip = nextIp()) => {
    const c = await connect(app, ip);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    twelve = await textPdf(12, { name: 'twelve' });
    forty = await textPdf(40, { name: 'forty' });
    site = await new PdfSite({ 'reports/twelve.pdf': twelve, 'forty.pdf': forty }).start();
    t = await createPdfTestApp({
      env: {
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        PDF_MAX_FILE_BYTES: String(MAX),
        PDF_URL_TIMEOUT_MS: '1500',
        PDF_DAILY_REFUNDS: '100',
      },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
    await site.close();
  });

  it('a url from a loopback page (unsafe test setting on): downloaded, processed, named after the path; chains by file_id', async () => {
    const c = await client();
    const r = await call(c, 'rotate_pages', {
      file: { url: site.url('/reports/twelve.pdf') },
      angle: 90,
      pages: '1-2',
    });
    expect(r.isError).toBeFalsy();
    const s = sc(r);
    expect(s).toMatchObject({ pages: 12, rotated_pages: [1, 2], filename: 'twelve-rotated.pdf' });
    expect(s.quota.remaining).toBe(s.quota.limit - 1);
    const out = await PDFDocument.load(await download(t, s as { download_url: string }));
    expect(out.getPage(0).getRotation().angle).toBe(90);
    const merged = sc(
      await call(c, 'merge_pdfs', {
        files: [
          { file_id: s.file_id },
          { url: site.url('/forty.pdf'), pages: '1-3' },
          { base64: b64(twelve), pages: 'last' },
        ],
      }),
    );
    expect(merged.pages).toBe(16);
  });

  it('exactly one of file_id, url or base64', async () => {
    const r = await call(await client(), 'rotate_pages', {
      file: { url: site.url('/forty.pdf'), base64: b64(twelve) },
      angle: 90,
    });
    expect(sc(r)).toMatchObject({ error: 'invalid_arguments', input: 'file' });
    expect(sc(r).message).toMatch(/exactly one of file_id .*url .*base64/);
  });

  it('a redirect to a metadata address and endless redirects are refused, refunded; nothing is stored', async () => {
    const before = await storedCount(t);
    const c = await client();
    const metadata = sc(await call(c, 'compress_pdf', { file: { url: site.url('/metadata') } }));
    expect(metadata).toMatchObject({ error: 'url_not_allowed', input: 'file', reason: 'address', refunded: true });
    expect(metadata.message).toMatch(/redirects to http:\/\/169\.254\.169\.254/);
    const endless = sc(await call(c, 'compress_pdf', { file: { url: site.url('/around') } }));
    expect(endless).toMatchObject({
      error: 'url_not_allowed',
      reason: 'too_many_redirects',
      limit: t.config.PDF_URL_MAX_REDIRECTS,
      refunded: true,
    });
    expect(await storedCount(t)).toBe(before);
  });

  it('not a PDF, too large (cut off while streaming, the connection dropped), too slow: errors naming the input, nothing stored', async () => {
    const before = await storedCount(t);
    const c = await client();
    const html = sc(await call(c, 'merge_pdfs', { files: [{ base64: b64(twelve) }, { url: site.url('/page.html') }] }));
    expect(html).toMatchObject({ error: 'not_a_pdf', input: 'files[1]' });
    expect(html.message).toMatch(/text\/html/);
    const huge = sc(await call(c, 'rotate_pages', { file: { url: site.url('/huge.pdf') }, angle: 180 }));
    expect(huge).toMatchObject({ error: 'file_too_large', input: 'file', limit: MAX });
    await new Promise((r) => setTimeout(r, 100));
    expect(site.closedEarly).toBe(1);
    expect(site.sent).toBeLessThan(20 * 1024 * 1024); // of the 100 MB it would have sent
    const slow = sc(await call(c, 'rotate_pages', { file: { url: site.url('/slow.pdf') }, angle: 180 }));
    expect(slow).toMatchObject({ error: 'download_failed', input: 'file', reason: 'timeout' });
    expect(await storedCount(t)).toBe(before);
  });

  it('progress: a split with a progressToken sends notifications/progress that only grow, up to 100 of 100', async () => {
    const c = await client();
    const updates: Progress[] = [];
    const r = (await c.callTool(
      { name: 'split_pdf', arguments: { file: { url: site.url('/forty.pdf') }, mode: 'every', every: 2 } },
      undefined,
      {
        onprogress: (p) => updates.push(p),
      },
    )) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(sc(r).files).toHaveLength(20);
    expect(updates.length).toBeGreaterThan(10);
    for (let i = 1; i < updates.length; i++) expect(updates[i].progress).toBeGreaterThan(updates[i - 1].progress);
    expect(updates.every((u) => u.total === 100)).toBe(true);
    expect(updates[updates.length - 1].progress).toBe(100);
    expect(updates.some((u) => /Download/.test(u.message ?? ''))).toBe(true);
    expect(updates.some((u) => /Wrote part 10 of 20/.test(u.message ?? ''))).toBe(true);
    // A merge of several stored inputs and a page loop report too; without onprogress nothing is asked.
    const up = sc(await call(c, 'add_page_numbers', { file: { base64: b64(forty) } }));
    const merged: Progress[] = [];
    await c.callTool(
      {
        name: 'merge_pdfs',
        arguments: { files: [{ file_id: up.file_id }, { file_id: up.file_id }, { file_id: up.file_id }] },
      },
      undefined,
      {
        onprogress: (p) => merged.push(p),
      },
    );
    expect(merged.map((u) => u.message)).toEqual(expect.arrayContaining(['Opened files[2]', 'Merged files[2]']));
  });

  describe('without the unsafe setting', () => {
    let strict: TestApp;
    beforeAll(async () => {
      strict = await createPdfTestApp();
    });
    afterAll(() => strict.close());

    it('a loopback url is refused before the quota and before any connection; so are private addresses and other schemes', async () => {
      const c = await client(strict);
      const connections = site.connections;
      const first = sc(await call(c, 'rotate_pages', { file: { url: site.url('/forty.pdf') }, angle: 90 }));
      expect(first).toMatchObject({ error: 'url_not_allowed', input: 'file', reason: 'address' });
      expect(first.quota.remaining).toBe(first.quota.limit); // refused before the quota: nothing spent, nothing refunded
      for (const url of [
        'http://localhost/a.pdf',
        'http://10.0.0.7/a.pdf',
        'http://[fd00::1]/a.pdf',
        'http://169.254.169.254/',
        'file:///etc/passwd',
      ]) {
        expect(sc(await call(c, 'rotate_pages', { file: { url }, angle: 90 }))).toMatchObject({
          error: 'url_not_allowed',
          input: 'file',
        });
      }
      // Plain words, the address not repeated, and what works instead.
      const words: [string, string][] = [
        ['http://169.254.169.254/latest', 'it is a link-local address'],
        ['http://[::ffff:a9fe:a9fe]/', 'it is an IPv4 address written as IPv6'],
        ['http://10.0.0.7/a.pdf', 'it is a private network address'],
        ['http://127.0.0.1/a.pdf', 'it is a loopback address (the server itself)'],
      ];
      for (const [url, why] of words) {
        const { message } = sc(await call(c, 'rotate_pages', { file: { url }, angle: 90 }));
        expect(message).toBe(
          `file: the url is not fetched: ${why}, and this service only fetches public internet addresses. To send a file from your own machine or network, upload it with POST /files (raw PDF body) and pass the file_id it answers.`,
        );
      }
      expect(site.connections).toBe(connections);
    });
  });
});
