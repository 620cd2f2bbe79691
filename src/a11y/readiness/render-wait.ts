import type { Page } from 'puppeteer-core';
import type { ReportPage } from '../report/report.types';

/* eslint-disable @typescript-eslint/no-explicit-any -- the functions below run in the page */

/** Longest wait, after the network settled, for a client-rendered page to render. */
export const RENDER_WAIT_MAX_MS = 5000;
/** The DOM counts as stable after this long without a mutation (mutations during parsing do not count). */
export const DOM_QUIET_MS = 150;
/**
 * Below this much visible text (whitespace collapsed), and with no visible image, video, canvas,
 * svg or frame, the body is "nearly empty" (an app shell). One character is enough to count as
 * content: short static pages ("Page 1") are real pages.
 */
export const NEARLY_EMPTY_TEXT = 1;
/** A loading indicator only holds the scan back while the page has less text than this. */
export const LOADING_TEXT_LIMIT = 200;

/** Key of the page-side watcher (unguessable enough that page scripts do not collide with it). */
const WATCH_KEY = '__beaconRenderWatch_7f3a';

/**
 * Installed before any page script: records whether the DOM changed after DOMContentLoaded, and
 * when it last did (parser insertions are not "changes"; script-made ones are).
 */
export const RENDER_WATCH_SCRIPT = `(() => {
  const w = { last: 0, parsed: false, changed: false };
  try { Object.defineProperty(globalThis, '${WATCH_KEY}', { value: w, enumerable: false }); } catch (e) { return; }
  const start = () => {
    w.parsed = true;
    w.last = performance.now();
    try { new MutationObserver(() => { w.last = performance.now(); w.changed = true; }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true }); } catch (e) {}
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true }); else start();
})();`;

/** How the page's rendering was judged (stored as `pages[].render`). */
export interface RenderCheck {
  /** complete: content present (the DOM may still have been changing at the bound: see domStable). incomplete: empty or loading at the bound. */
  state: 'complete' | 'incomplete';
  /** Time spent waiting for rendering after the network settled. */
  waitMs: number;
  domStable: boolean;
  fontsLoaded: boolean;
  /** Why the page counts as incomplete. */
  reason?: 'nearly empty body' | 'loading indicator';
}

interface Probe {
  quiet: boolean;
  fonts: boolean;
  empty: boolean;
  loading: boolean;
  elapsed: number;
  /** Rendered at the first check. */
  first?: boolean;
}

/** Runs in the page: polls until content is there, the DOM is quiet and fonts are loaded, or the bound. */
function probe(key: string, boundMs: number, quietMs: number, emptyText: number, loadingText: number): Promise<Probe> {
  const g = globalThis as any;
  const doc = g.document;
  const t0 = g.performance.now();
  const visible = (el: any): boolean => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const s = g.getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
  };
  const check = (): Probe => {
    const w = g[key] as { last: number; parsed: boolean; changed: boolean } | undefined;
    const now = g.performance.now();
    // No change since parsing ended: quiet at once (a static page does not wait).
    const quiet = !w || (w.parsed && (!w.changed || now - w.last >= quietMs));
    const fonts = !doc.fonts || doc.fonts.status === 'loaded';
    const body = doc.body;
    const text = body ? String(body.innerText ?? '').replace(/\s+/g, ' ').trim() : '';
    const media = body ? Array.from(body.querySelectorAll('img,svg,canvas,video,iframe,object,embed') as ArrayLike<any>).some(visible) : false;
    const empty = text.length < emptyText && !media;
    let loading = false;
    if (body && text.length < loadingText) {
      loading =
        /^(loading|please wait|one moment)\b[\s.…]*$/i.test(text) ||
        Array.from(
          body.querySelectorAll('[aria-busy="true"],[role="progressbar"],[class*="loading" i],[class*="spinner" i],[class*="skeleton" i],[id*="loading" i],[id*="spinner" i]') as ArrayLike<any>,
        ).some(visible);
    }
    return { quiet, fonts, empty, loading, elapsed: now - t0 };
  };
  return new Promise((resolve) => {
    const tick = (): void => {
      const p = check();
      if ((p.quiet && p.fonts && !p.empty && !p.loading) || p.elapsed >= boundMs) resolve({ ...p, first });
      else {
        first = false;
        g.setTimeout(tick, 50);
      }
    };
    let first = true;
    tick();
  });
}

/**
 * Waits (at most `boundMs`) for the page to render: visible content, no loading indicator, no DOM
 * mutation for DOM_QUIET_MS, fonts loaded. A static page already rendered returns at once.
 */
export async function waitForRender(page: Page, boundMs: number): Promise<RenderCheck> {
  const t0 = Date.now();
  const bound = Math.max(0, Math.min(RENDER_WAIT_MAX_MS, boundMs));
  const p = await page.evaluate(probe, WATCH_KEY, bound, DOM_QUIET_MS, NEARLY_EMPTY_TEXT, LOADING_TEXT_LIMIT);
  const check: RenderCheck = {
    state: p.empty || p.loading ? 'incomplete' : 'complete',
    // 0 when rendered at the first look (the probe may have queued behind axe being compiled in the
    // isolated world meanwhile: that is not a render wait); else the time since the network settled.
    waitMs: p.first ? 0 : Date.now() - t0,
    domStable: p.quiet,
    fontsLoaded: p.fonts,
  };
  if (p.empty) check.reason = 'nearly empty body';
  else if (p.loading) check.reason = 'loading indicator';
  return check;
}

/** The pseudo-rule that explains the score of a page that did not render. */
export const RENDER_INCOMPLETE_RULE = 'render-incomplete';

/**
 * Records the check on the page entry. A page that did not render is not graded as clean: its score
 * is 0 and its breakdown names the render as what costs the 100 points (axe's findings on what did
 * render are kept).
 */
export function applyRender(entry: ReportPage, check: RenderCheck): void {
  entry.render = check;
  if (check.state === 'complete') return;
  entry.score = 0;
  entry.scoreBreakdown = [{ id: RENDER_INCOMPLETE_RULE, impact: 'critical', weight: 1, points: 100 }];
}
