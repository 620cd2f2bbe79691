import { gzipSync } from 'node:zlib';
import { FixtureServer, html, send, startFixtureServer } from './fixture-server';

/**
 * A small loopback site for accessibility monitoring: six pages sharing a template whose header
 * logo has no text alternative (image-alt on every page), one page with an extra defect of its own
 * (an empty button on /p3), a sitemap index pointing at a gzipped sitemap (and at itself, a loop,
 * and off-origin), a robots.txt that disallows /private, and the ownership file once `token` is set.
 */
export interface SitesFixture {
  server: FixtureServer;
  origin: string;
  /** The verification token the ownership file carries ('' = no file). */
  token: string;
  /** Extra markup every page gets (a new defect for a second scan). */
  extra: string;
  close(): Promise<void>;
}

export const SITE_PAGES = ['/', '/p1', '/p2', '/p3', '/p4', '/p5'];

export async function startSitesFixture(): Promise<SitesFixture> {
  const state = { token: '', extra: '' };
  const pageOf = (path: string) => () =>
    html(
      `<header><a href="/">Home</a> <img src="/logo.png" width="20" height="20"></header>
<main><h1>Page ${path}</h1><p>Content of ${path}.</p>${path === '/p3' ? '<button></button>' : ''}${state.extra}</main>`,
      `Page ${path}`,
    );
  const routes: Parameters<typeof startFixtureServer>[0] = {};
  for (const p of [...SITE_PAGES, '/private']) routes[p] = (_q, res) => send(res, 200, pageOf(p)());
  let busy = 0;
  routes['/busy'] = (_q, res) =>
    ++busy === 1 ? send(res, 429, 'slow down', { 'Retry-After': '1' }) : send(res, 200, pageOf('/busy')());
  routes['/logo.png'] = (_q, res) => send(res, 404, '');
  routes['/robots.txt'] = (_q, res) =>
    send(res, 200, 'User-agent: *\nDisallow: /private\n', { 'Content-Type': 'text/plain' });
  routes['/sitemap.xml'] = (_q, res, origin) =>
    send(
      res,
      200,
      `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>${origin}/sitemap-pages.xml.gz</loc></sitemap><sitemap><loc>${origin}/sitemap.xml</loc></sitemap><sitemap><loc>https://elsewhere.example/sitemap.xml</loc></sitemap></sitemapindex>`,
      { 'Content-Type': 'application/xml' },
    );
  routes['/sitemap-pages.xml.gz'] = (_q, res, origin) => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[...SITE_PAGES, '/private'].map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}<url><loc>https://elsewhere.example/x</loc></url></urlset>`;
    res.writeHead(200, { 'Content-Type': 'application/gzip' }).end(gzipSync(xml));
  };
  routes['/.well-known/beacon-verification.txt'] = (_q, res) =>
    state.token ? send(res, 200, state.token, { 'Content-Type': 'text/plain' }) : send(res, 404, '');
  const server = await startFixtureServer(routes);
  return {
    server,
    origin: server.origin,
    get token() {
      return state.token;
    },
    set token(v: string) {
      state.token = v;
    },
    get extra() {
      return state.extra;
    },
    set extra(v: string) {
      state.extra = v;
    },
    close: () => server.close(),
  };
}
