/**
 * Over 300 lines: one page's life in the browser (new page, request filter, navigation, settle, block-page detection,
 * axe) shares the page's guard and refusal state, which the request filter sets and the navigation reads.
 */
import { Injectable, Logger } from '@nestjs/common';
import type { Browser, BrowserContext, Dialog, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { settledWithin } from '../../common/async/settled-within';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { TargetGuard } from '../../common/egress/target-guard';
import { isolatedRealm } from '../security/isolated-world';
import type { AxeOutput } from '../report/axe-output';
import { AXE_VERSION } from '../report/axe-rules';
import { pageFromAxe } from '../report/from-axe';
import type { ReportPage } from '../report/report.types';
import { decideRequest } from '../security/request-filter';
import { ScanEgress } from '../security/scan-egress';
import { injectAxe, runAxe } from './axe-runner';
import { detectBlock } from './block-detection';
import { crawlLinkedPages, SkippedPage } from './crawl';
import { WindowOpener } from './windows';
import { PageErrors, refusedError } from './page-errors';
import { addNodeFacts } from '../diff/node-facts';
import { applyRender, RENDER_WATCH_SCRIPT, waitForRender } from '../readiness/render-wait';
import { Screenshots } from '../screenshots/screenshots';
import { VIEWPORT_WIDTH } from '../screenshots/box';
import { PageChecks } from '../checks/page-checks';
import { type ScanOptions, VIEWPORTS } from './scan-options';

export const VIEWPORT = { width: VIEWPORT_WIDTH, height: 800 };
/** Longest wait for the network to go quiet after the load event. */
export const SETTLE_MAX_MS = 5000;
/** Wait after the load event before looking at the network. */
export const LOAD_GRACE_MS = 50;
/** The network counts as quiet after this long without a request in flight. */
export const NETWORK_IDLE_MS = 200;

/** Extra time a page gets after its timeout for grading to give up cleanly. */
export const PAGE_GRACE_MS = 2000;
/** Shortest time limit a page is started with. */
export const PAGE_TIMEOUT_FLOOR_MS = 1000;

/** Links read from a start page for the crawl. */
export const MAX_LINKS = 5000;

/** Blocks what request interception cannot see: service workers, WebSocket/WebTransport, WebRTC. */
const HARDENING_SCRIPT = `(() => {
  try { if (navigator.serviceWorker) Object.defineProperty(ServiceWorkerContainer.prototype, 'register', { value: () => Promise.reject(new DOMException('Service workers are disabled', 'SecurityError')) }); } catch (e) {}
  for (const name of ['WebSocket', 'WebTransport', 'RTCPeerConnection', 'webkitRTCPeerConnection']) {
    try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); } catch (e) {}
  }
})();`;

export interface SiteScan {
  pages: ReportPage[];
  skipped: SkippedPage[];
  axeVersion: string;
  userAgent: string;
  /** Settles when the pictures of the pages are finished and stored (they need no tab: await it after the context is closed). */
  pictures: Promise<void>;
}

/** The pages of one scanSite: a crawl's idle tabs, the pictures still being finished, and who wants the start page's links first. */
interface PageRun {
  tabs?: Page[];
  pictures: Promise<void>[];
  /** Called with the start page's links and address as soon as they are read (before axe runs). */
  onLinks?: (links: string[], url: string) => void;
  /** A crawl's second tab, opened while the start page loads; taken by the first linked page. */
  opening?: Promise<Page | undefined>;
}

/** Chromium's request for the tab's icon (`/favicon.ico`, resource type "other"; a page's fetch of it has another type). */
function isTabFavicon(req: HTTPRequest): boolean {
  if (req.resourceType() !== 'other' || req.isNavigationRequest()) return false;
  try {
    return new URL(req.url()).pathname === '/favicon.ico';
  } catch {
    return false;
  }
}

/** The tab of `opened` (a window of its own, see WindowOpener) set up for a scan: viewport, CSP bypass, hardening and render watch scripts, request interception. */
async function setUpTab(opened: Promise<Page>): Promise<Page> {
  const page = await opened;
  await Promise.all([
    page.setViewport(VIEWPORT),
    page.setBypassCSP(true), // else a CSP can forbid injecting axe
    page.setBypassServiceWorker(true),
    page.evaluateOnNewDocument(`${HARDENING_SCRIPT}\n${RENDER_WATCH_SCRIPT}`), // and DOM change times for the render wait
    page.setRequestInterception(true),
  ]);
  return page;
}

/** A graded page; `pictures` finishes its screenshots (no longer needs the tab). */
interface Graded {
  page: ReportPage;
  links: string[];
  axeVersion: string;
  userAgent: string;
  pictures: () => Promise<void>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- code below runs in the page, where `axe` and the DOM live */

/** The addresses of the page's links (at most MAX_LINKS), read in its isolated world. */
async function readLinks(page: Page): Promise<string[]> {
  const links: unknown = await isolatedRealm(page.mainFrame()).evaluate(() =>
    Array.from((globalThis as any).document.querySelectorAll('a[href]') as ArrayLike<{ href: string }>, (a) =>
      String(a.href),
    ),
  );
  return Array.isArray(links) ? links.filter((l): l is string => typeof l === 'string').slice(0, MAX_LINKS) : [];
}

/**
 * Loads pages in a browser context and grades them with axe-core: navigation with every request
 * filtered by the SSRF guard, settle (load + network quiet, bounded), block-page and HTTP-error
 * detection, then axe (axe-runner.ts: every frame, runPartial per frame, finishRun in a blank page,
 * as @axe-core/puppeteer does). Failures are put in the API's words by page-errors.ts; the
 * same-origin crawl loop is crawl.ts.
 */
@Injectable()
export class Scanner {
  private readonly logger = new Logger('Scanner');
  private readonly userAgents = new WeakMap<Browser, Promise<string>>();
  private readonly errors: PageErrors;
  /** Tabs opened ahead of a scan in spare contexts (prepareTab), taken by the scan's first page. */
  private readonly preparedTabs = new WeakMap<BrowserContext, Promise<Page>>();
  /** Every tab of a scan is opened through it: a window of its own, one after another per context. */
  private readonly windows = new WindowOpener();

  constructor(
    private readonly config: AppConfig,
    egress: ScanEgress,
    private readonly screenshots: Screenshots,
    private readonly checks: PageChecks,
  ) {
    this.errors = new PageErrors(egress, this.logger);
  }

  /**
   * Scans the start page and, with crawl, up to 4 same-origin pages linked from it, all before
   * `deadline` (epoch ms; default SCAN_TOTAL_TIMEOUT_MS from now). The start page gets
   * SCAN_PAGE_TIMEOUT_MS, linked pages SCAN_LINKED_PAGE_TIMEOUT_MS, each cut to the time left; a
   * linked page with less than PAGE_TIMEOUT_FLOOR_MS left is skipped ("scan deadline reached").
   */
  async scanSite(
    context: BrowserContext,
    start: URL,
    crawl: boolean,
    guard: TargetGuard,
    deadline = Date.now() + this.config.SCAN_TOTAL_TIMEOUT_MS,
    options?: ScanOptions,
  ): Promise<SiteScan> {
    const left = () => deadline - Date.now() - PAGE_GRACE_MS;
    // A crawl's tabs are used again page after page (a new tab starts a renderer process, which
    // costs more than loading a page on a busy machine); a tab whose page failed is closed. The
    // pictures are finished while the next page loads.
    const run: PageRun = { tabs: crawl ? [] : undefined, pictures: [] };
    const pictures = () => Promise.all(run.pictures).then(() => undefined);
    // The linked pages start as soon as the start page's links are read, while axe grades it.
    const links = new Promise<{ links: string[]; url: string }>((resolve) => {
      run.onLinks = (found, url) => resolve({ links: found, url });
    });
    const scanning = this.scanPage(
      context,
      start.href,
      guard,
      crawl,
      Math.max(PAGE_TIMEOUT_FLOOR_MS, Math.min(this.config.SCAN_PAGE_TIMEOUT_MS, left())),
      options,
      run,
    );
    if (crawl) run.opening = this.newPage(context, options).catch(() => undefined); // after the start page took the prepared tab
    if (!crawl) {
      const first = await scanning;
      return {
        pages: [first.page],
        skipped: [],
        axeVersion: first.axeVersion,
        userAgent: first.userAgent,
        pictures: pictures(),
      };
    }
    const firstPage = scanning.then((f) => f.page);
    firstPage.catch(() => undefined); // thrown below, by `await scanning`
    const linked = Promise.race([links, scanning.then((f) => ({ links: f.links, url: f.page.finalUrl }))]).then((l) =>
      crawlLinkedPages(start.href, l.url, firstPage, l.links, {
        budgetMs: () => Math.min(this.config.SCAN_LINKED_PAGE_TIMEOUT_MS, this.config.SCAN_PAGE_TIMEOUT_MS, left()),
        floorMs: PAGE_TIMEOUT_FLOOR_MS,
        deadlineReached: `scan deadline reached (${this.config.SCAN_TOTAL_TIMEOUT_MS} ms per scan)`,
        scan: async (url, budget) => (await this.scanPage(context, url, guard, false, budget, options, run)).page,
      }),
    );
    linked.catch(() => undefined); // the start page's failure is the one thrown
    const first = await scanning;
    const { pages, skipped } = await linked;
    return {
      pages: [first.page, ...pages],
      skipped,
      axeVersion: first.axeVersion,
      userAgent: first.userAgent,
      pictures: pictures(),
    };
  }

  /**
   * One page: throws DomainError (target_*, scan_failed) or returns its report entry. With `run`,
   * the page's pictures are left to finish in `run.pictures`, and with `run.tabs` (a crawl's idle
   * tabs) the page is loaded in one of them if there is one, its tab going back there once graded.
   */
  async scanPage(
    context: BrowserContext,
    url: string,
    guard: TargetGuard,
    collectLinks: boolean,
    timeoutMs: number = this.config.SCAN_PAGE_TIMEOUT_MS,
    options?: ScanOptions,
    run?: PageRun,
  ): Promise<{ page: ReportPage; links: string[]; axeVersion: string; userAgent: string }> {
    const t0 = Date.now();
    // A tab left by a graded page of the crawl, else its opened one, else a new one (the prepared
    // one for the start page); a reused or opened tab has the scan's options.
    const reused = run?.tabs?.pop();
    const opening = reused ? undefined : run?.opening;
    if (opening && run) run.opening = undefined;
    const page = reused ?? (opening && (await opening)) ?? (await this.newPage(context, options));
    const refusedNavigation: { reason?: string } = {};
    const net = { inflight: 0 };
    // The tab's own favicon fetch is refused and not awaited: it is not part of the page, and
    // Chromium starts it after the load event, so counting it held every scan for NETWORK_IDLE_MS.
    const counted = new WeakSet<HTTPRequest>();
    const onRequest = (req: HTTPRequest) => {
      if (isTabFavicon(req)) {
        void req.abort('blockedbyclient').catch(() => undefined);
        return;
      }
      counted.add(req);
      net.inflight++;
      void this.filter(page, req, guard, refusedNavigation);
    };
    const onDone = (req: HTTPRequest) => counted.has(req) && net.inflight--;
    const onDialog = (d: Dialog) => void d.dismiss().catch(() => undefined);
    page.on('request', onRequest);
    page.on('requestfinished', onDone);
    page.on('requestfailed', onDone);
    page.on('dialog', onDialog);
    let graded: Graded;
    try {
      const done = await settledWithin(
        this.grade(
          page,
          url,
          refusedNavigation,
          net,
          collectLinks ? (run?.onLinks ?? (() => undefined)) : undefined,
          t0,
          timeoutMs,
          options,
        ),
        timeoutMs + PAGE_GRACE_MS,
      );
      if (!done)
        throw new DomainError(ErrorCode.TargetUnreachable, `The page did not finish within ${timeoutMs} ms.`, {
          reason: 'timeout',
        });
      graded = done.value;
    } catch (e) {
      const error = this.errors.classify(e, context, refusedNavigation, timeoutMs, url);
      await page.close().catch(() => undefined);
      throw error;
    }
    // The pictures' decoding, drawing and encoding (sharp, on the thread pool) and their INSERT
    // overlap with closing the tab.
    const { pictures, ...result } = graded;
    const finished = pictures().then(() => {
      result.page.timings.totalMs = Date.now() - t0;
    });
    if (run?.tabs && !page.isClosed()) {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
      page.off('dialog', onDialog);
      run.tabs.push(page);
    } else if (run) void page.close().catch(() => undefined);
    else await page.close().catch(() => undefined);
    if (run) run.pictures.push(finished);
    else await finished;
    return result;
  }

  /**
   * Opens and sets up a tab in a context no scan has taken yet (BrowserPool.prepareSpare): the next
   * scan's first page starts there without waiting for a tab and its renderer process.
   */
  prepareTab(context: BrowserContext): Promise<void> {
    const tab = setUpTab(this.windows.open(context));
    tab.catch(() => undefined);
    this.preparedTabs.set(context, tab);
    return tab.then(() => undefined);
  }

  private async newPage(context: BrowserContext, options?: ScanOptions): Promise<Page> {
    try {
      const prepared = this.preparedTabs.get(context);
      this.preparedTabs.delete(context);
      const ready = prepared && (await prepared.catch(() => undefined));
      const page = ready && !ready.isClosed() ? ready : await setUpTab(this.windows.open(context));
      // A site scan's options on top of the set-up tab: its viewport and its signed-in session.
      if (options?.viewport) await page.setViewport(VIEWPORTS[options.viewport]);
      if (options?.cookies?.length) await page.setCookie(...options.cookies);
      return page;
    } catch (e) {
      throw this.errors.classify(e, context, {}, this.config.SCAN_PAGE_TIMEOUT_MS);
    }
  }

  private async filter(page: Page, req: HTTPRequest, guard: TargetGuard, refused: { reason?: string }): Promise<void> {
    try {
      const d = await decideRequest(req, guard);
      if (d.allow) {
        await req.continue();
        return;
      }
      if (d.navigation && req.frame() === page.mainFrame()) refused.reason ??= d.reason;
      await req.abort('blockedbyclient');
    } catch {
      // the page or browser went away meanwhile
    }
  }

  private async grade(
    page: Page,
    url: string,
    refused: { reason?: string },
    net: { inflight: number },
    onLinks: ((links: string[], url: string) => void) | undefined,
    t0: number,
    timeoutMs: number,
    options?: ScanOptions,
  ): Promise<Graded> {
    const response: HTTPResponse | null = await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    if (refused.reason) throw refusedError(refused.reason);
    if (!response)
      throw new DomainError(ErrorCode.TargetUnreachable, 'The target sent no document.', { reason: 'no response' });
    this.errors.checkEgress(response);
    const t1 = Date.now();
    const remaining = timeoutMs - (t1 - t0);
    // axe is compiled in the isolated world while the page settles (the grace below is idle time
    // for the scan); runAxe injects again if the page replaced its document meanwhile.
    const injected = injectAxe(page.mainFrame()).then(
      () => undefined,
      () => undefined,
    );
    // Settle: a short grace for scripts run at load; then, if requests are still in flight, wait for
    // NETWORK_IDLE_MS of quiet (at most SETTLE_MAX_MS).
    await new Promise((r) => setTimeout(r, LOAD_GRACE_MS));
    if (net.inflight > 0) {
      await page
        .waitForNetworkIdle({ idleTime: NETWORK_IDLE_MS, timeout: Math.max(1, Math.min(SETTLE_MAX_MS, remaining)) })
        .catch(() => undefined);
    }
    if (refused.reason) throw refusedError(refused.reason); // a script navigated the page elsewhere
    const render = await waitForRender(page, timeoutMs - (Date.now() - t0), t1); // client-rendered pages
    if (refused.reason) throw refusedError(refused.reason);
    const t2 = Date.now();
    const status = response.status();
    // Read in the isolated world: the page's scripts cannot fake these getters there.
    const doc = await isolatedRealm(page.mainFrame()).evaluate(() => ({
      title: String((globalThis as any).document.title ?? ''),
      html: String((globalThis as any).document.documentElement?.outerHTML ?? '').slice(0, 50000),
    }));
    const reason = detectBlock({ status, headers: response.headers(), title: doc.title, text: doc.html });
    if (reason)
      throw new DomainError(
        ErrorCode.TargetBlocked,
        'The target answered with a bot-protection or access-denied page; it was not graded.',
        { reason },
      );
    if (status >= 400) {
      const retryAfter = response.headers()['retry-after']; // read by site scans (their 429 back-off)
      throw new DomainError(ErrorCode.TargetHttpError, `The target answered HTTP ${status}.`, {
        status,
        ...(retryAfter ? { target_retry_after: retryAfter.slice(0, 100) } : {}),
      });
    }
    // A crawl's links are read before axe runs (the page is settled: axe would see the same DOM), so
    // that its linked pages load while this one is graded.
    const links = onLinks ? readLinks(page) : Promise.resolve([]);
    if (onLinks)
      void links.then(
        (l) => onLinks(l, page.url()),
        () => undefined,
      );
    await injected;
    const results = await runAxe(page, this.windows);
    const t3 = Date.now();
    const timings = { navigationMs: t1 - t0, settleMs: t2 - t1, axeMs: t3 - t2, totalMs: 0 };
    const entry = pageFromAxe(url, page.url(), results, timings);
    applyRender(entry, render);
    // Fingerprints for the diff (src/a11y/diff) and pictures of the failing elements
    // (src/a11y/screenshots): both only read the page, in its isolated world.
    const [, pictures] = await Promise.all([addNodeFacts(page, entry), this.screenshots.capture(page, entry)]);
    // A site scan's checks beyond axe (src/a11y/checks), after the pictures: they move focus and resize the page.
    if (options?.keyboard || options?.reflow) entry.review = await this.checks.run(page, options, t0 + timeoutMs);
    return {
      pictures,
      page: entry,
      links: await links,
      axeVersion: AXE_VERSION,
      userAgent: await this.userAgentOf(page.browser()),
    };
  }

  /** The browser's user agent, asked once per browser (a round trip per page otherwise). */
  private userAgentOf(browser: Browser): Promise<string> {
    let ua = this.userAgents.get(browser);
    if (!ua) {
      ua = browser.userAgent();
      ua.catch(() => this.userAgents.delete(browser));
      this.userAgents.set(browser, ua);
    }
    return ua;
  }

  /** axe-core on the page as a scan runs it (see axe-runner.ts); the website's browser test grades its own pages with it. */
  runAxe(page: Page): Promise<AxeOutput> {
    return runAxe(page, this.windows);
  }

  /**
   * A new tab of `context` in a window of its own, opened after the context's other openings (the
   * tab prepared between scans included): for pages other than the scan's, e.g. a site's login.
   */
  openWindow(context: BrowserContext): Promise<Page> {
    return this.windows.open(context);
  }
}
