import { Injectable, Logger } from '@nestjs/common';
import type { PartialResult, RunOptions } from 'axe-core';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Frame, HTTPRequest, HTTPResponse, Page, Realm } from 'puppeteer-core';
import { isolatedRealm } from '../security/isolated-world';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AxeOutput, MAX_NODE_HTML, MAX_NODES_PER_RULE, TRIM_SOURCE, validateAxeOutput } from '../report/axe-output';
import { AXE_VERSION } from '../report/axe-rules';
import { pageFromAxe } from '../report/from-axe';
import type { ReportPage } from '../report/report.types';
import { decideRequest } from '../security/request-filter';
import type { TargetGuard } from '../../common/egress/target-guard';
import { EGRESS_ERROR_HEADER, EGRESS_HEADER } from '../../common/egress/egress-proxy';
import { ScanEgress } from '../security/scan-egress';
import { detectBlock } from './block-detection';
import { crawlCandidates } from './crawl';
import { addNodeFacts } from '../diff/node-facts';
import { applyRender, RENDER_WATCH_SCRIPT, waitForRender } from '../readiness/render-wait';
import { Screenshots } from '../screenshots/screenshots';
import { VIEWPORT_WIDTH } from '../screenshots/box';

/** WCAG 2.0, 2.1 and 2.2 levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
export const AXE_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: AXE_TAGS },
  // Elements are listed for violations and incomplete only (as Lighthouse does): faster on big pages.
  resultTypes: ['violations', 'incomplete'],
};
export const VIEWPORT = { width: VIEWPORT_WIDTH, height: 800 };
/** Longest wait for the network to go quiet after the load event. */
export const SETTLE_MAX_MS = 5000;
/** Linked pages of a crawl scanned at once (tabs of the scan's context). */
export const CRAWL_PARALLEL = 2;
/** Wait after the load event before looking at the network. */
export const LOAD_GRACE_MS = 50;
/** The network counts as quiet after this long without a request in flight. */
export const NETWORK_IDLE_MS = 200;

/** Extra time a page gets after its timeout for grading to give up cleanly. */
export const PAGE_GRACE_MS = 2000;
/** Shortest time limit a page is started with. */
export const PAGE_TIMEOUT_FLOOR_MS = 1000;

/** Frames of one document graded (more are left out, as axe leaves out what it cannot reach). */
export const MAX_FRAMES = 50;
/** Links read from a start page for the crawl. */
export const MAX_LINKS = 5000;

export const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** axe-core and the trimming helper, defined in one evaluation. */
const AXE_AND_TRIM_SOURCE = `${AXE_SOURCE}\n;${TRIM_SOURCE}`;

/** Chromium's names for the proxy's upstream connection errors (so answers match a direct connection). */
const CHROMIUM_NET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'ERR_CONNECTION_REFUSED',
  ECONNRESET: 'ERR_CONNECTION_RESET',
  ETIMEDOUT: 'ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'ERR_ADDRESS_UNREACHABLE',
  ENOTFOUND: 'ERR_NAME_NOT_RESOLVED',
  EAI_AGAIN: 'ERR_NAME_NOT_RESOLVED',
  ENODATA: 'ERR_NAME_NOT_RESOLVED',
};

/** Blocks what request interception cannot see: service workers, WebSocket/WebTransport, WebRTC. */
const HARDENING_SCRIPT = `(() => {
  try { if (navigator.serviceWorker) Object.defineProperty(ServiceWorkerContainer.prototype, 'register', { value: () => Promise.reject(new DOMException('Service workers are disabled', 'SecurityError')) }); } catch (e) {}
  for (const name of ['WebSocket', 'WebTransport', 'RTCPeerConnection', 'webkitRTCPeerConnection']) {
    try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); } catch (e) {}
  }
})();`;

export interface SiteScan {
  pages: ReportPage[];
  skipped: { url: string; error: string }[];
  axeVersion: string;
  userAgent: string;
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

/** A graded page; `pictures` finishes its screenshots (no longer needs the tab). */
interface Graded {
  page: ReportPage;
  links: string[];
  axeVersion: string;
  userAgent: string;
  pictures: () => Promise<void>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- code below runs in the page, where `axe` and the DOM live */

/**
 * Loads pages in a browser context and grades them with axe-core: navigation with every request
 * filtered by the SSRF guard, settle (load + network quiet, bounded), block-page and HTTP-error
 * detection, axe in every frame (runPartial per frame, finishRun in a blank page, as
 * @axe-core/puppeteer does), and the same-origin crawl.
 */
@Injectable()
export class Scanner {
  private readonly logger = new Logger('Scanner');
  private readonly userAgents = new WeakMap<Browser, Promise<string>>();

  constructor(
    private readonly config: AppConfig,
    private readonly egress: ScanEgress,
    private readonly screenshots: Screenshots,
  ) {}

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
  ): Promise<SiteScan> {
    const left = () => deadline - Date.now() - PAGE_GRACE_MS;
    const first = await this.scanPage(context, start.href, guard, crawl, Math.max(PAGE_TIMEOUT_FLOOR_MS, Math.min(this.config.SCAN_PAGE_TIMEOUT_MS, left())));
    const pages = [first.page];
    const skipped: SiteScan['skipped'] = [];
    if (crawl) {
      const next = crawlCandidates(first.page.finalUrl, [start.href, first.page.finalUrl], first.links);
      const results: (ReportPage | { url: string; error: string })[] = new Array(next.length);
      let cursor = 0;
      // Linked pages load in parallel tabs of the scan's context, CRAWL_PARALLEL at a time.
      const worker = async (): Promise<void> => {
        while (cursor < next.length) {
          const i = cursor++;
          const budget = Math.min(this.config.SCAN_LINKED_PAGE_TIMEOUT_MS, this.config.SCAN_PAGE_TIMEOUT_MS, left());
          if (budget < PAGE_TIMEOUT_FLOOR_MS) {
            results[i] = { url: next[i], error: `scan deadline reached (${this.config.SCAN_TOTAL_TIMEOUT_MS} ms per scan)` };
            continue;
          }
          try {
            results[i] = (await this.scanPage(context, next[i], guard, false, budget)).page;
          } catch (e) {
            if (e instanceof DomainError && e.code === ErrorCode.ScanFailed) throw e;
            results[i] = { url: next[i], error: e instanceof DomainError ? `${e.code}: ${e.message}` : 'failed' };
          }
        }
      };
      await Promise.all(Array.from({ length: CRAWL_PARALLEL }, worker));
      // A linked page that redirected off the origin, or onto a page already scanned, is not kept.
      const origin = new URL(first.page.finalUrl).origin;
      const finals = new Set([first.page.finalUrl]);
      for (const r of results) {
        if ('error' in r) skipped.push(r);
        else if (new URL(r.finalUrl).origin !== origin) skipped.push({ url: r.url, error: `redirected to another origin (${r.finalUrl})` });
        else if (finals.has(r.finalUrl)) skipped.push({ url: r.url, error: `same page as ${r.finalUrl}` });
        else {
          finals.add(r.finalUrl);
          pages.push(r);
        }
      }
    }
    return { pages, skipped, axeVersion: first.axeVersion, userAgent: first.userAgent };
  }

  /** One page: throws DomainError (target_*, scan_failed) or returns its report entry. */
  async scanPage(
    context: BrowserContext,
    url: string,
    guard: TargetGuard,
    collectLinks: boolean,
    timeoutMs: number = this.config.SCAN_PAGE_TIMEOUT_MS,
  ): Promise<{ page: ReportPage; links: string[]; axeVersion: string; userAgent: string }> {
    const t0 = Date.now();
    const page = await this.newPage(context);
    const refusedNavigation: { reason?: string } = {};
    const net = { inflight: 0 };
    // The tab's own favicon fetch is refused and not awaited: it is not part of the page, and
    // Chromium starts it after the load event, so counting it held every scan for NETWORK_IDLE_MS.
    const counted = new WeakSet<HTTPRequest>();
    page.on('request', (req: HTTPRequest) => {
      if (isTabFavicon(req)) {
        void req.abort('blockedbyclient').catch(() => undefined);
        return;
      }
      counted.add(req);
      net.inflight++;
      void this.filter(page, req, guard, refusedNavigation);
    });
    page.on('requestfinished', (req: HTTPRequest) => counted.has(req) && net.inflight--);
    page.on('requestfailed', (req: HTTPRequest) => counted.has(req) && net.inflight--);
    page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DomainError(ErrorCode.TargetUnreachable, `The page did not finish within ${timeoutMs} ms.`, { reason: 'timeout' })),
        timeoutMs + PAGE_GRACE_MS,
      );
      timer.unref();
    });
    let graded: Graded;
    try {
      graded = await Promise.race([this.grade(page, url, refusedNavigation, net, collectLinks, t0, timeoutMs), deadline]);
    } catch (e) {
      const error = this.classify(e, context, refusedNavigation, url, timeoutMs);
      await page.close().catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
    // The pictures' decoding, drawing and encoding (sharp, on the thread pool) and their INSERT
    // overlap with closing the tab.
    const { pictures, ...result } = graded;
    await Promise.all([pictures(), page.close().catch(() => undefined)]);
    result.page.timings.totalMs = Date.now() - t0;
    return result;
  }

  private async newPage(context: BrowserContext): Promise<Page> {
    try {
      const page = await context.newPage();
      await Promise.all([
        page.setViewport(VIEWPORT),
        page.setBypassCSP(true), // else a CSP can forbid injecting axe
        page.setBypassServiceWorker(true),
        page.evaluateOnNewDocument(`${HARDENING_SCRIPT}\n${RENDER_WATCH_SCRIPT}`), // and DOM change times for the render wait
        page.setRequestInterception(true),
      ]);
      return page;
    } catch (e) {
      throw this.classify(e, context, {});
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
    collectLinks: boolean,
    t0: number,
    timeoutMs: number,
  ): Promise<Graded> {
    const response: HTTPResponse | null = await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    if (refused.reason) throw this.refusedError(refused.reason);
    if (!response) throw new DomainError(ErrorCode.TargetUnreachable, 'The target sent no document.', { reason: 'no response' });
    this.checkEgress(response);
    const t1 = Date.now();
    const remaining = timeoutMs - (t1 - t0);
    // axe is compiled in the isolated world while the page settles (the grace below is idle time
    // for the scan); runAxe injects again if the page replaced its document meanwhile.
    const injected = this.inject(page.mainFrame()).then(
      () => undefined,
      () => undefined,
    );
    // Settle: a short grace for scripts run at load; then, if requests are still in flight, wait for
    // NETWORK_IDLE_MS of quiet (at most SETTLE_MAX_MS).
    await new Promise((r) => setTimeout(r, LOAD_GRACE_MS));
    if (net.inflight > 0) {
      await page.waitForNetworkIdle({ idleTime: NETWORK_IDLE_MS, timeout: Math.max(1, Math.min(SETTLE_MAX_MS, remaining)) }).catch(() => undefined);
    }
    if (refused.reason) throw this.refusedError(refused.reason); // a script navigated the page elsewhere
    const render = await waitForRender(page, timeoutMs - (Date.now() - t0), t1); // client-rendered pages
    if (refused.reason) throw this.refusedError(refused.reason);
    const t2 = Date.now();
    const status = response.status();
    // Read in the isolated world: the page's scripts cannot fake these getters there.
    const doc = await isolatedRealm(page.mainFrame()).evaluate(() => ({
      title: String((globalThis as any).document.title ?? ''),
      html: String((globalThis as any).document.documentElement?.outerHTML ?? '').slice(0, 50000),
    }));
    const reason = detectBlock({ status, headers: response.headers(), title: doc.title, text: doc.html });
    if (reason) throw new DomainError(ErrorCode.TargetBlocked, 'The target answered with a bot-protection or access-denied page; it was not graded.', { reason });
    if (status >= 400) throw new DomainError(ErrorCode.TargetHttpError, `The target answered HTTP ${status}.`, { status });
    await injected;
    const results = await this.runAxe(page);
    const t3 = Date.now();
    const links = collectLinks
      ? await isolatedRealm(page.mainFrame()).evaluate(() =>
          Array.from((globalThis as any).document.querySelectorAll('a[href]') as ArrayLike<{ href: string }>, (a) => String(a.href)),
        )
      : [];
    const timings = { navigationMs: t1 - t0, settleMs: t2 - t1, axeMs: t3 - t2, totalMs: 0 };
    const entry = pageFromAxe(url, page.url(), results, timings);
    applyRender(entry, render);
    // Fingerprints for the diff (src/a11y/diff) and pictures of the failing elements
    // (src/a11y/screenshots): both only read the page, in its isolated world.
    const [, pictures] = await Promise.all([addNodeFacts(page, entry), this.screenshots.capture(page, entry)]);
    return {
      pictures,
      page: entry,
      links: Array.isArray(links) ? links.filter((l): l is string => typeof l === 'string').slice(0, MAX_LINKS) : [],
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

  /**
   * axe in every frame (cross-origin too), in an isolated world of each frame (the DevTools
   * "utility world"): the page's scripts share the DOM with axe but not its JavaScript, so they
   * can neither see nor rewrite `axe`, its rules or its results. A page without frames runs
   * `axe.run` (the same result as runPartial + finishRun, one round trip less); a page with frames
   * runs `axe.runPartial` in each frame and merges them with `axe.finishRun` in a blank page, as
   * @axe-core/puppeteer does. Results are trimmed in the world and checked again here.
   */
  async runAxe(page: Page): Promise<AxeOutput> {
    const top = page.mainFrame();
    const context = { exclude: [] };
    // One round trip on a page without frames: axe (injected while the page settled) runs at once.
    const run = (realm: Realm) =>
      realm.evaluate(
        (c: unknown, o: unknown, max: number, html: number) => {
          const g = globalThis as any;
          if (!g.axe || !g.__beaconTrim) return { missing: true };
          if (g.axe.utils.getFrameContexts(c).length > 0) return { frames: true };
          return g.axe.run(c, o).then((r: unknown) => ({ out: g.__beaconTrim(r, max, html) }));
        },
        context as never,
        AXE_OPTIONS as never,
        MAX_NODES_PER_RULE,
        MAX_NODE_HTML,
      ) as Promise<{ missing?: boolean; frames?: boolean; out?: unknown }>;
    let realm = isolatedRealm(top);
    let first = await run(realm);
    if (first.missing) {
      realm = await this.inject(top); // the page replaced its document after the first injection
      first = await run(realm);
    }
    if (first.missing) throw new Error('axe could not be injected');
    if (!first.frames) return validateAxeOutput(first.out);
    const partials = await this.partials(top, context, true, realm);
    // finishRun in a blank page of the same context: the merge does not depend on the page's scripts.
    const blank = await page.browserContext().newPage();
    try {
      const blankRealm = isolatedRealm(blank.mainFrame());
      await blankRealm.evaluate(AXE_AND_TRIM_SOURCE);
      return validateAxeOutput(
        await blankRealm.evaluate(
          (p: unknown, o: unknown, max: number, html: number) => (globalThis as any).axe.finishRun(p, o).then((r: unknown) => (globalThis as any).__beaconTrim(r, max, html)),
          partials as never,
          AXE_OPTIONS as never,
          MAX_NODES_PER_RULE,
          MAX_NODE_HTML,
        ),
      );
    } finally {
      await blank.close().catch(() => undefined);
    }
  }

  private async partials(frame: Frame, context: unknown, top: boolean, injected?: Realm): Promise<(PartialResult | null)[]> {
    const realm = injected ?? (await this.inject(frame));
    // getFrameContexts must run before runPartial.
    const frameContexts = (await realm.evaluate((c: unknown) => (globalThis as any).axe.utils.getFrameContexts(c), context as never)) as {
      frameSelector: unknown;
      frameContext: unknown;
    }[];
    const own = realm.evaluate((c: unknown, o: unknown) => (globalThis as any).axe.runPartial(c, o), context as never, AXE_OPTIONS as never) as Promise<PartialResult>;
    own.catch(() => undefined);
    const children: Promise<(PartialResult | null)[]>[] = [];
    for (const { frameSelector, frameContext } of frameContexts.slice(0, MAX_FRAMES)) {
      let child: Frame | null = null;
      try {
        const handle = await realm.evaluateHandle((s: unknown) => (globalThis as any).axe.utils.shadowSelect(s), frameSelector as never);
        child = (await handle.asElement()?.contentFrame()) ?? null;
      } catch {
        child = null;
      }
      children.push(child ? this.partials(child, frameContext, false).catch(() => [null]) : Promise.resolve([null]));
    }
    let mine: PartialResult;
    try {
      mine = await own;
    } catch (e) {
      if (top) throw e;
      return [null];
    }
    return [mine, ...(await Promise.all(children)).flat()];
  }

  /** axe and the trimming helper in the frame's isolated world (the page's scripts cannot reach it). */
  private async inject(frame: Frame): Promise<Realm> {
    const realm = isolatedRealm(frame);
    let timer: NodeJS.Timeout | undefined;
    const notReady = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('frame not ready')), 2000);
    });
    try {
      await Promise.race([realm.evaluate(() => (globalThis as any).document.readyState as string), notReady]);
    } finally {
      clearTimeout(timer);
    }
    await realm.evaluate(AXE_AND_TRIM_SOURCE);
    return realm;
  }

  /** The egress proxy's own answers: a refused address (DNS rebinding past the page-level check) or a dead host. */
  private checkEgress(response: HTTPResponse): void {
    const headers = response.headers();
    const verdict = headers[EGRESS_HEADER];
    if (verdict === 'refused') {
      const host = new URL(response.url()).hostname;
      throw this.refusedError(this.egress.proxy.refusalFor(host)?.publicReason ?? `${host} is not a public address`);
    }
    if (verdict === 'unreachable') {
      const code = headers[EGRESS_ERROR_HEADER] ?? 'ERROR';
      const reason = CHROMIUM_NET_ERRORS[code] ?? 'ERR_CONNECTION_FAILED';
      throw new DomainError(ErrorCode.TargetUnreachable, `The target could not be reached (${reason}).`, { reason });
    }
  }

  private refusedError(reason: string): DomainError {
    return new DomainError(ErrorCode.TargetNotAllowed, `The page led to an address that may not be scanned (${reason}).`, { field: 'url', reason });
  }

  /** Turns a browser failure into the API's errors. */
  private classify(e: unknown, context: BrowserContext, refused: { reason?: string }, url?: string, timeoutMs = this.config.SCAN_PAGE_TIMEOUT_MS): DomainError {
    if (e instanceof DomainError) return e;
    if (refused.reason) return this.refusedError(refused.reason);
    const message = e instanceof Error ? e.message : String(e);
    if (url && message.includes('net::ERR_TUNNEL_CONNECTION_FAILED')) {
      // https/wss go through CONNECT: Chromium does not show the proxy's answer, ask the proxy.
      const refusal = this.egress.proxy.refusalFor(new URL(url).hostname.replace(/^\[|\]$/g, ''));
      if (refusal && !refusal.unresolvable) return this.refusedError(refusal.publicReason);
      if (refusal) return new DomainError(ErrorCode.TargetUnreachable, 'The target could not be reached (ERR_NAME_NOT_RESOLVED).', { reason: 'ERR_NAME_NOT_RESOLVED' });
    }
    if (!context.browser().connected) {
      return new DomainError(ErrorCode.ScanFailed, 'The browser crashed during the scan; please try again.');
    }
    const net = /net::(ERR_[A-Z_]+)/.exec(message);
    if (net) {
      const code = net[1];
      const what = code === 'ERR_ABORTED' ? 'The target is not a web page (download or aborted load).' : `The target could not be reached (${code}).`;
      return new DomainError(ErrorCode.TargetUnreachable, what, { reason: code });
    }
    if (e instanceof Error && e.name === 'TimeoutError') {
      return new DomainError(ErrorCode.TargetUnreachable, `The page did not load within ${timeoutMs} ms.`, { reason: 'timeout' });
    }
    this.logger.warn(`Scan failed: ${e instanceof Error ? (e.stack ?? message) : message}`);
    return new DomainError(ErrorCode.ScanFailed, 'The scan failed in the browser; please try again.');
  }
}
