import { gzipSync } from 'node:zlib';
import type { SitesService } from '../../src/a11y/sites/sites.service';
import type { SiteScan } from '../../src/a11y/sites/site.types';
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
  /** robots.txt's Crawl-delay for Beacon's user agent, seconds (0 = none). */
  crawlDelay: number;
  /** Paths of the crawl-only site that answer 500 (a page that stops loading). */
  broken: Set<string>;
  /** When each path was requested (ms since the epoch), in order. */
  times: Map<string, number[]>;
  close(): Promise<void>;
}

export const SITE_PAGES = ['/', '/p1', '/p2', '/p3', '/p4', '/p5'];

/**
 * A second site under /c/ with no sitemap, for the same-origin crawl: 30 pages of the same template
 * (image-alt in the header), linked breadth-first (/c/ links /c/1 to /c/5; /c/n links /c/5n+1 to
 * /c/5n+5), plus links the crawl must not follow (another origin, a PDF, mailto:, a page robots.txt
 * disallows) and one it follows through a redirect (/c/old -> /c/29, which nothing else links).
 */
export const CRAWL_PAGES = ['/c/', ...Array.from({ length: 29 }, (_, i) => `/c/${i + 1}`)];

export async function startSitesFixture(): Promise<SitesFixture> {
  const state = { token: '', extra: '', crawlDelay: 0 };
  const broken = new Set<string>();
  const times = new Map<string, number[]>();
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
  const crawlPage = (n: number) => {
    const kids = Array.from({ length: 5 }, (_, i) => n * 5 + i + 1).filter((k) => k <= 28);
    const links = kids.map((k) => `<li><a href="/c/${k}">Page ${k}</a></li>`).join('');
    const extra =
      n === 0
        ? `<li><a href="https://elsewhere.example/c/x">Elsewhere</a></li><li><a href='/c/report.pdf'>PDF</a></li>
<li><a href="mailto:x@example.com">Mail</a></li><li><a href="/c/private/secret">Private</a></li><li><a href="old#top">Old</a></li>`
        : '';
    return html(
      `<header><a href="/c/">Home</a> <img src="/logo.png" width="20" height="20"></header>
<main><h1>Crawl page ${n}</h1><ul>${links}${extra}</ul></main>`,
      `Crawl page ${n}`,
    );
  };
  CRAWL_PAGES.forEach((p, n) => {
    routes[p] = (_q, res) => (broken.has(p) ? send(res, 500, 'down for maintenance') : send(res, 200, crawlPage(n)));
  });
  routes['/c/old'] = (_q, res) => send(res, 301, '', { Location: '/c/29' });
  routes['/c/private/secret'] = (_q, res) => send(res, 200, crawlPage(0));
  let busyDate = 0; // 429 once, Retry-After as an HTTP date two seconds ahead
  routes['/busy-date'] = (_q, res) =>
    ++busyDate === 1
      ? send(res, 429, 'slow down', { 'Retry-After': new Date(Date.now() + 2000).toUTCString() })
      : send(res, 200, pageOf('/busy-date')());
  routes['/logo.png'] = (_q, res) => send(res, 404, '');
  routes['/robots.txt'] = (_q, res) =>
    send(
      res,
      200,
      (state.crawlDelay
        ? `User-agent: BeaconA11yMonitor\nCrawl-delay: ${state.crawlDelay}\nDisallow: /private\nDisallow: /c/private\n\n`
        : '') + 'User-agent: *\nDisallow: /private\nDisallow: /c/private\n',
      { 'Content-Type': 'text/plain' },
    );
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
  for (const [path, handler] of Object.entries(routes))
    routes[path] = (q, res, origin) => {
      times.set(path, [...(times.get(path) ?? []), Date.now()]);
      handler(q, res, origin);
    };
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
    get crawlDelay() {
      return state.crawlDelay;
    },
    set crawlDelay(v: number) {
      state.crawlDelay = v;
    },
    broken,
    times,
    close: () => server.close(),
  };
}

/** Waits (polls the condition, no fixed sleep) until the site has `count` scans and the newest has ended. */
export async function scanEnded(
  sites: SitesService,
  siteId: string,
  count: number,
  withinMs = 120_000,
): Promise<SiteScan> {
  const until = Date.now() + withinMs;
  for (;;) {
    const scans = await sites.scansOf(siteId);
    if (scans.length >= count && (scans[0].status === 'done' || scans[0].status === 'failed')) return scans[0];
    if (Date.now() > until) throw new Error(`scan not ended: ${JSON.stringify(scans[0])}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A site created from its form, run once ("Run now"), and its first scan once it has ended. */
export async function firstScanOf(
  sites: SitesService,
  workspaceId: string,
  form: Record<string, string | undefined>,
): Promise<SiteScan> {
  const site = await sites.create(workspaceId, form);
  await sites.runNow(site);
  return scanEnded(sites, site.id, 1);
}
