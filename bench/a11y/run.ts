/**
 * Accessibility scan benchmark (npm run bench:a11y). Everything runs on this machine, against pages
 * served here on 127.0.0.1:
 *  - single-page scan latency: our service (warm pool, cache missed on purpose) vs plain axe-core +
 *    puppeteer on an already-open browser vs a fresh browser per scan (as command-line tools do);
 *    pa11y 10 (axe runner, Debian's Chromium) as a second peer: on the same open browser, with a
 *    fresh browser per page (what its CLI does), and its CLI itself; runs interleaved, same page;
 *  - BENCH_A11Y_ONLY=single stops after the single-page comparison (a quick proof run);
 *    BENCH_A11Y_ONLY=interleaved runs only the interleaved rounds (BENCH_A11Y_ROUNDS, default 40)
 *    and prints where our time goes (phases from the report's timings), then the interleaved crawl
 *    (BENCH_A11Y_CRAWL_ROUNDS, default 10; 0 skips it); BENCH_A11Y_ONLY=crawl runs only that;
 *    BENCH_A11Y_LINKED_PAGE_TIMEOUT_MS raises the app's linked-page limit (a loaded machine);
 *  - a 5-page crawl: ours vs plain axe-core crawling the same pages on the open browser (one tab,
 *    page after page), interleaved; and ours vs plain axe-core with a fresh browser;
 *  - throughput of the pool with 8 concurrent clients;
 *  - cached scans (p50/p99);
 *  - RSS (Node + Chromium) over 200 scans.
 */
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BrowserPool, CHROMIUM_ARGS, launchChromium } from '../../src/a11y/browser/browser-pool';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { Screenshots } from '../../src/a11y/screenshots/screenshots';
import { AXE_OPTIONS, AXE_SOURCE } from '../../src/a11y/scan/axe-runner';
import { VIEWPORT } from '../../src/a11y/scan/scanner';
import { createTestApp } from '../../test/utils/test-app';
import { treeRssMiB } from '../common/process-tree';

/* eslint-disable @typescript-eslint/no-explicit-any -- page.evaluate callbacks reach the DOM through globalThis */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** pa11y 10 has no type declarations; this is the part of its API the benchmark uses. */
type Pa11y = (url: string, options: Record<string, unknown>) => Promise<{ issues: { code: string }[] }>;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS module without types
const pa11y = require('pa11y') as Pa11y;
const PA11Y_OPTIONS = {
  runners: ['axe'],
  standard: 'WCAG2AA',
  includeWarnings: false,
  includeNotices: false,
  timeout: 30000,
  wait: 0,
};
const PA11Y_LAUNCH = { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS };

/** pa11y (axe runner) on an already-open browser: a new page per run, as ours and plain axe get a new context. */
async function pa11yOpen(browser: Browser, url: string): Promise<number> {
  const r = await pa11y(url, { ...PA11Y_OPTIONS, browser });
  return r.issues.length;
}

/** pa11y's CLI, one page per run (node start-up and a fresh browser included); milliseconds. */
async function pa11yCli(url: string): Promise<number> {
  const config = join(tmpdir(), `beacon-bench-pa11y-${process.pid}.json`);
  writeFileSync(config, JSON.stringify({ ...PA11Y_OPTIONS, chromeLaunchConfig: PA11Y_LAUNCH }));
  const t0 = process.hrtime.bigint();
  await promisify(execFile)(process.execPath, [
    require.resolve('pa11y/bin/pa11y.js'),
    '--config',
    config,
    '--reporter',
    'json',
    url,
  ]).catch((e: { code?: number }) => {
    if (e.code !== 2) throw e; // exit 2: issues found (expected on this page)
  });
  return ms(t0);
}

function page(title: string, links = ''): string {
  const rows = Array.from(
    { length: 60 },
    (_, i) => `<tr><td>Item ${i}</td><td><a href="#i${i}">Details ${i}</a></td><td>${i * 7}</td></tr>`,
  ).join('');
  const paras = Array.from(
    { length: 30 },
    (_, i) => `<p>Paragraph ${i} with <a href="#p${i}">a link</a> and <strong>some emphasis</strong>.</p>`,
  ).join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
<header><nav><ul>${links}</ul></nav></header><main><h1>${title}</h1>${paras}
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button><label>Q</label><input type="text">
<table><caption>Items</caption><thead><tr><th>Name</th><th>Link</th><th>Value</th></tr></thead><tbody>${rows}</tbody></table></main></body></html>`;
}

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const median = (xs: number[]): number => pct(xs, 50);
const fmt = (x: number): string => x.toFixed(x < 10 ? 2 : 0);
const loadNow = (): string =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
/** Median of the per-round ratios a[i] / b[i] (each round runs all its runners back to back). */
const perRound = (a: number[], b: number[]): number => median(a.map((x, i) => x / b[i]));

/** Runs `fn` and adds its duration (ms) to `into`. */
async function timed(into: number[], fn: () => Promise<unknown>): Promise<void> {
  const t0 = process.hrtime.bigint();
  await fn();
  into.push(ms(t0));
}

/**
 * Throws unless every page of a scan with pictures on has its full-page picture: the bench page's
 * failing elements all have boxes, so a page without one is a capture that failed, and the app
 * only logs that (silent here), which would make "ours" look as fast as "ours without pictures".
 */
function expectPictures(pages: { url: string; screenshot?: unknown }[]): void {
  const missing = pages.filter((p) => !p.screenshot).map((p) => p.url);
  if (missing.length > 0) throw new Error(`no full-page picture for ${missing.join(', ')}: the capture failed`);
}

/** `rounds` rounds of one run of each runner, the order rotating every round (no runner always goes first after a pause). */
async function interleave(rounds: number, runners: (() => Promise<void>)[]): Promise<void> {
  for (let i = 0; i < rounds; i++) for (let k = 0; k < runners.length; k++) await runners[(i + k) % runners.length]();
}

/**
 * Plain axe-core on an already-open browser; `opened` gets the time its context and tab took (part
 * of its timing: ours are made between scans, outside our timing, see the interleaved log).
 */
async function plainAxe(browser: Browser, url: string, opened?: number[]): Promise<number> {
  const t0 = process.hrtime.bigint();
  const ctx = await browser.createBrowserContext();
  const p = await ctx.newPage();
  await p.setViewport(VIEWPORT);
  opened?.push(ms(t0));
  await p.goto(url, { waitUntil: 'load' });
  await p.evaluate(AXE_SOURCE);
  const r = await p.evaluate((o) => (globalThis as any).axe.run((globalThis as any).document, o), AXE_OPTIONS as never);
  await ctx.close();
  return (r as { violations: unknown[] }).violations.length;
}

/**
 * Plain axe-core crawling on an already-open browser: one context and one tab, the start page and
 * then the first four same-origin links read from it, one after the other (what a short puppeteer
 * script does); returns the pages graded.
 */
async function plainCrawl(browser: Browser, start: string): Promise<number> {
  const ctx = await browser.createBrowserContext();
  const p = await ctx.newPage();
  await p.setViewport(VIEWPORT);
  const grade = async (url: string) => {
    await p.goto(url, { waitUntil: 'load' });
    await p.evaluate(AXE_SOURCE);
    await p.evaluate((o) => (globalThis as any).axe.run((globalThis as any).document, o), AXE_OPTIONS as never);
  };
  await grade(start);
  const origin = new URL(start).origin;
  const links: string[] = await p.evaluate(() =>
    Array.from((globalThis as any).document.querySelectorAll('a[href]') as ArrayLike<{ href: string }>, (a) => a.href),
  );
  const next = [...new Set(links.map((l) => l.split('#')[0]))]
    .filter((l) => l.startsWith(`${origin}/`) && l !== start)
    .slice(0, 4);
  for (const url of next) await grade(url);
  await ctx.close();
  return 1 + next.length;
}

/** A command-line-tool style run: a fresh browser, axe on each URL, browser closed; milliseconds. */
async function freshBrowserRun(urls: string[]): Promise<number> {
  const t0 = process.hrtime.bigint();
  const b = await launchChromium(CHROMIUM);
  for (const url of urls) await plainAxe(b.browser, url);
  await b.browser.close();
  await b.cleanup();
  return ms(t0);
}

async function main(): Promise<void> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const links = [1, 2, 3, 4].map((i) => `<li><a href="/site/p${i}">Page ${i}</a></li>`).join('');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    if (path === '/small')
      res.end(
        '<!DOCTYPE html><html lang="en"><head><title>Small</title></head><body><main><h1>Small</h1><p>Text <a href="/x">link</a></p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>',
      );
    else res.end(path.startsWith('/site/') ? page(`Site ${path}`, links) : page('Benchmark page'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const t = await createTestApp({
    env: {
      SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
      SCAN_RATE_LIMIT: '1000000',
      LOG_LEVEL: 'silent',
      // On a machine loaded past the default (10 s a linked page), a crawl of fewer than 5 pages ends the run.
      ...(process.env.BENCH_A11Y_LINKED_PAGE_TIMEOUT_MS
        ? { SCAN_LINKED_PAGE_TIMEOUT_MS: process.env.BENCH_A11Y_LINKED_PAGE_TIMEOUT_MS }
        : {}),
    },
  });
  const base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  let n = 0;
  const scan = async (url: string, crawl = false): Promise<{ ms: number; body: any }> => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${base}/api/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url, crawl }),
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`scan ${url}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: ms(t0), body };
  };
  const out: string[] = [];
  const log = (s: string): void => {
    out.push(s);
    console.log(s);
  };
  log(
    `a11y benchmark ${new Date().toISOString()}, ${t.config.SCAN_CONCURRENCY} scan slots, ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}, load average ${loadNow()}`,
  );

  const spareReady = () => t.app.get(BrowserPool).spareReady();
  /** Runs `fn` with the pictures step switched off in this process (bench only), to measure what pictures cost. */
  const withoutPictures = async (fn: () => Promise<void>): Promise<void> => {
    const shots = t.app.get(Screenshots);
    const capture = shots.capture;
    shots.capture = async () => async () => undefined;
    try {
      await fn();
    } finally {
      shots.capture = capture;
    }
  };
  const finish = async (): Promise<void> => {
    log(`load average at the end ${loadNow()}`);
    await t.close();
    server.close();
  };
  /** A 5-page crawl, ours (pictures on and off) vs plain axe-core on the open browser, the order rotating (BENCH_A11Y_CRAWL_ROUNDS, default 10). */
  const interleavedCrawl = async (browser: Browser): Promise<void> => {
    const rounds = Number(process.env.BENCH_A11Y_CRAWL_ROUNDS ?? 10);
    await plainCrawl(browser, `${origin}/site/?warm`);
    const crawlOurs: number[] = [];
    const crawlNoPictures: number[] = [];
    const crawlPlain: number[] = [];
    const ourCrawl = async (id: string) => {
      const r = await scan(`${origin}/site/?${id}${n++}`, true);
      if (r.body.pages.length !== 5)
        throw new Error(`crawl did not scan 5 pages: ${JSON.stringify(r.body.meta?.skipped ?? r.body)}`);
      await spareReady();
      return r;
    };
    // Ours by phase, summed over the five pages of a crawl (report timings), and the server's own total.
    const phases: Record<string, number[]> = {
      navigationMs: [],
      settleMs: [],
      axeMs: [],
      picturesMs: [],
      serverTotalMs: [],
      httpOverheadMs: [],
    };
    const from = loadNow();
    await interleave(rounds, [
      async () => {
        const r = await ourCrawl('c');
        crawlOurs.push(r.ms);
        expectPictures(r.body.pages);
        const pages = r.body.pages as { timings: Record<string, number | undefined> }[];
        for (const k of ['navigationMs', 'settleMs', 'axeMs', 'picturesMs'])
          phases[k].push(pages.reduce((sum, p) => sum + (p.timings[k] ?? 0), 0));
        const serverMs = r.body.meta?.timings?.totalMs ?? Number.NaN;
        phases.serverTotalMs.push(serverMs);
        phases.httpOverheadMs.push(r.ms - serverMs);
      },
      () => withoutPictures(async () => void crawlNoPictures.push((await ourCrawl('np')).ms)),
      () =>
        timed(crawlPlain, async () => {
          if ((await plainCrawl(browser, `${origin}/site/?pc${n++}`)) !== 5)
            throw new Error('plain crawl: not 5 pages');
        }),
    ]);
    log(
      `interleaved 5-page crawl (${rounds} rounds, order rotating; load average ${from} -> ${loadNow()}), median ms: ours ${fmt(median(crawlOurs))}, plain axe crawling on the open browser ${fmt(median(crawlPlain))}; ours / plain ${(median(crawlOurs) / median(crawlPlain)).toFixed(3)} (target <= 1.05), per-round median ${perRound(crawlOurs, crawlPlain).toFixed(3)}`,
    );
    log(
      `  ours without pictures ${fmt(median(crawlNoPictures))} ms: / plain ${(median(crawlNoPictures) / median(crawlPlain)).toFixed(3)} (per round ${perRound(crawlNoPictures, crawlPlain).toFixed(3)}); pictures cost ${((median(crawlOurs) / median(crawlNoPictures) - 1) * 100).toFixed(1)} % (per round ${((perRound(crawlOurs, crawlNoPictures) - 1) * 100).toFixed(1)} %)`,
    );
    log(
      `  ours by phase (sums over the 5 pages, report timings), median ms: ${Object.entries(phases)
        .map(([k, v]) => `${k} ${fmt(median(v))}`)
        .join(', ')}`,
    );
  };

  // Warm-up: launches the pool's Chromium.
  await scan(`${origin}/warm?${n++}`);
  await spareReady();
  const N = 20;
  const ours: number[] = [];
  const only = process.env.BENCH_A11Y_ONLY;
  const quick = only === 'interleaved' || only === 'crawl'; // only the interleaved comparisons (profiling runs)
  for (let i = 0; i < (quick ? 0 : N); i++) {
    ours.push((await scan(`${origin}/page?${n++}`)).ms);
    await spareReady();
  }

  // The peers on one already-open browser, interleaved with ours so load changes hit all alike.
  const open = await launchChromium(CHROMIUM);
  if (only === 'crawl') {
    await interleavedCrawl(open.browser);
    await open.browser.close();
    await open.cleanup();
    await finish();
    return;
  }
  await plainAxe(open.browser, `${origin}/page?warm`);
  await pa11yOpen(open.browser, `${origin}/page?warm-pa11y`);
  const plainOpen: number[] = [];
  const plainOpened: number[] = [];
  const pa11yWarm: number[] = [];
  const oursInterleaved: number[] = [];
  const oursNoPictures: number[] = [];
  const phases: Record<string, number[]> = {
    navigationMs: [],
    settleMs: [],
    renderWaitMs: [],
    axeMs: [],
    picturesMs: [],
    pageTotalMs: [],
    httpOverheadMs: [],
  };
  const ROUNDS = Number(process.env.BENCH_A11Y_ROUNDS ?? 40);
  const loadStart = loadNow();
  await interleave(ROUNDS, [
    async () => {
      const r = await scan(`${origin}/page?i${n++}`);
      oursInterleaved.push(r.ms);
      expectPictures(r.body.pages);
      await spareReady(); // the pool's next context is made after the answer: not while a peer runs
      const p = r.body.pages[0];
      phases.navigationMs.push(p.timings.navigationMs);
      phases.settleMs.push(p.timings.settleMs);
      phases.renderWaitMs.push(p.render?.waitMs ?? 0);
      phases.axeMs.push(p.timings.axeMs);
      phases.picturesMs.push(p.timings.picturesMs ?? 0);
      phases.pageTotalMs.push(p.timings.totalMs);
      phases.httpOverheadMs.push(r.ms - p.timings.totalMs);
    },
    () =>
      withoutPictures(async () => {
        oursNoPictures.push((await scan(`${origin}/page?np${n++}`)).ms);
        await spareReady();
      }),
    () => timed(plainOpen, () => plainAxe(open.browser, `${origin}/page?plain${n++}`, plainOpened)),
    () => timed(pa11yWarm, () => pa11yOpen(open.browser, `${origin}/page?pa11y${n++}`)),
  ]);
  const loadEnd = loadNow();
  const mOurs = median(oursInterleaved);
  const mNoPics = median(oursNoPictures);
  const mPlain = median(plainOpen);
  log(
    `interleaved single page (${ROUNDS} rounds, order rotating; load average ${loadStart} -> ${loadEnd}), median ms: ours ${fmt(mOurs)}, ours without pictures ${fmt(mNoPics)}, plain axe (open browser) ${fmt(mPlain)}, pa11y 10 axe runner (open browser) ${fmt(median(pa11yWarm))}`,
  );
  log(
    `  ours without pictures / plain ${(mNoPics / mPlain).toFixed(3)} (target <= 1.05); pictures cost ${((mOurs / mNoPics - 1) * 100).toFixed(1)} % (target <= 20 %); ours / plain ${(mOurs / mPlain).toFixed(3)}; ours / pa11y ${(mOurs / median(pa11yWarm)).toFixed(2)}`,
  );
  // Per-round ratios: less sensitive to load drifting over the run.
  log(
    `  per-round medians: ours without pictures / plain ${perRound(oursNoPictures, plainOpen).toFixed(3)}, ours / ours without pictures ${perRound(oursInterleaved, oursNoPictures).toFixed(3)}, ours / plain ${perRound(oursInterleaved, plainOpen).toFixed(3)}`,
  );
  // Not the same work inside both timings: plain axe-core makes its context and tab in its timing,
  // our pool makes the next scan's between scans (the bench waits for it outside our timing).
  const mOpened = median(plainOpened);
  log(
    `  plain axe's context and tab, inside its timing (ours are made between scans, outside ours): median ${fmt(mOpened)} ms; ours + that / plain ${((mOurs + mOpened) / mPlain).toFixed(3)}, without pictures ${((mNoPics + mOpened) / mPlain).toFixed(3)}`,
  );
  log(
    `  ours by phase (report timings), median ms: ${Object.entries(phases)
      .map(([k, v]) => `${k} ${fmt(median(v))}`)
      .join(', ')}`,
  );
  // The crawl: in the quick runs on the open browser, interleaved (BENCH_A11Y_CRAWL_ROUNDS=0 skips it).
  if (quick && process.env.BENCH_A11Y_CRAWL_ROUNDS !== '0') await interleavedCrawl(open.browser);
  await open.browser.close();
  await open.cleanup();
  if (quick) {
    await finish();
    return;
  }
  const pa11yFresh: number[] = [];
  for (let i = 0; i < 3; i++)
    await timed(pa11yFresh, () =>
      pa11y(`${origin}/page?pa11y-fresh${i}`, { ...PA11Y_OPTIONS, chromeLaunchConfig: PA11Y_LAUNCH }),
    );
  const pa11yCliRuns: number[] = [];
  for (let i = 0; i < 3; i++) pa11yCliRuns.push(await pa11yCli(`${origin}/page?pa11y-cli${i}`));
  log(
    `pa11y 10 fresh browser per page (programmatic) median ${fmt(median(pa11yFresh))} ms; pa11y 10 CLI per page median ${fmt(median(pa11yCliRuns))} ms`,
  );

  const fresh: number[] = [];
  for (let i = 0; i < 5; i++) fresh.push(await freshBrowserRun([`${origin}/page?fresh${i}`]));
  log(
    `single page, median ms: ours (warm pool) ${fmt(median(ours))}, plain axe on open browser ${fmt(median(plainOpen))}, plain axe fresh browser ${fmt(median(fresh))}`,
  );
  log(
    `  ratio ours/plain-open ${(median(ours) / median(plainOpen)).toFixed(2)} (target <= 1.2); fresh/ours ${(median(fresh) / median(ours)).toFixed(2)} (target >= 3)`,
  );
  if (process.env.BENCH_A11Y_ONLY === 'single') {
    await finish();
    return;
  }

  // A small page: browser start-up dominates a fresh-browser scan.
  const smallOurs: number[] = [];
  for (let i = 0; i < N; i++) smallOurs.push((await scan(`${origin}/small?${n++}`)).ms);
  const smallFresh: number[] = [];
  for (let i = 0; i < 5; i++) smallFresh.push(await freshBrowserRun([`${origin}/small?fresh${i}`]));
  log(
    `small page, median ms: ours ${fmt(median(smallOurs))}, plain axe fresh browser ${fmt(median(smallFresh))}; fresh/ours ${(median(smallFresh) / median(smallOurs)).toFixed(2)}`,
  );

  // 5-page crawl
  const crawlOurs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await scan(`${origin}/site/?c${n++}`, true);
    if (r.body.pages.length !== 5) throw new Error('crawl did not scan 5 pages');
    crawlOurs.push(r.ms);
  }
  const crawlFresh: number[] = [];
  for (let i = 0; i < 3; i++)
    crawlFresh.push(await freshBrowserRun(['', 'p1', 'p2', 'p3', 'p4'].map((p) => `${origin}/site/${p}?f${i}`)));
  log(`5-page crawl, median ms: ours ${fmt(median(crawlOurs))}, plain axe fresh browser ${fmt(median(crawlFresh))}`);

  // Throughput: 8 concurrent clients, 40 scans.
  const t0 = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < 40) {
        next++;
        await scan(`${origin}/page?tp${n++}`);
      }
    }),
  );
  const secs = ms(t0) / 1000;
  log(`throughput: 40 scans, 8 clients: ${(40 / secs).toFixed(2)} scans/s (${fmt(secs)} s)`);

  // Cached scans
  const cachedUrl = `${origin}/page?cached`;
  await scan(cachedUrl);
  const cached: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 500; i++) {
    // Time until the whole body has arrived (the client's JSON parsing is not the service's time).
    const t1 = process.hrtime.bigint();
    const res = await fetch(`${base}/api/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: cachedUrl }),
    });
    const buf = await res.arrayBuffer();
    cached.push(ms(t1));
    bytes = buf.byteLength;
    if (res.status !== 200 || (i === 0 && !(JSON.parse(Buffer.from(buf).toString()) as { cached: boolean }).cached))
      throw new Error('expected a cache hit');
  }
  log(
    `cached scan over HTTP (${Math.round(bytes / 1024)} KiB body): p50 ${fmt(median(cached))} ms, p99 ${fmt(pct(cached, 99))} ms (target p99 < 10 ms)`,
  );
  const service = t.app.get(ScanService);
  const inproc: number[] = [];
  for (let i = 0; i < 500; i++) {
    const t1 = process.hrtime.bigint();
    await service.scan(cachedUrl, false);
    inproc.push(ms(t1));
  }
  log(`cached scan in process (ScanService): p50 ${fmt(median(inproc))} ms, p99 ${fmt(pct(inproc, 99))} ms`);

  // Memory over 200 scans
  const pool = t.app.get(BrowserPool);
  const rss = async (): Promise<number> => {
    const b = await pool.current();
    return process.memoryUsage().rss / 2 ** 20 + (b?.process()?.pid ? treeRssMiB(b.process()!.pid!) : 0);
  };
  const marks: string[] = [];
  let after20 = 0;
  for (let i = 1; i <= 200; i++) {
    await scan(`${origin}/page?m${n++}`);
    if (i === 20) after20 = await rss();
    if (i % 50 === 0) marks.push(`${i}: ${fmt(await rss())} MiB`);
  }
  const after200 = await rss();
  log(
    `RSS (Node + Chromium) after 20 scans ${fmt(after20)} MiB, after 200 ${fmt(after200)} MiB, growth ${(((after200 - after20) / after20) * 100).toFixed(1)}% (target <= 20%); ${marks.join(', ')}`,
  );

  await finish();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
