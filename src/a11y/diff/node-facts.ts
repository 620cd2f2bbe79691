import type { Page } from 'puppeteer-core';
import type { ReportPage } from '../report/report.types';
import { isolatedRealm } from '../security/isolated-world';
import { fingerprintOf, NodeFacts, textHashOf } from './fingerprint';

/* eslint-disable @typescript-eslint/no-explicit-any -- the function below runs in the page */

/** Characters of an element's own text that are hashed. */
const OWN_TEXT_MAX = 2000;

/**
 * Runs in the page's isolated world (the page's scripts cannot replace the DOM APIs it calls): for each selector path (one entry: the top document; ` >>> ` steps into shadow
 * roots), the element's class-free ancestor path, tag, accessible name and own text. Elements in
 * frames (paths of more than one entry) are not resolved (null).
 */
function collect(
  targets: string[][],
  ownTextMax: number,
): ({ path: string; tag: string; name: string; ownText: string } | null)[] {
  const doc = (globalThis as any).document;
  const squash = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();
  const stableId = (id: string): boolean => /^[A-Za-z][A-Za-z_-]*$/.test(id) && id.length <= 40;
  const resolve = (t: string[]): any => {
    if (t.length !== 1) return null;
    let root: any = doc;
    let el: any = null;
    for (const step of t[0].split(' >>> ')) {
      el = root?.querySelector(step) ?? null;
      if (!el) return null;
      root = el.shadowRoot;
    }
    return el;
  };
  const textOf = (ids: string): string =>
    ids
      .split(/\s+/)
      .map((id) => squash(doc.getElementById(id)?.textContent))
      .filter(Boolean)
      .join(' ');
  const nameOf = (el: any): string => {
    const by = el.getAttribute('aria-labelledby');
    if (by && textOf(by)) return textOf(by);
    const label = squash(el.getAttribute('aria-label'));
    if (label) return label;
    if (el.labels && el.labels.length)
      return squash(Array.from(el.labels as ArrayLike<any>, (l: any) => l.textContent).join(' '));
    for (const attr of ['alt', 'title', 'placeholder']) {
      const v = squash(el.getAttribute(attr));
      if (v) return v;
    }
    if (['INPUT'].includes(el.tagName) && ['button', 'submit', 'reset'].includes(el.type)) return squash(el.value);
    return el === doc.documentElement || el === doc.body ? '' : squash(el.textContent);
  };
  const pathOf = (start: any): string => {
    const parts: string[] = [];
    let el = start;
    while (el && el.nodeType === 1) {
      let part = String(el.localName);
      if (el.id && stableId(el.id)) part += `#${el.id}`;
      const role = el.getAttribute('role');
      if (role) part += `[role=${role}]`;
      parts.unshift(part);
      const parent = el.parentNode;
      if (parent && parent.nodeType === 11 && parent.host) {
        parts.unshift('>>>');
        el = parent.host;
      } else el = el.parentElement;
    }
    return parts.join('>');
  };
  return targets.map((t) => {
    const el = resolve(t);
    if (!el) return null;
    const own = Array.from(el.childNodes as ArrayLike<any>)
      .filter((n: any) => n.nodeType === 3)
      .map((n: any) => n.data)
      .join(' ');
    return {
      path: pathOf(el),
      tag: String(el.localName),
      name: nameOf(el).slice(0, 120),
      ownText: squash(own).slice(0, ownTextMax),
    };
  });
}

/**
 * Adds `facts` and `fingerprint` to every violation node of a graded page (one round trip, in the
 * isolated world where axe ran: a hostile page cannot fake them). Runs after axe: it reads the DOM only. A node the page cannot resolve gets the fallback fingerprint.
 */
export async function addNodeFacts(page: Page, entry: ReportPage): Promise<void> {
  const nodes = entry.violations.flatMap((v) => v.nodes.map((n) => ({ rule: v.id, node: n })));
  if (nodes.length === 0) return;
  let found: Awaited<ReturnType<typeof collect>> = [];
  try {
    found = await isolatedRealm(page.mainFrame()).evaluate(
      collect,
      nodes.map((n) => n.node.target),
      OWN_TEXT_MAX,
    );
  } catch {
    found = []; // the page went away or forbids it: fallback fingerprints
  }
  nodes.forEach(({ rule, node }, i) => {
    const f = found[i];
    if (f) node.facts = { path: f.path, tag: f.tag, name: f.name, textHash: textHashOf(f.ownText) } satisfies NodeFacts;
    node.fingerprint = fingerprintOf(rule, node);
  });
}
