/**
 * Site scan benchmark (npm run bench:sites): a BENCH_SITE_PAGES-page loopback site (default 200; one
 * template with known defects: an image without alt in the header, an empty button, a link without
 * text), found through its sitemap, scanned as a saved site (SitesService, "Run now") by one API
 * process that runs no scan jobs and 1, 2 then 3 worker processes (`dist-bench/src/worker.js`) on
 * BullMQ; pages per minute of each, against
 *  - the single-page scan's cost x pages (median of BENCH_SITE_SINGLE cache-missing POST /api/scan
 *    of one page, one at a time, on the 1-worker fleet), and
 *  - pa11y-ci on the same site in the same run when PA11Y_CI_BIN names its executable (installed
 *    outside the repository; it runs Debian's Chromium with the offline flags), else plain axe-core
 *    through puppeteer-core (one tab, page after page: the floor any axe-based tool pays).
 * Needs DATABASE_URL and REDIS_URL; a unique key prefix, nothing else in Redis is touched.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import request from 'supertest';
import { AccountsService } from '../../src/accounts/accounts.service';
import { CHROMIUM_ARGS } from '../../src/a11y/browser/browser-pool';
import { SitesService } from '../../src/a11y/sites/sites.service';
import type { Site } from '../../src/a11y/sites/site.types';
import { createTestApp, createTestDatabase, TestApp } from '../../test/utils/test-app';
import { median } from '../common/median';
import { treeRssMiB } from '../common/process-tree';
import { startWorker, stopWorker } from '../common/worker-process';

const PAGES = Number(process.env.BENCH_SITE_PAGES ?? 200);
const SINGLE = Number(process.env.BENCH_SITE_SINGLE ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function page(n: number, token: string): string {
  const links = [n - 1, n + 1]
    .filter((k) => k >= 0 && k < PAGES)
    .map((k) => `<li><a href="/p${k}">Page ${k}</a></li>`)
    .join('');
  const paras = Array.from({ length: 20 }, (_, i) => `<p>Paragraph ${i} of page ${n}.</p>`).join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Page ${n}</title><meta name="v" content="${token}"></head>
<body><header><a href="/"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20"></a><a href="/p0"></a></header>
<main><h1>Page ${n}</h1>${paras}<button></button><ul>${links}</ul></main></body></html>`;
}

/** Runs a scan of the site and waits (polling) for its end; pages per minute. */
async function siteScan(sites: SitesService, site: Site): Promise<{ perMin: number; failed: number; ms: number }> {
  const t0 = Date.now();
  const queued = await sites.runNow(site);
  for (;;) {
    const scan = (await sites.scansOf(site.id)).find((s) => s.id === queued.id)!;
    if (scan.status === 'failed') throw new Error(`site scan failed: ${scan.error}`);
    if (scan.status === 'done') {
      const ms = Date.now() - t0;
      const failed = scan.summary!.pages.filter((p) => p.error).length;
      return { perMin: (PAGES * 60000) / ms, failed, ms };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** pa11y-ci over the site's sitemap (its own Chromium launch config); wall time. */
function pa11yCi(bin: string, origin: string): Promise<{ ms: number; code: number | null; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-pa11y-'));
  const config = join(dir, 'pa11y.json');
  writeFileSync(
    config,
    JSON.stringify({
      defaults: {
        runners: ['axe'],
        timeout: 60000,
        concurrency: 1,
        chromeLaunchConfig: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
      },
    }),
  );
  const t0 = Date.now();
  const proc = spawn(bin, ['--config', config, '--sitemap', `${origin}/sitemap.xml`, '--json'], {
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => proc.once('exit', (code) => resolve({ ms: Date.now() - t0, code, out })));
}

/** Plain axe-core through puppeteer-core: one browser, one tab per page, page after page; wall time. */
async function plainAxe(origin: string): Promise<number> {
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const t0 = Date.now();
  try {
    for (let n = 0; n < PAGES; n++) {
      const tab = await browser.newPage();
      await tab.goto(`${origin}/p${n}`, { waitUntil: 'load' });
      await tab.evaluate(axeSource);
      await tab.evaluate('axe.run(document)');
      await tab.close();
    }
  } finally {
    await browser.close();
  }
  return Date.now() - t0;
}

async function main(): Promise<void> {
  if (!process.env.REDIS_URL || !process.env.DATABASE_URL)
    throw new Error('bench:sites needs DATABASE_URL and REDIS_URL');
  const state = { token: '' };
  const http = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/sitemap.xml') {
      const locs = Array.from({ length: PAGES }, (_, n) => `<url><loc>${origin}/p${n}</loc></url>`).join('');
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`);
    } else if (path === '/.well-known/beacon-verification.txt') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(state.token);
    } else if (/^\/p\d+$/.test(path) || path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(Number(path.slice(2) || 0), 'x'));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const db = await createTestDatabase();
  const prefix = `beacon-bench:${randomBytes(4).toString('hex')}:`;
  const shared = {
    ...db.env,
    REDIS_URL: process.env.REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
    SCAN_RATE_LIMIT: '100000',
    SCAN_QUEUE_LIMIT: '1000',
    TRUST_PROXY: '1',
  };
  const api: TestApp = await createTestApp({ database: db, env: { ...shared, SCAN_WORKER_IN_PROCESS: 'false' } });
  const workerEnv = { ...process.env, ...shared, LOG_LEVEL: 'warn', NODE_OPTIONS: '' };
  await api.createKey('bench');
  const user = await api.app.get(AccountsService).createUser('bench', 'bench@example.com', 'admin');
  const sites = api.app.get(SitesService);
  let site = await sites.create(user.workspace_id, {
    name: 'Bench site',
    start_url: `${origin}/p0`,
    sitemap_url: `${origin}/sitemap.xml`,
    page_budget: String(PAGES),
  });
  state.token = site.verification_token;
  if (!(await sites.verify(site))) throw new Error('ownership proof failed');
  site = await sites.get(user.workspace_id, site.id);

  const workers: ChildProcess[] = [await startWorker(workerEnv)];
  const pool = `SCAN_CONCURRENCY ${process.env.SCAN_CONCURRENCY ?? cpus().length} per worker`;
  console.log(
    `# Site scan: ${PAGES} pages, ${cpus().length} cores, ${pool}, load at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  // The single-page scan's cost: one page at a time, each a cache miss, on the 1-worker fleet (after a warm-up).
  const single: number[] = [];
  for (let i = 0; i <= SINGLE; i++) {
    const t0 = Date.now();
    const res = await request(api.server)
      .post('/api/scan')
      .send({ url: `${origin}/p${i}?single=${i}` });
    if (res.status !== 200) throw new Error(`single scan answered ${res.status}`);
    if (i > 0) single.push(Date.now() - t0);
  }
  const one = median(single);
  console.log(
    `single-page scan: median ${one} ms -> x ${PAGES} pages = ${((one * PAGES) / 1000).toFixed(0)} s, ${(60000 / one).toFixed(1)} pages/min`,
  );
  for (let n = 1; n <= 3; n++) {
    if (workers.length < n) workers.push(await startWorker(workerEnv));
    const r = await siteScan(sites, site);
    const rss = workers.map((w) => treeRssMiB(w.pid!).toFixed(0)).join(' + ');
    console.log(
      `site scan, ${n} worker process${n === 1 ? '' : 'es'}: ${(r.ms / 1000).toFixed(1)} s, ${r.perMin.toFixed(1)} pages/min (${r.failed} pages failed; ${(r.perMin / (60000 / one)).toFixed(2)}x the single-page rate); worker RSS ${rss} MiB; load ${loadavg()[0].toFixed(2)}`,
    );
  }
  for (const w of workers) await stopWorker(w);
  await api.close();
  await db.drop();

  const bin = process.env.PA11Y_CI_BIN;
  let pa11yRan = false;
  if (bin) {
    const p = await pa11yCi(bin, origin);
    const ok = (pa11yRan = p.code === 0 || p.code === 2); // 2: pa11y-ci found issues (it did its work)
    console.log(
      ok
        ? `pa11y-ci (axe runner, concurrency 1): ${(p.ms / 1000).toFixed(1)} s, ${((PAGES * 60000) / p.ms).toFixed(1)} pages/min; load ${loadavg()[0].toFixed(2)}`
        : `pa11y-ci did not run (exit ${p.code}): ${p.out.slice(-500)}`,
    );
  }
  if (!pa11yRan) {
    const ms = await plainAxe(origin);
    console.log(
      `plain axe-core via puppeteer-core (one tab, page after page): ${(ms / 1000).toFixed(1)} s, ${((PAGES * 60000) / ms).toFixed(1)} pages/min; load ${loadavg()[0].toFixed(2)}`,
    );
  }
  http.close();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
