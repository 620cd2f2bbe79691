import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { Browser, BrowserContext, Target, TargetType } from 'puppeteer-core';
import { AppConfig } from '../../common/config/env';
import { browserFixHint } from '../../common/health/browser-check';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ScanEgress } from '../security/scan-egress';

/** Chromium flags: headless, root-safe, offline apart from the pages we load. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-dev-shm-usage',
  '--mute-audio',
  // WebUIOmniboxPopup*: headless Chromium 156 still loads the address bar's two popup pages in a
  // renderer of their own for every window it opens (0.8-1 s of CPU per scan's browser context).
  '--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,InterestFeedContentSuggestions,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

/**
 * Every request of every target (pages, popups, workers, service workers, prefetch, WebSocket)
 * goes through Beacon's egress proxy, loopback included (`<-loopback>` removes Chromium's implicit
 * loopback bypass); WebRTC may not send UDP around it.
 */
export function egressArgs(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}

/** Puppeteer defaults we drop: popups stay blocked (a page's window.open without a user gesture gets nothing). */
export const IGNORED_DEFAULT_ARGS = ['--disable-popup-blocking'];

/** Launches a Chromium with its own temporary profile directory (removed by the returned cleanup). */
export async function launchChromium(
  executablePath: string,
  extraArgs: readonly string[] = [],
): Promise<{ browser: Browser; cleanup: () => Promise<void> }> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'beacon-chromium-'));
  try {
    const browser = await puppeteer.launch({
      executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS, ...extraArgs, `--user-data-dir=${userDataDir}`],
      ignoreDefaultArgs: IGNORED_DEFAULT_ARGS,
      defaultViewport: null,
      // DevTools over a pipe, not a port: Chromium exits when the pipe closes, so it never outlives
      // this process, even after kill -9 (puppeteer starts it in its own process group).
      pipe: true,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 60000,
    });
    const cleanup = () =>
      rm(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch(() => undefined);
    return { browser, cleanup };
  } catch (e) {
    await rm(userDataDir, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  }
}

/**
 * Closes every page a page opened (popups from window.open, target=_blank links or forms that got
 * past the popup blocker): scans only grade tabs they open themselves. Whatever such a page manages
 * to request before it is closed still goes through the egress proxy.
 */
export function closeUnrequestedTargets(browser: Browser): void {
  browser.on('targetcreated', (target: Target) => {
    if (target.type() !== TargetType.PAGE || !target.opener()) return;
    void target
      .page()
      .then((p) => p?.close())
      .catch(() => undefined);
  });
}

/** Contexts served by one Chromium before it is recycled (when idle), against slow leaks. */
export const RECYCLE_AFTER_CONTEXTS = 500;

interface Running {
  browser: Browser;
  cleanup: () => Promise<void>;
  version: string;
  contexts: number;
}

/**
 * One long-lived Chromium, launched lazily on the first scan. Each scan gets a fresh incognito
 * browser context (downloads denied) and one of SCAN_CONCURRENCY slots; up to SCAN_QUEUE_LIMIT scans
 * wait for a slot, more are refused with 503 service_unavailable. A crashed Chromium is relaunched on
 * the next scan; a Chromium that served RECYCLE_AFTER_CONTEXTS contexts is replaced when idle.
 */
@Injectable()
export class BrowserPool implements OnApplicationShutdown {
  private readonly logger = new Logger('BrowserPool');
  private running: Promise<Running> | undefined;
  /** A context made after a scan ended, for the next scan (see withContext). */
  private spare: { run: Running; context: Promise<BrowserContext | undefined>; ready: Promise<void> } | undefined;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  /** Chromium launches so far (for tests and metrics). */
  launches = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly egress: ScanEgress,
  ) {}

  get stats(): { active: number; queued: number; launches: number } {
    return { active: this.active, queued: this.waiting.length, launches: this.launches };
  }

  /**
   * Runs `fn` with a fresh browser context in a slot; the context is closed afterwards. The context
   * is the spare one made after the previous scan when there is one (never used by anything else),
   * and a new spare is made once this one is closed.
   */
  async withContext<T>(fn: (context: BrowserContext, browserVersion: string) => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      const run = await this.browser();
      run.contexts++;
      let context = await this.takeSpare(run);
      try {
        context ??= await run.browser.createBrowserContext({ downloadBehavior: { policy: 'deny' } });
      } catch {
        throw new DomainError(ErrorCode.ScanFailed, 'The browser is restarting; please try again.');
      }
      try {
        return await fn(context, run.version);
      } finally {
        if (run.browser.connected) await context.close().catch(() => undefined);
        this.makeSpare(run);
      }
    } finally {
      this.release();
    }
  }

  /**
   * Made in each spare context before a scan takes it: the scanner opens and sets up its first tab
   * there (a new tab starts a renderer process: that time is spent between scans, not in one).
   */
  prepareSpare: ((context: BrowserContext) => Promise<void>) | undefined;

  /** Resolves when the spare context (if one is being made) is ready; for the benchmark, so that its peers run undisturbed. */
  async spareReady(): Promise<void> {
    await this.spare?.ready;
  }

  /** The spare context, if it belongs to `run` (else it is dropped). */
  private async takeSpare(run: Running): Promise<BrowserContext | undefined> {
    const spare = this.spare;
    this.spare = undefined;
    if (!spare) return undefined;
    const context = await spare.context;
    if (spare.run === run && run.browser.connected && context) return context;
    await context?.close().catch(() => undefined);
    return undefined;
  }

  /** Starts making a spare context (with its prepared tab) for the next scan, if none is there. */
  private makeSpare(run: Running): void {
    if (this.closed || this.spare || !run.browser.connected || run.contexts >= RECYCLE_AFTER_CONTEXTS) return;
    const context = run.browser.createBrowserContext({ downloadBehavior: { policy: 'deny' } }).catch(() => undefined);
    // The scan that takes the context waits for the context only: the tab is awaited inside the
    // scan (under its time limit), where it is used. (`prepareSpare` is called before that scan
    // resumes: callbacks of one promise run in the order they were added.)
    const ready = context.then((ctx) => (ctx ? this.prepareSpare?.(ctx) : undefined)).catch(() => undefined);
    this.spare = { run, context, ready };
  }

  /** The running browser (for tests: e.g. to kill it). Undefined before the first scan. */
  async current(): Promise<Browser | undefined> {
    return this.running ? (await this.running.catch(() => undefined))?.browser : undefined;
  }

  private async acquire(): Promise<void> {
    if (this.closed) throw new DomainError(ErrorCode.ServiceUnavailable, 'The scanner is shutting down.');
    if (this.active < this.config.SCAN_CONCURRENCY) {
      this.active++;
      return;
    }
    if (this.waiting.length >= this.config.SCAN_QUEUE_LIMIT) {
      throw new DomainError(
        ErrorCode.ServiceUnavailable,
        'Too many scans are waiting; try again shortly.',
        {},
        { 'Retry-After': '30' },
      );
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) {
      next(); // the slot passes to the next waiter
      return;
    }
    this.active--;
    if (this.active === 0) void this.recycleIfWorn();
  }

  private async recycleIfWorn(): Promise<void> {
    const r = this.running ? await this.running.catch(() => undefined) : undefined;
    if (!r || r.contexts < RECYCLE_AFTER_CONTEXTS || this.active > 0) return;
    this.logger.log(`Recycling Chromium after ${r.contexts} scans`);
    this.running = undefined;
    await this.stop(r);
  }

  private async browser(): Promise<Running> {
    for (;;) {
      if (!this.running) {
        const launching = this.launch();
        this.running = launching;
        launching.catch(() => {
          if (this.running === launching) this.running = undefined;
        });
      }
      const current = this.running;
      const r = await current;
      if (r.browser.connected) return r;
      if (this.running === current) this.running = undefined; // crashed: relaunch
    }
  }

  private async launch(): Promise<Running> {
    this.launches++;
    let launched: { browser: Browser; cleanup: () => Promise<void> };
    try {
      launched = await launchChromium(this.config.CHROMIUM_PATH, egressArgs(await this.egress.proxyUrl()));
    } catch (e) {
      this.logger.error(`Chromium failed to start: ${(e as Error).message}`);
      throw new DomainError(
        ErrorCode.ScanFailed,
        `The browser could not be started. ${browserFixHint(this.config.CHROMIUM_PATH)}`,
      );
    }
    closeUnrequestedTargets(launched.browser);
    const run: Running = { ...launched, version: await launched.browser.version(), contexts: 0 };
    launched.browser.once('disconnected', () => {
      void run.cleanup();
      if (!this.closed) this.logger.warn('Chromium disconnected; it will be relaunched on the next scan');
    });
    return run;
  }

  private async stop(r: Running): Promise<void> {
    if (this.spare?.run === r) this.spare = undefined; // closed with its browser
    await r.browser.close().catch(() => r.browser.process()?.kill('SIGKILL'));
    await r.cleanup();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const r = this.running ? await this.running.catch(() => undefined) : undefined;
    this.running = undefined;
    if (r) await this.stop(r);
  }
}
