import type { Page } from 'puppeteer-core';
import type { Box } from '../screenshots/box';
import type { CheckFinding, FocusStop, KeyboardWalkResult } from './check.types';
import { inPage, type PageHelpers } from './in-page';

/* eslint-disable @typescript-eslint/no-explicit-any -- the functions below run in the page */

/** Tab presses at most per page. */
export const MAX_TAB_PRESSES = 200;
/** Unreached controls listed per page (the rest are counted). */
const MAX_UNREACHED = 20;

/** Elements whose inner focus moves are not seen from the top document. */
const FRAMES = new Set(['iframe', 'frame', 'object', 'embed']);

/** Where the walk keeps its per-element state in the isolated world (ids and unfocused looks). */
const STATE = '__beaconKeyboardWalk';

/**
 * Runs in the page: moves the focus start to the top of the document and records, with nothing
 * focused, how each candidate (and its parent) looks: outline, shadow, border, background, colour,
 * text decoration. Answers the candidates' count.
 */
function prepareInPage(h: PageHelpers, arg: { state: string }): number {
  const win = globalThis as any;
  const doc = win.document;
  const look = (el: any): string => {
    if (!el || el.nodeType !== 1) return '';
    const s = win.getComputedStyle(el);
    return [
      s.outlineStyle,
      s.outlineWidth,
      s.outlineColor,
      s.outlineOffset,
      s.boxShadow,
      s.borderTopColor,
      s.borderBottomColor,
      s.borderBottomWidth,
      s.backgroundColor,
      s.backgroundImage,
      s.color,
      s.textDecorationLine,
      s.transform,
    ].join('|');
  };
  doc.activeElement?.blur?.();
  const body = doc.body;
  if (body) {
    // Focusing <body> once puts the sequential focus starting point at the top of the document.
    const had = body.hasAttribute('tabindex');
    if (!had) body.setAttribute('tabindex', '-1');
    body.focus({ preventScroll: true });
    if (!had) body.removeAttribute('tabindex');
  }
  win.scrollTo(0, 0);
  const candidates = h.tabbables();
  const looks = new WeakMap<any, string>();
  for (const el of candidates) {
    looks.set(el, look(el));
    if (el.parentElement && !looks.has(el.parentElement)) looks.set(el.parentElement, look(el.parentElement));
  }
  win[arg.state] = { look, looks, ids: new WeakMap<any, number>(), next: 0, candidates };
  return candidates.length;
}

/** Runs in the page after a key press: the focused element (through shadow roots), its id for the walk and whether it looks different focused. */
function focusedInPage(
  h: PageHelpers,
  arg: { state: string },
): { id: number; selector: string; name: string; tag: string; indicator: boolean; box: Box | null } | null {
  const win = globalThis as any;
  const st = win[arg.state];
  let el = win.document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === win.document.body || el === win.document.documentElement) return null;
  let id = st.ids.get(el);
  if (id === undefined) st.ids.set(el, (id = st.next++));
  const changed = (x: any): boolean => !!x && st.looks.has(x) && st.looks.get(x) !== st.look(x);
  // An element the walk did not measure unfocused (not a candidate) is given the benefit of the doubt.
  const indicator = !st.looks.has(el) || changed(el) || changed(el.parentElement);
  const r = el.getBoundingClientRect();
  const box =
    r.width >= 1 && r.height >= 1
      ? {
          x: Math.round(r.left + win.scrollX),
          y: Math.round(r.top + win.scrollY),
          width: Math.round(r.width),
          height: Math.round(r.height),
        }
      : null;
  return { id, selector: h.selectorOf(el), name: h.nameOf(el), tag: String(el.localName), indicator, box };
}

/** Runs in the page: the candidates never reached (their ids were never given). */
function unreachedInPage(h: PageHelpers, arg: { state: string }): { selector: string; name: string }[] {
  const st = (globalThis as any)[arg.state];
  return st.candidates
    .filter((el: any) => !st.ids.has(el) && el.isConnected)
    .map((el: any) => ({ selector: h.selectorOf(el), name: h.nameOf(el) }));
}

export interface WalkOptions {
  /** Epoch ms: the walk stops pressing Tab after it. */
  deadline: number;
  /** Called with each new stop's box while it has focus (the screenshot strip); answers the picture's address. */
  picture?: (box: Box) => Promise<string | undefined>;
}

async function press(page: Page, shift: boolean): Promise<void> {
  if (shift) await page.keyboard.down('Shift');
  try {
    await page.keyboard.press('Tab');
  } finally {
    if (shift) await page.keyboard.up('Shift');
  }
}

/**
 * The keyboard walk: presses Tab (at most MAX_TAB_PRESSES times, or until the focus leaves the
 * document after the last element) and records the focus order, each stop's visible focus
 * indicator (its look, or its parent's, focused against unfocused), keyboard traps (the focus
 * comes back to an element it already visited without leaving the document, and stays within that
 * loop for another round of Tab, while tabbable elements outside it remain; Shift+Tab is then tried
 * too) and the tabbable elements never reached. Findings are for review: see docs/a11y-monitoring.md.
 */
export async function keyboardWalk(page: Page, opts: WalkOptions): Promise<KeyboardWalkResult> {
  const state = { state: STATE };
  const tabbable = await inPage(page, prepareInPage, state);
  const stops: FocusStop[] = [];
  const byId = new Map<number, FocusStop>();
  const order: number[] = [];
  const findings: CheckFinding[] = [];
  let presses = 0;
  let ended: KeyboardWalkResult['ended'] = 'limit';
  let empty = 0;
  const step = async (shift = false) => {
    await press(page, shift);
    presses++;
    return inPage(page, focusedInPage, state);
  };
  type Focused = NonNullable<Awaited<ReturnType<typeof step>>>;
  /** Records a newly reached element as a stop (with its strip picture); false when it was reached before. */
  const record = async (f: Focused): Promise<boolean> => {
    if (byId.has(f.id)) return false;
    // The focus inside a frame is not seen from here: a frame is not judged for its indicator.
    const stop: FocusStop = {
      selector: f.selector,
      name: f.name,
      tag: f.tag,
      indicator: f.indicator || FRAMES.has(f.tag),
    };
    if (f.box && opts.picture) stop.screenshot = await opts.picture(f.box);
    byId.set(f.id, stop);
    stops.push(stop);
    order.push(f.id);
    return true;
  };
  walk: while (presses < MAX_TAB_PRESSES && Date.now() < opts.deadline) {
    const f = await step();
    if (!f) {
      if (stops.length > 0 || ++empty >= 2) {
        ended = 'cycled'; // past the last element (or nothing on the page takes focus)
        break;
      }
      continue; // the first press can land on the browser's own UI
    }
    // Tab inside a frame moves the focus within it: the top document sees the same <iframe> again.
    if (FRAMES.has(f.tag) && order[order.length - 1] === f.id) continue;
    if (await record(f)) continue;
    // Back at a visited element without leaving the document: a loop. A trap if it holds for another round.
    const loop = new Set(order.slice(order.lastIndexOf(f.id)));
    order.push(f.id);
    let forwardStuck = true;
    for (let i = 0; i < loop.size + 1 && presses < MAX_TAB_PRESSES; i++) {
      const g = await step();
      if (!g) {
        ended = 'cycled'; // the document's end after all: no trap
        break walk;
      }
      if (!loop.has(g.id)) {
        forwardStuck = false;
        if (!(await record(g))) order.push(g.id);
        break;
      }
    }
    if (!forwardStuck) continue; // the focus went on: not a trap (e.g. a widget that cycles its own items once)
    const others = (await inPage(page, unreachedInPage, state)).length;
    if (others === 0) {
      ended = 'cycled'; // the page's whole tab order, without the document's end in between
      break;
    }
    let backwardStuck = true;
    for (let i = 0; i < loop.size + 1 && presses < MAX_TAB_PRESSES; i++) {
      const g = await step(true);
      if (!g || !loop.has(g.id)) {
        backwardStuck = false;
        break;
      }
    }
    const members = [...loop].map((id) => byId.get(id)!);
    findings.push({
      kind: 'keyboard-trap',
      selector: members[0].selector,
      name: members[0].name,
      message: `Keyboard trap: Tab keeps the focus among ${members.length} element${members.length === 1 ? '' : 's'} (${members
        .map((m) => m.selector)
        .join(
          ', ',
        )}) while ${others} other${others === 1 ? '' : 's'} cannot be reached; Shift+Tab ${backwardStuck ? 'does not leave either' : 'does leave'}.`,
    });
    ended = 'trapped';
    break;
  }
  for (const s of stops)
    if (!s.indicator)
      findings.push({
        kind: 'no-focus-indicator',
        selector: s.selector,
        name: s.name,
        message: 'Takes keyboard focus with no visible change (outline, shadow, border, background, colour).',
      });
  const unreached = await inPage(page, unreachedInPage, state);
  unreached.slice(0, MAX_UNREACHED).forEach((u, i, list) =>
    findings.push({
      kind: 'unreached',
      selector: u.selector,
      name: u.name,
      message: `In the tab order and visible, but Tab never reached it${ended === 'trapped' ? ' (the walk was trapped first)' : ended === 'limit' ? ` (the walk stopped after ${presses} presses)` : ''}.${
        i === list.length - 1 && unreached.length > MAX_UNREACHED
          ? ` ${unreached.length - MAX_UNREACHED} more not listed.`
          : ''
      }`,
    }),
  );
  return { presses, stops, tabbable, ended, findings };
}
