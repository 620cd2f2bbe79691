import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { SCAN_JOB_LOST } from '../queue/bullmq-scan-queue';
import { BROWSER_CRASHED } from '../scan/page-errors';
import type { ScanOptions, ViewportName } from '../scan/scan-options';
import { retryAfterMs, RETRY_AFTER_MAX_MS } from './site-pace';
import type { SitePageResult } from './site.types';

/**
 * A page answered HTTP 429: wait as long as its Retry-After asks (capped, site-pace.ts), else this
 * long, doubled at each further 429 of the page, and try it again (at most SITE_429_RETRIES times);
 * later pages of the scan keep the longer gap.
 */
export const SITE_429_BACKOFF_MS = 2000;
export const SITE_429_RETRIES = 2;
/** Pages of one site scan in flight at once (on the scan fleet) while the site sets no pace (Crawl-delay, 429). */
export const SITE_PAGES_IN_FLIGHT = 3;

const isTooMany = (e: unknown): e is DomainError =>
  e instanceof DomainError && e.code === ErrorCode.TargetHttpError && e.details.status === 429;
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `scan`, tried again after a 429 as SITE_429_BACKOFF_MS says; `slowDown` is told each wait. */
export async function scanWithBackoff<T>(scan: () => Promise<T>, slowDown: (ms: number) => void): Promise<T> {
  let wait = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await scan();
    } catch (e) {
      if (!isTooMany(e) || attempt >= SITE_429_RETRIES) throw e;
      wait =
        retryAfterMs(e.details.target_retry_after) ??
        Math.min(RETRY_AFTER_MAX_MS, wait ? wait * 2 : SITE_429_BACKOFF_MS);
      slowDown(wait);
      await pause(wait);
    }
  }
}

/**
 * The pages of a site scan, SITE_PAGES_IN_FLIGHT at a time while the site sets no pace, one at a
 * time with `gapMs` before each once it does (a Crawl-delay from the start, or the wait of a 429 as
 * `scan` reports it through `slowDown`). A page whose scan throws is a result with its error.
 * `after` runs after each page; false stops the scan (`stopped`).
 */
export async function runPages(
  pages: readonly string[],
  o: {
    gapMs: number;
    scan: (url: string, index: number, slowDown: (ms: number) => void) => Promise<SitePageResult>;
    after: () => Promise<boolean>;
  },
): Promise<{ results: SitePageResult[]; stopped: boolean }> {
  const results: SitePageResult[] = new Array(pages.length);
  let gapMs = o.gapMs;
  let next = 0;
  let stopped = false;
  const slowDown = (ms: number) => void (gapMs = Math.max(gapMs, ms));
  const lane = async (n: number): Promise<void> => {
    while (next < pages.length && !stopped && (n === 0 || !gapMs)) {
      const i = next++;
      if (gapMs) await pause(gapMs);
      try {
        results[i] = await o.scan(pages[i], i, slowDown);
      } catch (e) {
        results[i] = { url: pages[i], error: e instanceof DomainError ? e.message : 'The page could not be scanned.' };
      }
      if (!(await o.after())) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: SITE_PAGES_IN_FLIGHT }, (_, n) => lane(n)));
  return { results, stopped };
}

/** Times a page (at one viewport) of a site scan is started at most: a lost one is retried once. */
export const PAGE_TRIES = 2;
export const LOST_TWICE =
  "This page's scan was lost twice (its browser crashed or its worker stopped, then again on its one retry): not scanned.";

/** A page scan that was lost rather than answered: its browser crashed, or its job vanished from the queue. */
const isLost = (e: unknown): boolean =>
  e instanceof DomainError &&
  e.code === ErrorCode.ScanFailed &&
  (e.message === BROWSER_CRASHED || e.message === SCAN_JOB_LOST);

/**
 * One page's scan with its tries counted across processes: `start` records each try durably before it
 * begins (`tried`: the tries already recorded, by a process that died mid-page), and a try that is lost
 * (browser crash, job gone) is followed by one more, as long as the page has had fewer than PAGE_TRIES;
 * then the page fails with LOST_TWICE. Any other error is the page's answer.
 */
export async function scanCounted<T>(tried: number, start: () => Promise<void>, scan: () => Promise<T>): Promise<T> {
  for (let n = tried; n < PAGE_TRIES; n++) {
    await start();
    try {
      return await scan();
    } catch (e) {
      if (!isLost(e)) throw e;
    }
  }
  throw new DomainError(ErrorCode.ScanFailed, LOST_TWICE);
}

/** The viewport that runs a page's checks beyond axe: desktop when the site scans it, else its only one. */
export const checksViewport = (viewports: readonly ViewportName[]): ViewportName =>
  viewports.includes('desktop') ? 'desktop' : viewports[0];

/**
 * The scan options of each viewport of a site scan: its viewport, the checks beyond axe on one viewport
 * only (checksViewport: each page is walked and reflowed once), the session's cookies on every one. A
 * desktop scan with nothing else has none: it is the public scan exactly.
 */
export function viewOptions(
  viewports: readonly ViewportName[],
  checks: { reflow: boolean; keyboard: boolean },
  cookies: ScanOptions['cookies'],
): Map<ViewportName, ScanOptions | undefined> {
  const checked = checksViewport(viewports);
  return new Map(
    viewports.map((viewport) => {
      const o: ScanOptions = {
        ...(viewport !== 'desktop' ? { viewport } : {}),
        ...(viewport === checked && checks.reflow ? { reflow: true } : {}),
        ...(viewport === checked && checks.keyboard ? { keyboard: true } : {}),
        ...(cookies?.length ? { cookies } : {}),
      };
      return [viewport, Object.keys(o).length ? o : undefined];
    }),
  );
}
