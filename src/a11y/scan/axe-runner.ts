import type { PartialResult, RunOptions } from 'axe-core';
import { readFileSync } from 'node:fs';
import type { Frame, Page, Realm } from 'puppeteer-core';
import { settledWithin } from '../../common/async/settled-within';
import { isolatedRealm } from '../security/isolated-world';
import { AxeOutput, MAX_NODE_HTML, MAX_NODES_PER_RULE, TRIM_SOURCE, validateAxeOutput } from '../report/axe-output';
import type { WindowOpener } from './windows';

/** WCAG 2.0, 2.1 and 2.2 levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
export const AXE_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: AXE_TAGS },
  // Elements are listed for violations and incomplete only (as Lighthouse does): faster on big pages.
  resultTypes: ['violations', 'incomplete'],
};

/** Frames of one document graded (more are left out, as axe leaves out what it cannot reach). */
export const MAX_FRAMES = 50;
/** Longest wait for a frame's document to answer before axe is injected into it. */
export const FRAME_READY_MS = 2000;

export const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** axe-core and the trimming helper, defined in one evaluation. */
const AXE_AND_TRIM_SOURCE = `${AXE_SOURCE}\n;${TRIM_SOURCE}`;

/* eslint-disable @typescript-eslint/no-explicit-any -- code below runs in the page, where `axe` and the DOM live */

/** axe and the trimming helper in the frame's isolated world (the page's scripts cannot reach it). */
export async function injectAxe(frame: Frame): Promise<Realm> {
  const realm = isolatedRealm(frame);
  const ready = await settledWithin(
    realm.evaluate(() => (globalThis as any).document.readyState as string),
    FRAME_READY_MS,
  );
  if (!ready) throw new Error('frame not ready');
  await realm.evaluate(AXE_AND_TRIM_SOURCE);
  return realm;
}

/**
 * axe in every frame (cross-origin too), in an isolated world of each frame (the DevTools
 * "utility world"): the page's scripts share the DOM with axe but not its JavaScript, so they
 * can neither see nor rewrite `axe`, its rules or its results. A page without frames runs
 * `axe.run` (the same result as runPartial + finishRun, one round trip less); a page with frames
 * runs `axe.runPartial` in each frame and merges them with `axe.finishRun` in a blank page, as
 * @axe-core/puppeteer does. Results are trimmed in the world and checked again here. The blank page
 * is a window of its own from `windows` (the scan's opener): a tab would be put in front of the
 * context's last window and hide that window's page (a crawl's other page) while it is open.
 */
export async function runAxe(page: Page, windows: WindowOpener): Promise<AxeOutput> {
  const top = page.mainFrame();
  const context = { exclude: [] };
  // One round trip on a page without frames: axe (injected while the page settled) runs at once.
  const run = (realm: Realm) =>
    realm.evaluate(
      (c: unknown, o: unknown, max: number, html: number) => {
        const g = globalThis as any;
        if (!g.axe || !g.__beaconTrim) return { missing: true };
        if (g.axe.utils.getFrameContexts(c).length > 0) return { frames: true };
        return g.axe.run(c, o).then((r: unknown) => ({ out: g.__beaconTrim(r, max, html) }));
      },
      context as never,
      AXE_OPTIONS as never,
      MAX_NODES_PER_RULE,
      MAX_NODE_HTML,
    ) as Promise<{ missing?: boolean; frames?: boolean; out?: unknown }>;
  let realm = isolatedRealm(top);
  let first = await run(realm);
  if (first.missing) {
    realm = await injectAxe(top); // the page replaced its document after the first injection
    first = await run(realm);
  }
  if (first.missing) throw new Error('axe could not be injected');
  if (!first.frames) return validateAxeOutput(first.out);
  const partials = await partialsOf(top, context, true, realm);
  // finishRun in a blank page of the same context: the merge does not depend on the page's scripts.
  const blank = await windows.open(page.browserContext());
  try {
    const blankRealm = isolatedRealm(blank.mainFrame());
    await blankRealm.evaluate(AXE_AND_TRIM_SOURCE);
    return validateAxeOutput(
      await blankRealm.evaluate(
        (p: unknown, o: unknown, max: number, html: number) =>
          (globalThis as any).axe.finishRun(p, o).then((r: unknown) => (globalThis as any).__beaconTrim(r, max, html)),
        partials as never,
        AXE_OPTIONS as never,
        MAX_NODES_PER_RULE,
        MAX_NODE_HTML,
      ),
    );
  } finally {
    await blank.close().catch(() => undefined);
  }
}

/** runPartial in `frame` and, depth first, in its frames (at most MAX_FRAMES each); null for a frame that failed. */
async function partialsOf(
  frame: Frame,
  context: unknown,
  top: boolean,
  injected?: Realm,
): Promise<(PartialResult | null)[]> {
  const realm = injected ?? (await injectAxe(frame));
  // getFrameContexts must run before runPartial.
  const frameContexts = (await realm.evaluate(
    (c: unknown) => (globalThis as any).axe.utils.getFrameContexts(c),
    context as never,
  )) as {
    frameSelector: unknown;
    frameContext: unknown;
  }[];
  const own = realm.evaluate(
    (c: unknown, o: unknown) => (globalThis as any).axe.runPartial(c, o),
    context as never,
    AXE_OPTIONS as never,
  ) as Promise<PartialResult>;
  own.catch(() => undefined);
  const children: Promise<(PartialResult | null)[]>[] = [];
  for (const { frameSelector, frameContext } of frameContexts.slice(0, MAX_FRAMES)) {
    let child: Frame | null = null;
    try {
      const handle = await realm.evaluateHandle(
        (s: unknown) => (globalThis as any).axe.utils.shadowSelect(s),
        frameSelector as never,
      );
      child = (await handle.asElement()?.contentFrame()) ?? null;
    } catch {
      child = null;
    }
    children.push(child ? partialsOf(child, frameContext, false).catch(() => [null]) : Promise.resolve([null]));
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
