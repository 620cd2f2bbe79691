import type { Page } from 'puppeteer-core';
import type { RenderCheck, ReportPage } from '../report/report.types';

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

/** What the page's body shows now, as the render wait judges it. */
interface Look {
  /** No visible text and no visible image, svg, canvas, video or frame. */
  empty: boolean;
  /** A loading screen: a loading text or a visible busy marker, on a page with little text. */
  loading: boolean;
}

/**
 * Runs in the page (serialised into RENDER_WATCH_SCRIPT, so it must stay self-contained): judges
 * the body. A loading text is a line of the body's text that is a loading phrase ("Loading…",
 * "Please wait", "Chargement…", "Loading 40%", also "Loadingâ€¦", the ellipsis of a page served
 * without a charset) or starts with one and ends with an ellipsis ("Loading your dashboard…"); a
 * busy marker is a visible element with aria-busy="true", role="progressbar", an indeterminate
 * <progress>, an aria-label or image alt starting with "Loading", an image whose address names a
 * spinner/loader, or a class or id naming a loader, loading state, spinner (`spinner`, `fa-spin`,
 * `animate-spin`), skeleton or shimmer (`skeleton`, `shimmer`, `animate-pulse`).
 */
function look(emptyText: number, loadingText: number): Look {
  const g = globalThis as any;
  const body = g.document.body;
  if (!body) return { empty: true, loading: false };
  const visible = (el: any): boolean => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const s = g.getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
  };
  const raw = String(body.innerText ?? '');
  const text = raw.replace(/\s+/g, ' ').trim();
  const media =
    text.length >= emptyText
      ? false
      : Array.from(body.querySelectorAll('img,svg,canvas,video,iframe,object,embed') as ArrayLike<any>).some(visible);
  const empty = text.length < emptyText && !media;
  if (empty || text.length >= loadingText) return { empty, loading: false };
  const phrase =
    'loading|please wait|one moment|just a moment|chargement|cargando|carregando|caricamento|wird geladen|lädt|laddar|загрузка|読み込み中|加载中|載入中';
  const end = '(?:[^\\p{L}\\p{N}]|â€¦)*';
  const line = new RegExp(
    `^[^\\p{L}\\p{N}]*(?:${phrase})(?!(?!â€¦)[\\p{L}\\p{N}])(?:${end}|\\s*\\d{1,3}\\s?%${end}|.{0,80}?(?:\\.\\.|…|â€¦)${end})$`,
    'iu',
  );
  const lines = raw.split(/\n/).map((l) => l.replace(/\s+/g, ' ').trim());
  if (lines.some((l) => line.test(l) || (l.length < 100 && /please wait/i.test(l)))) return { empty, loading: true };
  const named = /load(?:er|ing)|spinner|(?:^|[-_])spin(?:[-_]|$)|skeleton|shimmer|^animate-pulse$/i;
  const notLoader = /upload|download|lazy|reload|payload|overload|offload|unload/i;
  const marker = (v: unknown): boolean =>
    typeof v === 'string' && v.split(/\s+/).some((t) => named.test(t) && !notLoader.test(t));
  const busy =
    '[aria-busy="true" i],[role="progressbar" i],progress:not([value]),[aria-label^="loading" i],img[alt^="loading" i],img[src*="spinner" i],img[src*="loader" i],img[src*="loading" i]';
  const candidates = body.querySelectorAll(
    `${busy},[class*="load" i],[class*="spin" i],[class*="skeleton" i],[class*="shimmer" i],[class*="pulse" i],[id*="load" i],[id*="spin" i],[id*="skeleton" i]`,
  ) as ArrayLike<any>;
  const loading = Array.from(candidates).some(
    (el: any) => (el.matches(busy) || marker(el.getAttribute('class')) || marker(el.getAttribute('id'))) && visible(el),
  );
  return { empty, loading };
}

/**
 * Runs in the page (serialised into RENDER_WATCH_SCRIPT): whether the body's text, visible or
 * not, has at least `limit` non-blank characters. Stops at `limit` and needs no layout, so a big
 * page pays a few text nodes for it (the body's `innerText` lays the whole page out).
 */
function hasText(limit: number): boolean {
  const g = globalThis as any;
  const body = g.document.body;
  if (!body) return false;
  const walker = g.document.createTreeWalker(body, 4 /* NodeFilter.SHOW_TEXT */);
  let n = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (/^(script|style|noscript|template)$/i.test(String(node.parentNode?.nodeName ?? ''))) continue;
    n += String(node.data).replace(/\s+/g, '').length;
    if (n >= limit) return true;
  }
  return false;
}

/**
 * Installed before any page script: records whether the DOM changed after DOMContentLoaded, and
 * when it last did (parser insertions are not "changes"; script-made ones are), and, in the top
 * document, whether the page was an app shell (empty or loading) at its load event.
 */
export const RENDER_WATCH_SCRIPT = `(() => {
  const w = { last: 0, parsed: false, changed: false, shell: false };
  try { Object.defineProperty(w, 'look', { value: ${look.toString()} }); } catch (e) { return; }
  try { Object.defineProperty(globalThis, '${WATCH_KEY}', { value: w, enumerable: false }); } catch (e) { return; }
  const start = () => {
    w.parsed = true;
    w.last = performance.now();
    try { new MutationObserver(() => { w.last = performance.now(); w.changed = true; }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true }); } catch (e) {}
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true }); else start();
  let top = false;
  try { top = globalThis.top === globalThis; } catch (e) {}
  // A page with LOADING_TEXT_LIMIT characters of text is no shell: only a page with less is looked at.
  const hasText = ${hasText.toString()};
  if (top) addEventListener('load', () => { try { if (!hasText(${LOADING_TEXT_LIMIT})) { const l = w.look(${NEARLY_EMPTY_TEXT}, ${LOADING_TEXT_LIMIT}); w.shell = l.empty || l.loading; } } catch (e) {} }, { once: true });
})();`;

interface Probe extends Look {
  quiet: boolean;
  fonts: boolean;
  elapsed: number;
  /** Rendered at the first check. */
  first?: boolean;
  /** An app shell at its load event. */
  shell?: boolean;
}

/** Runs in the page: polls until content is there, the DOM is quiet and fonts are loaded, or the bound. */
function probe(key: string, boundMs: number, quietMs: number, emptyText: number, loadingText: number): Promise<Probe> {
  const g = globalThis as any;
  const doc = g.document;
  const t0 = g.performance.now();
  const w = g[key] as
    | { last: number; parsed: boolean; changed: boolean; shell: boolean; look: (e: number, l: number) => Look }
    | undefined;
  const check = (): Probe => {
    const now = g.performance.now();
    // No change since parsing ended: quiet at once (a static page does not wait).
    const quiet = !w || (w.parsed && (!w.changed || now - w.last >= quietMs));
    const fonts = !doc.fonts || doc.fonts.status === 'loaded';
    // Without the watcher (not installed in this document) the page is taken as it is.
    const seen = w ? w.look(emptyText, loadingText) : { empty: false, loading: false };
    return { quiet, fonts, ...seen, elapsed: now - t0, shell: w?.shell === true };
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
 * `loadedAt` (epoch ms) is when the page's load event was seen: the wait of a page that was an
 * app shell then is counted from there.
 */
export async function waitForRender(page: Page, boundMs: number, loadedAt?: number): Promise<RenderCheck> {
  const t0 = Date.now();
  const bound = Math.max(0, Math.min(RENDER_WAIT_MAX_MS, boundMs));
  const p = await page.evaluate(probe, WATCH_KEY, bound, DOM_QUIET_MS, NEARLY_EMPTY_TEXT, LOADING_TEXT_LIMIT);
  const since = p.shell && loadedAt !== undefined ? Math.min(loadedAt, t0) : t0;
  const check: RenderCheck = {
    state: p.empty || p.loading ? 'incomplete' : 'complete',
    // 0 when rendered at the first look and not a shell at load (the probe may have queued behind
    // axe being compiled in the isolated world meanwhile: that is not a render wait).
    waitMs: p.first && !p.shell ? 0 : Date.now() - since,
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
