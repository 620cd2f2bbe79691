import type { BrowserContext, Page } from 'puppeteer-core';

/** What a window opening needs of a browser context. */
export type WindowHost = Pick<BrowserContext, 'newPage'>;

/**
 * Opens a scan's tabs, each in a window of its own, one after another per browser context.
 *
 * A window of its own: Chromium paints no frame for a tab behind another, so a crawl's picture of a
 * page whose tab another one had covered waited forever (the scan's hard stop ended it). One after
 * another: two windows asked for at once in a context that has none yet become one window, the
 * first tab hidden behind the second; the crawl's second tab, asked for while the start page's was
 * still being opened, hid the start page, whose picture then hung the same way (issue #25).
 */
export class WindowOpener {
  /** The last opening asked for in each context, settled or not. */
  private readonly last = new WeakMap<WindowHost, Promise<unknown>>();

  /** A new tab of `context` in a new window, asked for once the context's previous opening has settled (opened or failed). */
  open(context: WindowHost): Promise<Page> {
    const previous = this.last.get(context) ?? Promise.resolve();
    const opened = previous.then(() => context.newPage({ type: 'window' }));
    this.last.set(
      context,
      opened.catch(() => undefined),
    );
    return opened;
  }
}
