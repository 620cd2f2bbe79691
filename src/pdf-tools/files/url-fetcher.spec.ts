import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { EgressGuard } from '../../common/egress/egress-guard';
import { ToolFailure } from '../core/tool-failure';
import { UrlFetcher, UrlFetchLimits } from './url-fetcher';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const LIMITS: UrlFetchLimits = { maxBytes: 100_000, connectTimeoutMs: 2000, totalTimeoutMs: 3000, maxRedirects: 3 };

/** A loopback fixture server: routes by path; counts connections and the bytes it managed to send. */
class Fixture {
  server!: Server;
  connections = 0;
  sent = 0;
  closedEarly = 0;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly route: (req: IncomingMessage, res: ServerResponse, f: Fixture) => void) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.route(req, res, this));
    this.server.on('connection', (s: Socket) => {
      this.connections++;
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return this;
  }

  get base(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** Writes `chunk` until `total` bytes are out or the client goes away (honouring backpressure); counts what was written. */
function stream(res: ServerResponse, f: Fixture, chunk: Buffer, total: number): void {
  let closed = false;
  res.on('close', () => {
    closed = true;
    if (f.sent < total) f.closedEarly++;
  });
  const pump = () => {
    while (!closed && f.sent < total) {
      f.sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!closed) res.end();
  };
  pump();
}

async function failure(p: Promise<unknown>): Promise<ToolFailure> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ToolFailure) return e;
    throw e;
  }
  throw new Error('expected a ToolFailure');
}

describe('UrlFetcher', () => {
  let fixture: Fixture;
  let lookups: string[];
  const resolver = async (host: string): Promise<string[]> => {
    lookups.push(host);
    if (host === 'pdf.test') return ['127.0.0.1'];
    if (host === 'internal.test') return ['10.1.2.3'];
    if (host === 'mixed.test') return ['127.0.0.1', '169.254.169.254'];
    if (host === 'silent.test') return new Promise<string[]>(() => undefined);
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };
  const fetcher = (limits: Partial<UrlFetchLimits> = {}, allowLoopback = true) =>
    new UrlFetcher(new EgressGuard({ allowLoopback }, resolver), { ...LIMITS, ...limits });
  const get = async (
    path: string,
    limits: Partial<UrlFetchLimits> = {},
    onProgress?: (n: number, t?: number) => void,
  ) => {
    const f = fetcher(limits);
    return f.fetch(await f.check(`${fixture.base}${path}`, 'file'), 'file', onProgress);
  };

  beforeEach(async () => {
    lookups = [];
    fixture = await new Fixture((req, res, f) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = Number(url.searchParams.get('n') ?? 0);
      switch (url.pathname) {
        case '/report.pdf':
          res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': PDF.length }).end(PDF);
          return;
        case '/junk':
          res
            .writeHead(200, { 'content-type': 'application/octet-stream' })
            .end(Buffer.concat([Buffer.alloc(300, 0x20), PDF]));
          return;
        case '/named':
          res
            .writeHead(200, {
              'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('Résumé.pdf')}`,
            })
            .end(PDF);
          return;
        case '/gzip':
          res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(PDF));
          return;
        case '/html':
          res.writeHead(200, { 'content-type': 'text/html' });
          return stream(res, f, Buffer.alloc(16 * 1024, '<p>hello</p>'), 50 * 1024 * 1024);
        case '/endless':
          res.writeHead(200, { 'content-type': 'application/pdf' });
          return stream(res, f, Buffer.concat([PDF, Buffer.alloc(64 * 1024 - PDF.length, 0x20)]), 200 * 1024 * 1024);
        case '/declared-large':
          res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': 50 * 1024 * 1024 });
          return stream(res, f, Buffer.concat([PDF, Buffer.alloc(64 * 1024 - PDF.length, 0x20)]), 50 * 1024 * 1024);
        case '/slow':
          res.writeHead(200, { 'content-type': 'application/pdf' });
          res.write(PDF);
          return; // never ends
        case '/missing':
          res.writeHead(404).end('not here');
          return;
        case '/to':
          res.writeHead(302, { location: url.searchParams.get('location')! }).end();
          return;
        case '/loop':
          res.writeHead(301, { location: '/loop' }).end();
          return;
        case '/chain':
          res.writeHead(307, { location: n >= 10 ? '/report.pdf' : `/chain?n=${n + 1}` }).end();
          return;
        default:
          res.writeHead(500).end();
      }
    }).start();
  });
  afterEach(() => fixture.close());

  it('downloads a PDF, names it from the path, reports progress', async () => {
    const progress: [number, number | undefined][] = [];
    const got = await get('/report.pdf', {}, (n, t) => progress.push([n, t]));
    expect(Buffer.from(got.bytes).equals(PDF)).toBe(true);
    expect(got.filename).toBe('report.pdf');
    expect(progress[progress.length - 1]).toEqual([PDF.length, PDF.length]);
  });

  it('accepts bytes before the %PDF- header (as the engine does), a Content-Disposition name, a gzip body', async () => {
    expect((await get('/junk')).bytes.length).toBe(300 + PDF.length);
    expect((await get('/named')).filename).toBe('Résumé.pdf');
    expect(Buffer.from((await get('/gzip')).bytes).equals(PDF)).toBe(true);
  });

  it('connects to the address the guard checked: one lookup per host, never a second one (DNS rebinding)', async () => {
    const port = (fixture.server.address() as AddressInfo).port;
    const f = fetcher();
    const checked = await f.check(`http://pdf.test:${port}/report.pdf`, 'file');
    expect(checked.pinned.address).toBe('127.0.0.1');
    const got = await f.fetch(checked, 'file');
    expect(got.bytes.length).toBe(PDF.length);
    expect(lookups).toEqual(['pdf.test']);
  });

  it('refuses loopback without the unsafe setting, private and metadata addresses, other schemes and credentials: nothing is fetched', async () => {
    const f = fetcher({}, false);
    const port = (fixture.server.address() as AddressInfo).port;
    for (const url of [
      `${fixture.base}/report.pdf`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/a.pdf',
      'http://internal.test/a.pdf',
      'http://mixed.test/a.pdf',
      'http://[::ffff:a9fe:a9fe]/',
    ]) {
      const e = await failure(f.check(url, 'file'));
      expect(e.code).toBe('url_not_allowed');
      expect(e.details).toMatchObject({ input: 'file', reason: 'address' });
    }
    expect((await failure(fetcher().check('file:///etc/passwd', 'file'))).details).toMatchObject({ reason: 'scheme' });
    expect((await failure(fetcher().check('ftp://example.com/a.pdf', 'file'))).code).toBe('url_not_allowed');
    expect((await failure(fetcher().check('http://user:pw@127.0.0.1/a.pdf', 'file'))).details).toMatchObject({
      reason: 'credentials',
    });
    expect((await failure(fetcher().check('not a url', 'files[1]'))).code).toBe('invalid_arguments');
    expect((await failure(fetcher().check('http://nowhere.test/a.pdf', 'file'))).code).toBe('download_failed');
    // The internal.test message does not reveal what the name resolved to.
    expect((await failure(f.check('http://internal.test/a.pdf', 'file'))).message).not.toContain('10.1.2.3');
    expect(fixture.connections).toBe(0);
  });

  it('follows redirects, re-checking every hop: to a refused address, another scheme, a loop, too many: refused', async () => {
    expect((await get(`/to?location=${encodeURIComponent('/report.pdf')}`)).finalUrl).toBe(
      `${fixture.base}/report.pdf`,
    );
    for (const location of [
      'http://169.254.169.254/latest/meta-data/',
      'http://internal.test/x.pdf',
      'file:///etc/passwd',
      'gopher://127.0.0.1:6379/',
    ]) {
      const e = await failure(get(`/to?location=${encodeURIComponent(location)}`));
      expect(e.code).toBe('url_not_allowed');
      expect(e.message).toMatch(/redirects to/);
    }
    expect((await failure(get('/loop'))).details).toMatchObject({ reason: 'redirect_loop' });
    expect((await failure(get('/chain'))).details).toMatchObject({ reason: 'too_many_redirects', limit: 3 });
    // Within the limit the chain is followed.
    expect((await get('/chain?n=8')).bytes.length).toBe(PDF.length);
  });

  it('not a PDF: refused from its first bytes, the connection dropped long before the end', async () => {
    const e = await failure(get('/html'));
    expect(e.code).toBe('not_a_pdf');
    expect(e.message).toMatch(/text\/html/);
    await new Promise((r) => setTimeout(r, 50));
    expect(fixture.closedEarly).toBe(1);
    expect(fixture.sent).toBeLessThan(10 * 1024 * 1024);
  });

  it('too large: refused from Content-Length, and cut off while streaming without one (connection dropped, not read to the end)', async () => {
    const declared = await failure(get('/declared-large'));
    expect(declared).toMatchObject({ code: 'file_too_large', details: { input: 'file', limit: LIMITS.maxBytes } });
    await new Promise((r) => setTimeout(r, 50));
    expect(fixture.closedEarly).toBe(1);
    expect(fixture.sent).toBeLessThan(20 * 1024 * 1024);
    fixture.sent = 0;
    fixture.closedEarly = 0;
    const streamed = await failure(get('/endless'));
    expect(streamed.code).toBe('file_too_large');
    await new Promise((r) => setTimeout(r, 50));
    expect(fixture.closedEarly).toBe(1);
    // The server could push at most the limit plus what the socket buffers held: far from 200 MB.
    expect(fixture.sent).toBeLessThan(20 * 1024 * 1024);
  });

  it('a slow server hits the total timeout; an HTTP error status is a download failure', async () => {
    const t0 = Date.now();
    const slow = await failure(get('/slow', { totalTimeoutMs: 300 }));
    expect(slow).toMatchObject({ code: 'download_failed', details: { reason: 'timeout' } });
    expect(Date.now() - t0).toBeLessThan(2500);
    const silent = await failure(fetcher({ connectTimeoutMs: 200 }).check('http://silent.test/a.pdf', 'file'));
    expect(silent).toMatchObject({ code: 'download_failed', details: { reason: 'dns' } });
    const missing = await failure(get('/missing'));
    expect(missing).toMatchObject({ code: 'download_failed', details: { reason: 'http_status' } });
    expect(missing.message).toMatch(/HTTP 404/);
  });
});
