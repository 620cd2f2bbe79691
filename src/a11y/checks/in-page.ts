import type { Page } from 'puppeteer-core';
import { isolatedRealm } from '../security/isolated-world';

/* eslint-disable @typescript-eslint/no-explicit-any -- the helpers below run in the page, where the DOM lives */

/** What the checks' in-page functions share: a selector, an accessible name, visibility and the tab order's candidates. */
export interface PageHelpers {
  /** A CSS selector of the element: its id when unique, else a `tag:nth-of-type()` path from the nearest unique id. */
  selectorOf(el: any): string;
  /** The element's accessible name as far as a simple reading goes (aria-labelledby, aria-label, labels, alt/title, text), at most 80 characters. */
  nameOf(el: any): string;
  /** Rendered, with a box, and not `visibility: hidden`. */
  visible(el: any): boolean;
  /** Visible, enabled elements with a tab index of 0 or more, in document order (top document, not inside frames). */
  tabbables(): any[];
}

/** Builds the helpers; self-contained (it is sent to the page as text). */
export function pageHelpers(): PageHelpers {
  const doc = (globalThis as any).document;
  const win = globalThis as any;
  const squash = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();
  const esc = (s: string): string => (win.CSS?.escape ? win.CSS.escape(s) : s.replace(/[^A-Za-z0-9_-]/g, '\\$&'));
  const uniqueId = (el: any): string | null => {
    if (!el.id) return null;
    const sel = `#${esc(el.id)}`;
    try {
      return doc.querySelectorAll(sel).length === 1 ? sel : null;
    } catch {
      return null;
    }
  };
  const selectorOf = (el: any): string => {
    const parts: string[] = [];
    let cur = el;
    while (cur && cur.nodeType === 1) {
      const id = uniqueId(cur);
      if (id) {
        parts.unshift(id);
        break;
      }
      const tag = String(cur.localName);
      const parent = cur.parentElement;
      if (!parent || cur === doc.body) {
        parts.unshift(tag);
        break;
      }
      const same = Array.from(parent.children as ArrayLike<any>).filter((c: any) => c.localName === cur.localName);
      parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(cur) + 1})` : tag);
      cur = parent;
    }
    return parts.join(' > ');
  };
  const nameOf = (el: any): string => {
    const by = el.getAttribute?.('aria-labelledby');
    let name = '';
    if (by)
      name = squash(
        String(by)
          .split(/\s+/)
          .map((id: string) => doc.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
    if (!name) name = squash(el.getAttribute?.('aria-label'));
    if (!name && el.labels && el.labels.length)
      name = squash(Array.from(el.labels as ArrayLike<any>, (l: any) => l.textContent).join(' '));
    if (!name && el.localName === 'input' && ['button', 'submit', 'reset'].includes(el.type)) name = squash(el.value);
    if (!name) for (const a of ['alt', 'title', 'placeholder']) if (!name) name = squash(el.getAttribute?.(a));
    if (!name) name = squash(el.innerText ?? el.textContent);
    return name.slice(0, 80);
  };
  const visible = (el: any): boolean => {
    if (!el.getClientRects || el.getClientRects().length === 0) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    return win.getComputedStyle(el).visibility !== 'hidden';
  };
  const CANDIDATES =
    'a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable]:not([contenteditable="false"]), audio[controls], video[controls]';
  const tabbables = (): any[] =>
    Array.from(doc.querySelectorAll(CANDIDATES) as ArrayLike<any>).filter(
      (el: any) =>
        el.tabIndex >= 0 &&
        !el.disabled &&
        !(el.localName === 'input' && el.type === 'hidden') &&
        !el.closest('[inert]') &&
        visible(el),
    );
  return { selectorOf, nameOf, visible, tabbables };
}

/**
 * Runs `fn(helpers, arg)` in the page's isolated world (the page's scripts cannot fake the DOM APIs
 * it reads there). `fn` must be self-contained: it is sent as text, with the helpers and `arg` (JSON).
 */
export async function inPage<A, R>(page: Page, fn: (h: PageHelpers, arg: A) => R, arg: A): Promise<R> {
  return (await isolatedRealm(page.mainFrame()).evaluate(
    `(${fn.toString()})((${pageHelpers.toString()})(), ${JSON.stringify(arg)})`,
  )) as R;
}
