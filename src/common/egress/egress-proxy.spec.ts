import { createServer, request, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { EgressGuard } from './egress-guard';
import { EGRESS_ERROR_HEADER, EGRESS_HEADER, EgressProxy, parseAuthority } from './egress-proxy';

/** Loopback only: 127.0.0.1 is "public" for these tests, 127.0.0.2 is "internal". */
describe('EgressProxy (loopback traffic only)', () => {
  let allowed: Server;
  let internal: Server;
  let proxy: EgressProxy;
  const internalHits: string[] = [];
  let answers = 0;

  const listen = async (s: Server, host: string, port = 0) => {
    await new Promise<void>((r) => s.listen(port, host, () => r()));
    return (s.address() as AddressInfo).port;
  };

  beforeAll(async () => {
    internal = createServer((req, res) => {
      internalHits.push(req.url ?? '');
      res.end('internal');
    });
    internal.on('connection', () => internalHits.push('tcp'));
    const port = await listen(internal, '127.0.0.2');
    allowed = createServer((req, res) => {
      res.setHeader(EGRESS_HEADER, 'refused'); // a target cannot forge the proxy's verdict
      res.end(
        `public ${req.method} ${req.url} host=${req.headers.host} pc=${String(req.headers['proxy-connection'] ?? '-')}`,
      );
    });
    allowed.on('upgrade', (req, socket) =>
      socket.end(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nhello ${String(req.url)}`,
      ),
    );
    await listen(allowed, '127.0.0.1', port);
    const resolver = async (host: string) => {
      if (host === 'public.test') return ['127.0.0.1'];
      if (host === 'rebind.test') return ++answers % 2 === 1 ? ['127.0.0.1'] : ['127.0.0.2'];
      if (host === 'mixed.test') return ['127.0.0.1', '127.0.0.2'];
      throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
    };
    proxy = new EgressProxy(() => new EgressGuard({ allowLoopback: (a) => a === '127.0.0.1' }, resolver));
    await proxy.start();
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((r) => allowed.close(r));
    await new Promise((r) => internal.close(r));
  });

  const port = () => (allowed.address() as AddressInfo).port;

  function viaProxy(url: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: proxy.port, path: url, headers: { 'Proxy-Connection': 'keep-alive' } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** Raw CONNECT; resolves with the proxy's status line and the socket. */
  function tunnel(authority: string): Promise<{ line: string; head: string; socket: Socket }> {
    return new Promise((resolve, reject) => {
      const s = connect(proxy.port!, '127.0.0.1', () =>
        s.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
      );
      let buf = '';
      s.on('data', function onData(c: Buffer) {
        buf += c.toString();
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        s.off('data', onData);
        resolve({ line: buf.split('\r\n')[0], head: buf.slice(0, end), socket: s });
      });
      s.on('error', reject);
      s.on('close', () => reject(new Error(`closed: ${buf}`)));
    });
  }

  it('forwards plain HTTP to an allowed host, drops hop-by-hop headers and any forged verdict header', async () => {
    const r = await viaProxy(`http://public.test:${port()}/a?b=1`);
    expect(r.status).toBe(200);
    expect(r.body).toBe(`public GET /a?b=1 host=public.test:${port()} pc=-`);
    expect(r.headers[EGRESS_HEADER]).toBeUndefined();
  });

  it('refuses a refused address with 403 and its verdict header; nothing reaches it', async () => {
    const r = await viaProxy(`http://127.0.0.2:${port()}/admin`);
    expect([r.status, r.headers[EGRESS_HEADER]]).toEqual([403, 'refused']);
    const m = await viaProxy(`http://mixed.test:${port()}/`);
    expect(m.status).toBe(403); // one internal address among public ones is enough to refuse
    expect(internalHits).toEqual([]);
  });

  it('connects to the address it checked: a rebinding name is refused on the lookup that answers internal', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await viaProxy(`http://rebind.test:${port()}/x`)).status);
    expect(statuses).toEqual([200, 403, 200, 403]);
    expect(internalHits).toEqual([]);
    expect(proxy.refusalFor('rebind.test')).toMatchObject({
      unresolvable: false,
      detail: 'rebind.test is loopback (127.0.0.2)',
    });
    expect(proxy.refusalFor('rebind.test')?.publicReason).not.toContain('127.0.0.2');
  });

  it('an unknown name or a closed port is 502 with the error code', async () => {
    const r = await viaProxy('http://nowhere.test/');
    expect([r.status, r.headers[EGRESS_HEADER], r.headers[EGRESS_ERROR_HEADER]]).toEqual([
      502,
      'unreachable',
      'ENOTFOUND',
    ]);
    const probe = createServer();
    const closed = await listen(probe, '127.0.0.1');
    await new Promise((res) => probe.close(res));
    const c = await viaProxy(`http://public.test:${closed}/`);
    expect([c.status, c.headers[EGRESS_ERROR_HEADER]]).toEqual([502, 'ECONNREFUSED']);
  });

  it('CONNECT tunnels to allowed hosts only (https, wss)', async () => {
    const ok = await tunnel(`public.test:${port()}`);
    expect(ok.line).toBe('HTTP/1.1 200 Connection Established');
    const body = await new Promise<string>((resolve) => {
      let b = '';
      ok.socket.on('data', (c: Buffer) => {
        b += c.toString();
        if (b.includes('public GET')) resolve(b);
      });
      ok.socket.write(`GET /through HTTP/1.1\r\nHost: public.test\r\nConnection: close\r\n\r\n`);
    });
    expect(body).toContain('public GET /through');
    ok.socket.destroy();
    for (const a of [`127.0.0.2:${port()}`, `[::ffff:127.0.0.1]:${port()}`, `rebind.test:${port()}`]) {
      const no = await tunnel(a);
      if (a.startsWith('rebind')) continue; // alternating answers: covered above
      expect(no.line).toBe('HTTP/1.1 403 Forbidden');
      expect(no.head).toContain(`${EGRESS_HEADER}: refused`);
      no.socket.destroy();
    }
    expect((await tunnel('no-port.test')).line).toBe('HTTP/1.1 400 Bad Request');
    expect(internalHits).toEqual([]);
  });

  it('forwards WebSocket upgrades on plain requests after the same check', async () => {
    const send = (host: string) =>
      new Promise<string>((resolve) => {
        const s = connect(proxy.port!, '127.0.0.1', () =>
          s.write(
            `GET http://${host}:${port()}/ws HTTP/1.1\r\nHost: ${host}:${port()}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
          ),
        );
        let b = '';
        s.on('data', (c: Buffer) => (b += c.toString()));
        s.on('close', () => resolve(b));
        setTimeout(() => s.destroy(), 500);
      });
    expect(await send('public.test')).toContain('hello /ws');
    expect(await send('127.0.0.2')).toMatch(/^HTTP\/1.1 403/);
    expect(internalHits).toEqual([]);
  });

  it('parses CONNECT authorities', () => {
    expect(parseAuthority('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseAuthority('[::1]:8443')).toEqual({ host: '[::1]', port: 8443 });
    for (const bad of ['example.com', 'a:0', 'a:70000', 'user@a:1', 'a b:1', ''])
      expect(parseAuthority(bad)).toBeUndefined();
  });
});

describe('EgressGuard', () => {
  const guard = new EgressGuard({ allowLoopback: false }, async (h) =>
    h === 'pub.test' ? ['93.184.216.34', '2606:2800:220:1::1'] : ['10.0.0.1'],
  );

  it('resolveAllowed returns the pinned address or refuses', async () => {
    await expect(guard.resolveAllowed('pub.test')).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(guard.resolveAllowed('[2606:4700:4700::1111]')).resolves.toEqual({
      address: '2606:4700:4700::1111',
      family: 6,
    });
    await expect(guard.resolveAllowed('inside.test')).rejects.toMatchObject({
      name: 'EgressRefusal',
      publicReason: 'inside.test does not resolve to a public address',
    });
    await expect(guard.resolveAllowed('localhost')).rejects.toMatchObject({ name: 'EgressRefusal' });
  });

  it('lookup is dns.lookup-compatible', async () => {
    const one = await new Promise((r) => guard.lookup('pub.test', {}, (e, a, f) => r([e, a, f])));
    expect(one).toEqual([null, '93.184.216.34', 4]);
    const v6 = await new Promise((r) => guard.lookup('pub.test', { family: 6, all: true }, (e, a) => r([e, a])));
    expect(v6).toEqual([null, [{ address: '2606:2800:220:1::1', family: 6 }]]);
    const refused = await new Promise<NodeJS.ErrnoException | null>((r) =>
      guard.lookup('inside.test', {}, (e) => r(e)),
    );
    expect(refused?.code).toBe('EGRESS_REFUSED');
  });
});
