import type { Page } from 'puppeteer-core';
import { WindowHost, WindowOpener } from './windows';

/** A context whose window openings wait for the test: each call is recorded with a way to end it. */
function gatedContext(): { context: WindowHost; asked: { type?: string; open: () => void; fail: () => void }[] } {
  const asked: { type?: string; open: () => void; fail: () => void }[] = [];
  const context: WindowHost = {
    newPage: (options) =>
      new Promise<Page>((resolve, reject) => {
        const page = { n: asked.length } as unknown as Page;
        asked.push({ type: options?.type, open: () => resolve(page), fail: () => reject(new Error('closed')) });
      }),
  };
  return { context, asked };
}

/** Lets every callback already due run (promise reactions), so that a call that was going to be made has been. */
const due = () => new Promise((r) => setImmediate(r));

describe('WindowOpener', () => {
  it("asks for a context's second window only once its first is open (as the start page and a crawl's second tab)", async () => {
    const windows = new WindowOpener();
    const { context, asked } = gatedContext();
    const first = windows.open(context); // the start page's tab
    const second = windows.open(context); // the crawl's second tab, asked for at once
    await due();
    expect(asked.map((a) => a.type)).toEqual(['window']); // not both at once: Chromium would make them one window
    asked[0].open();
    await expect(first).resolves.toEqual({ n: 0 });
    await due();
    expect(asked.map((a) => a.type)).toEqual(['window', 'window']);
    asked[1].open();
    await expect(second).resolves.toEqual({ n: 1 });
  });

  it('opens the next window after one that failed, and gives the failure to its own caller only', async () => {
    const windows = new WindowOpener();
    const { context, asked } = gatedContext();
    const first = windows.open(context);
    const second = windows.open(context);
    await due();
    asked[0].fail();
    await expect(first).rejects.toThrow('closed');
    await due();
    expect(asked).toHaveLength(2);
    asked[1].open();
    await expect(second).resolves.toEqual({ n: 1 });
  });

  it('does not make one context wait for another', async () => {
    const windows = new WindowOpener();
    const a = gatedContext();
    const b = gatedContext();
    void windows.open(a.context);
    const other = windows.open(b.context);
    await due();
    expect([a.asked.length, b.asked.length]).toEqual([1, 1]);
    b.asked[0].open();
    await expect(other).resolves.toEqual({ n: 0 });
  });
});
