import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { EgressGuard } from '../../common/egress/egress-guard';
import { readSitemap, SITEMAP_MAX_INFLATED_BYTES } from './sitemap';

/** Sitemap reading against a loopback server: indexes, gzip, loops, off-origin entries, a gzip bomb, the address cap. */
describe('readSitemap', () => {
  let server: Server;
  let origin = '';
  const files: Record<string, () => Buffer | string> = {};

  beforeAll(async () => {
    server = createServer((req, res) => {
      const f = files[req.url ?? ''];
      if (!f) return void res.writeHead(404).end();
      res.writeHead(200).end(f());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const urlset = (paths: string[]) =>
      `<urlset>${paths.map((p) => `<url><loc>${p.startsWith('http') ? p : origin + p}</loc></url>`).join('')}</urlset>`;
    files['/index.xml'] = () =>
      `<sitemapindex><sitemap><loc>${origin}/a.xml.gz</loc></sitemap><sitemap><loc>${origin}/index.xml</loc></sitemap><sitemap><loc>${origin}/b.xml</loc></sitemap><sitemap><loc>https://other.example/s.xml</loc></sitemap></sitemapindex>`;
    files['/a.xml.gz'] = () => gzipSync(urlset(['/one', '/two', 'https://other.example/x']));
    files['/b.xml'] = () =>
      `<sitemapindex><sitemap><loc>${origin}/index.xml</loc></sitemap></sitemapindex>${urlset(['/three'])}`;
    files['/bomb.xml.gz'] = () => gzipSync(Buffer.alloc(SITEMAP_MAX_INFLATED_BYTES + 1024, 0x20));
    files['/many.xml'] = () => urlset(Array.from({ length: 50 }, (_, i) => `/p${i}`));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const guard = () => new EgressGuard({ allowLoopback: true });

  it('follows an index into gzipped sitemaps once each, same origin only', async () => {
    const r = await readSitemap(guard(), new URL(`${origin}/index.xml`), origin, 100);
    expect(r.urls.sort()).toEqual([`${origin}/one`, `${origin}/three`, `${origin}/two`]);
    expect(r.problems).toEqual([]);
  });

  it('stops a gzip bomb at the inflated size cap, and a missing file, with a problem each', async () => {
    const r = await readSitemap(guard(), new URL(`${origin}/bomb.xml.gz`), origin, 100);
    expect(r.urls).toEqual([]);
    expect(r.problems[0]).toMatch(/inflates beyond/);
    const missing = await readSitemap(guard(), new URL(`${origin}/none.xml`), origin, 100);
    expect(missing.problems[0]).toMatch(/HTTP 404/);
  });

  it('reads at most the addresses asked for', async () => {
    expect((await readSitemap(guard(), new URL(`${origin}/many.xml`), origin, 7)).urls).toHaveLength(7);
  });

  it('refuses loopback without the unsafe setting (the egress guard)', async () => {
    const r = await readSitemap(new EgressGuard({ allowLoopback: false }), new URL(`${origin}/index.xml`), origin, 100);
    expect(r.urls).toEqual([]);
    expect(r.problems[0]).toMatch(/Refused/);
  });
});
