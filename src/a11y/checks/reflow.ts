import type { Page } from 'puppeteer-core';
import { settledWithin } from '../../common/async/settled-within';
import type { CheckFinding, ReflowResult } from './check.types';
import { isolatedRealm } from '../security/isolated-world';
import { inPage, type PageHelpers } from './in-page';

/* eslint-disable @typescript-eslint/no-explicit-any -- the function below runs in the page */

/** WCAG 1.4.10 Reflow: content must work at a width of 320 CSS px without scrolling in two directions. */
export const REFLOW_WIDTH = 320;
const REFLOW_HEIGHT = 640;
/** Longest wait for the page to lay itself out at the new width. */
const LAYOUT_WAIT_MS = 500;
/** Findings listed per page (the rest are counted in the message of the last). */
export const MAX_REFLOW_FINDINGS = 30;
/** Elements looked at for the cause of sideways scrolling (document order). */
const MAX_ELEMENTS = 5000;
/** Controls compared pairwise for overlaps. */
const MAX_CONTROLS = 300;

/**
 * Runs in the page (isolated world) at REFLOW_WIDTH: the document's sideways overflow and the
 * elements that cause it (outermost only; elements inside their own scroll or clip container, such
 * as a wide table or code block in an `overflow-x: auto` box, are allowed to scroll), then every
 * control in the tab order: cut by a container that hides its overflow, pushed past the right edge,
 * or lying over another control.
 */
function reflowInPage(
  h: PageHelpers,
  arg: { max: number; maxControls: number; maxElements: number },
): Omit<ReflowResult, 'width'> {
  const win = globalThis as any;
  const doc = win.document;
  const root = doc.documentElement;
  win.scrollTo(0, 0);
  const vw = root.clientWidth;
  const scrollWidth = Math.max(root.scrollWidth, doc.body?.scrollWidth ?? 0);
  const horizontalScroll = scrollWidth > vw + 1;
  const findings: CheckFinding[] = [];
  const seen = new Set<string>();
  const add = (f: CheckFinding): void => {
    if (seen.has(`${f.kind} ${f.selector}`)) return;
    seen.add(`${f.kind} ${f.selector}`);
    findings.push(f);
  };
  const overflowX = (el: any): string => win.getComputedStyle(el).overflowX;
  /** The nearest ancestor below <body> that scrolls or clips sideways. */
  const container = (el: any): any => {
    for (let p = el.parentElement; p && p !== doc.body && p !== root; p = p.parentElement)
      if (overflowX(p) !== 'visible') return p;
    return null;
  };
  const px = (n: number): number => Math.round(n);
  if (horizontalScroll) {
    let culprits = 0;
    const all = Array.from((doc.body?.querySelectorAll('*') ?? []) as ArrayLike<any>).slice(0, arg.maxElements);
    for (const el of all) {
      if (!h.visible(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.right <= vw + 1) continue;
      if (container(el)) continue; // scrolls inside its own box (a wide table, a map, code)
      const parent = el.parentElement;
      if (parent && parent !== doc.body && parent.getBoundingClientRect().right > vw + 1) continue; // not the outermost
      culprits++;
      add({
        kind: 'horizontal-scroll',
        selector: h.selectorOf(el),
        name: h.nameOf(el),
        message: `Wider than the ${vw} px viewport (its right edge is at ${px(r.right)} px): the page scrolls sideways.`,
      });
    }
    if (culprits === 0)
      add({
        kind: 'horizontal-scroll',
        selector: 'html',
        message: `The page is ${scrollWidth} px wide at a ${vw} px viewport: it scrolls sideways.`,
      });
  }
  const hidesOverflow = (v: string): boolean => v === 'hidden' || v === 'clip';
  const pageClips = hidesOverflow(overflowX(root)) || (doc.body && hidesOverflow(overflowX(doc.body)));
  const controls = h.tabbables().slice(0, arg.maxControls);
  const boxes = controls.map((el: any) => el.getBoundingClientRect());
  controls.forEach((el: any, i: number) => {
    const r = boxes[i];
    const selector = h.selectorOf(el);
    const name = h.nameOf(el);
    for (let p = el.parentElement; p && p !== doc.body && p !== root; p = p.parentElement) {
      const s = win.getComputedStyle(p);
      if (!hidesOverflow(s.overflowX) && !hidesOverflow(s.overflowY)) continue;
      const c = p.getBoundingClientRect();
      if (r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 || r.bottom > c.bottom + 1) {
        add({
          kind: 'clipped',
          selector,
          name,
          message: `Cut off by ${h.selectorOf(p)}, which hides its overflow: part of the control cannot be seen at ${vw} px.`,
        });
        return;
      }
    }
    if (r.right > vw + 1 && r.left >= 0) {
      if (pageClips)
        add({
          kind: 'clipped',
          selector,
          name,
          message: `Past the right edge of the ${vw} px viewport, where the page hides its overflow: it cannot be reached.`,
        });
      else if (!container(el))
        add({
          kind: 'off-screen',
          selector,
          name,
          message: `${r.left >= vw ? 'Entirely' : 'Partly'} past the right edge of the ${vw} px viewport: only reachable by scrolling sideways.`,
        });
    }
  });
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const hgt = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w <= 1 || hgt <= 1) continue;
      if (controls[i].contains(controls[j]) || controls[j].contains(controls[i])) continue;
      const smaller = Math.min(a.width * a.height, b.width * b.height);
      if (smaller > 0 && (w * hgt) / smaller >= 0.25)
        add({
          kind: 'overlap',
          selector: h.selectorOf(controls[j]),
          name: h.nameOf(controls[j]),
          message: `Overlaps ${h.selectorOf(controls[i])} ("${h.nameOf(controls[i])}") at ${vw} px: one of them is covered.`,
        });
    }
  }
  const listed = findings.slice(0, arg.max);
  if (findings.length > arg.max)
    listed[arg.max - 1] = {
      ...listed[arg.max - 1],
      message: `${listed[arg.max - 1].message} (${findings.length - arg.max} more findings not listed)`,
    };
  return { scrollWidth, clientWidth: vw, horizontalScroll, findings: listed };
}

/**
 * The 320 px reflow check (WCAG 1.4.10; axe does not test it): the page is laid out again at
 * REFLOW_WIDTH CSS px (desktop emulation, as a 1280 px window zoomed to 400 %), then measured. Leaves
 * the page at that width: run it last.
 */
export async function reflowCheck(page: Page): Promise<ReflowResult> {
  await page.setViewport({ width: REFLOW_WIDTH, height: REFLOW_HEIGHT });
  // Two frames for media queries and layout to follow the new width (bounded: a page that starves rAF still gets measured).
  await settledWithin(
    isolatedRealm(page.mainFrame())
      .evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
      .catch(() => undefined),
    LAYOUT_WAIT_MS,
  );
  const r = await inPage(page, reflowInPage, {
    max: MAX_REFLOW_FINDINGS,
    maxControls: MAX_CONTROLS,
    maxElements: MAX_ELEMENTS,
  });
  return { width: REFLOW_WIDTH, ...r };
}
