import { Injectable, Logger } from '@nestjs/common';
import type { AxeResults, PartialResult, RunOptions } from 'axe-core';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Frame, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { pageFromAxe, RuleImpacts } from '../report/from-axe';
import type { ReportPage } from '../report/report.types';
import { decideRequest } from '../security/request-filter';
import type { TargetGuard } from '../../common/egress/target-guard';
import { EGRESS_ERROR_HEADER, EGRESS_HEADER } from '../../common/egress/egress-proxy';
import { ScanEgress } from '../security/scan-egress';
import { detectBlock } from './block-detection';
import { crawlCandidates } from './crawl';
import { addNodeFacts } from '../diff/node-facts';
import { applyRender, RENDER_WATCH_SCRIPT, waitForRender } from '../readiness/render-wait';

/** WCAG 2.0, 2.1 and 2.2 levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
export const AXE_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: AXE_TAGS },
  // Elements are listed for violations and incomplete only (as Lighthouse does): faster on big pages.
  resultTypes: ['violations', 'incomplete'],
};
export const VIEWPORT = { width: 1280, height: 800 };
/** Longest wait for the network to go quiet after the load event. */
export const SETTLE_MAX_MS = 5000;
/** Linked pages of a crawl scanned at once (tabs of the scan's context). */
export const CRAWL_PARALLEL = 2;
/** Wait after the load event before looking at the network. */
export const LOAD_GRACE_MS = 50;
/** The network counts as quiet after this long without a request in flight. */
export const NETWORK_IDLE_MS = 200;

export const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

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
  private ruleImpacts: RuleImpacts | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly egress: ScanEgress,
  ) {}

  /** Scans the start page and, with crawl, up to 4 same-origin pages linked from it. */
  async scanSite(context: BrowserContext, start: URL, crawl: boolean, guard: TargetGuard): Promise<SiteScan> {
    const first = await this.scanPage(context, start.href, guard, crawl);
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
          try {
            results[i] = (await this.scanPage(context, next[i], guard, false)).page;
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
  ): Promise<{ page: ReportPage; links: string[]; axeVersion: string; userAgent: string }> {
    const t0 = Date.now();
    const page = await this.newPage(context);
    const refusedNavigation: { reason?: string } = {};
    const net = { inflight: 0 };
    page.on('request', (req: HTTPRequest) => {
      net.inflight++;
      void this.filter(page, req, guard, refusedNavigation);
    });
    page.on('requestfinished', () => net.inflight--);
    page.on('requestfailed', () => net.inflight--);
    page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DomainError(ErrorCode.TargetUnreachable, `The page did not finish within ${this.config.SCAN_PAGE_TIMEOUT_MS} ms.`, { reason: 'timeout' })),
        this.config.SCAN_PAGE_TIMEOUT_MS + 2000,
      );
      timer.unref();
    });
    try {
      return await Promise.race([this.grade(page, url, refusedNavigation, net, collectLinks, t0), deadline]);
    } catch (e) {
      throw this.classify(e, context, refusedNavigation, url);
    } finally {
      clearTimeout(timer);
      await page.close().catch(() => undefined);
    }
  }

  private async newPage(context: BrowserContext): Promise<Page> {
    try {
      const page = await context.newPage();
      await Promise.all([
        page.setViewport(VIEWPORT),
        page.setBypassCSP(true), // else a CSP can forbid injecting axe
        page.setBypassServiceWorker(true),
        page.evaluateOnNewDocument(HARDENING_SCRIPT),
        page.evaluateOnNewDocument(RENDER_WATCH_SCRIPT), // DOM change times for the render wait
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
  ): Promise<{ page: ReportPage; links: string[]; axeVersion: string; userAgent: string }> {
    const response: HTTPResponse | null = await page.goto(url, { waitUntil: 'load', timeout: this.config.SCAN_PAGE_TIMEOUT_MS });
    if (refused.reason) throw this.refusedError(refused.reason);
    if (!response) throw new DomainError(ErrorCode.TargetUnreachable, 'The target sent no document.', { reason: 'no response' });
    this.checkEgress(response);
    const t1 = Date.now();
    const remaining = this.config.SCAN_PAGE_TIMEOUT_MS - (t1 - t0);
    // Settle: a short grace for scripts run at load; then, if requests are still in flight, wait for
    // NETWORK_IDLE_MS of quiet (at most SETTLE_MAX_MS).
    await new Promise((r) => setTimeout(r, LOAD_GRACE_MS));
    if (net.inflight > 0) {
      await page.waitForNetworkIdle({ idleTime: NETWORK_IDLE_MS, timeout: Math.max(1, Math.min(SETTLE_MAX_MS, remaining)) }).catch(() => undefined);
    }
    if (refused.reason) throw this.refusedError(refused.reason); // a script navigated the page elsewhere
    const render = await waitForRender(page, this.config.SCAN_PAGE_TIMEOUT_MS - (Date.now() - t0)); // client-rendered pages
    if (refused.reason) throw this.refusedError(refused.reason);
    const t2 = Date.now();
    const status = response.status();
    const doc = await page.evaluate(() => ({
      title: String((globalThis as any).document.title ?? ''),
      html: String((globalThis as any).document.documentElement?.outerHTML ?? '').slice(0, 50000),
    }));
    const reason = detectBlock({ status, headers: response.headers(), title: doc.title, text: doc.html });
    if (reason) throw new DomainError(ErrorCode.TargetBlocked, 'The target answered with a bot-protection or access-denied page; it was not graded.', { reason });
    if (status >= 400) throw new DomainError(ErrorCode.TargetHttpError, `The target answered HTTP ${status}.`, { status });
    const results = await this.runAxe(page);
    const impacts = await this.impacts(page);
    const t3 = Date.now();
    const links = collectLinks
      ? await page.evaluate(() => Array.from((globalThis as any).document.querySelectorAll('a[href]') as ArrayLike<{ href: string }>, (a) => String(a.href)))
      : [];
    const timings = { navigationMs: t1 - t0, settleMs: t2 - t1, axeMs: t3 - t2, totalMs: 0 };
    const entry = pageFromAxe(url, results, impacts, timings);
    applyRender(entry, render);
    await addNodeFacts(page, entry); // fingerprints for the diff (src/a11y/diff)
    timings.totalMs = Date.now() - t0;
    return {
      page: entry,
      links,
      axeVersion: results.testEngine.version,
      userAgent: results.testEnvironment.userAgent,
    };
  }

  /**
   * axe in every frame (cross-origin too). A page without frames runs `axe.run` (the same result
   * as runPartial + finishRun, one round trip less); a page with frames runs `axe.runPartial` in
   * each frame and merges them with `axe.finishRun`, as @axe-core/puppeteer does.
   */
  async runAxe(page: Page): Promise<AxeResults> {
    const top = page.mainFrame();
    await this.inject(top);
    const context = { exclude: [] };
    const frames = (await top.evaluate((c: unknown) => (globalThis as any).axe.utils.getFrameContexts(c).length, context as never)) as number;
    if (frames === 0) {
      return (await top.evaluate((c: unknown, o: unknown) => (globalThis as any).axe.run(c, o), context as never, AXE_OPTIONS as never)) as AxeResults;
    }
    const partials = await this.partials(top, context, true, true);
    // finishRun in a blank page of the same context: the merge does not depend on the page's scripts.
    const blank = await page.browserContext().newPage();
    try {
      await blank.evaluate(AXE_SOURCE);
      return (await blank.evaluate(
        (p: unknown, o: unknown) => (globalThis as any).axe.finishRun(p, o),
        partials as never,
        AXE_OPTIONS as never,
      )) as AxeResults;
    } finally {
      await blank.close().catch(() => undefined);
    }
  }

  private async partials(frame: Frame, context: unknown, top: boolean, injected = false): Promise<(PartialResult | null)[]> {
    if (!injected) await this.inject(frame);
    // getFrameContexts must run before runPartial.
    const frameContexts = (await frame.evaluate((c: unknown) => (globalThis as any).axe.utils.getFrameContexts(c), context as never)) as {
      frameSelector: unknown;
      frameContext: unknown;
    }[];
    const own = frame.evaluate((c: unknown, o: unknown) => (globalThis as any).axe.runPartial(c, o), context as never, AXE_OPTIONS as never) as Promise<PartialResult>;
    own.catch(() => undefined);
    const children: Promise<(PartialResult | null)[]>[] = [];
    for (const { frameSelector, frameContext } of frameContexts) {
      let child: Frame | null = null;
      try {
        const handle = await frame.evaluateHandle((s: unknown) => (globalThis as any).axe.utils.shadowSelect(s), frameSelector as never);
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

  private async inject(frame: Frame): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const notReady = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('frame not ready')), 2000);
    });
    try {
      await Promise.race([frame.evaluate(() => (globalThis as any).document.readyState as string), notReady]);
    } finally {
      clearTimeout(timer);
    }
    await frame.evaluate(AXE_SOURCE);
  }

  /** Static impact of every axe rule (read once from axe's metadata). */
  private async impacts(page: Page): Promise<RuleImpacts> {
    this.ruleImpacts ??= (await page.mainFrame().evaluate(() =>
      Object.fromEntries(((globalThis as any).axe._audit.rules as { id: string; impact?: string }[]).map((r) => [r.id, r.impact])),
    )) as RuleImpacts;
    return this.ruleImpacts;
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
  private classify(e: unknown, context: BrowserContext, refused: { reason?: string }, url?: string): DomainError {
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
      return new DomainError(ErrorCode.TargetUnreachable, `The page did not load within ${this.config.SCAN_PAGE_TIMEOUT_MS} ms.`, { reason: 'timeout' });
    }
    this.logger.warn(`Scan failed: ${e instanceof Error ? (e.stack ?? message) : message}`);
    return new DomainError(ErrorCode.ScanFailed, 'The scan failed in the browser; please try again.');
  }
}
