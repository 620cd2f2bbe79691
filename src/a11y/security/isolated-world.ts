import type { Frame, Realm } from 'puppeteer-core';

/**
 * The frame's isolated world (the DevTools "utility world"): same DOM as the page, separate
 * JavaScript globals and prototypes, so nothing the page's scripts do to `Element.prototype`,
 * `document.querySelector`, getters such as `textContent` or globals is seen there. Everything the
 * scan reads from a page (axe, title and markup, links, element facts and boxes) runs in it.
 * Puppeteer keeps one per frame for its own helpers and exposes it only internally
 * (`Frame.isolatedRealm()`); a puppeteer-core without it fails loudly rather than falling back to
 * the page's world.
 */
export function isolatedRealm(frame: Frame): Realm {
  const f = frame as unknown as { isolatedRealm?: () => Realm };
  if (typeof f.isolatedRealm !== 'function') throw new Error('puppeteer-core no longer exposes Frame.isolatedRealm()');
  return f.isolatedRealm();
}
