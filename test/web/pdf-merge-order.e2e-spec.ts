import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { cacheDir, useBrowserApp } from '../utils/browser-app';

/** A PDF whose pages say `<word> page <n>` (read back with pdftotext). */
async function wordPdf(word: string, pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++)
    doc.addPage([300, 400]).drawText(`${word} page ${i + 1}`, { x: 40, y: 300, size: 20 });
  return doc.save();
}

/** The text of a PDF, page by page (pdftotext; pages end with a form feed). */
function pageTexts(bytes: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'web-merge-order-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), bytes);
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'in.pdf'), '-'], { stdio: 'pipe' }).toString();
    return text
      .split('\f')
      .map((p) => p.trim())
      .filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Merging on the website in real Chromium (issue #20, item 6): a file still uploading holds the
 * run back (the button is disabled and says why) instead of being left out of the merge; the files
 * are merged in the order listed, which people change with keyboard-operable "Move up", "Move down"
 * and "Remove" buttons, each announced in a live region.
 */
describe('PDF merge on the website: uploads in progress, order, reorder and remove (Chromium e2e)', () => {
  const app = useBrowserApp({ env: { PDF_DAILY_LIMIT: '20' } });
  const dir = cacheDir('web-merge-order');

  const file = async (name: string, word: string, pages: number): Promise<string> => {
    const path = join(dir, name);
    writeFileSync(path, await wordPdf(word, pages));
    return path;
  };
  const choose = async (page: Page, path: string): Promise<void> => {
    const input = await page.$('#file');
    await (input as unknown as { uploadFile: (p: string) => Promise<void> }).uploadFile(path);
  };
  /** The chosen files as listed: name and whether its upload is done. */
  const listed = (page: Page): Promise<Array<[string | null, boolean]>> =>
    page.$$eval('#chosen li', (items) =>
      items.map(
        (li) =>
          [li.getAttribute('data-name'), li.querySelector('input[name=file_id]') !== null] as [string | null, boolean],
      ),
    );
  const ready = (page: Page, n: number): Promise<unknown> =>
    page.waitForFunction(
      `document.querySelectorAll('#chosen li').length === ${n} && document.querySelectorAll('#chosen li input[name=file_id]').length === ${n}`,
      { timeout: 60_000 },
    );
  const focused = (page: Page): Promise<string | null> =>
    page.evaluate("document.activeElement && document.activeElement.getAttribute('aria-label')") as Promise<
      string | null
    >;
  const announced = (page: Page, text: string): Promise<unknown> =>
    page.waitForFunction(`document.getElementById('chosen-status').textContent === ${JSON.stringify(text)}`, {
      timeout: 30_000,
    });
  type Hideable = { hidden: boolean };

  it('waits for a file still uploading, merges in the order listed, and reorders and removes files by keyboard', async () => {
    const page = await (await app.browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1100, height: 900 });
    // The third upload is held until the test lets it go: a file that takes as long as the test needs to upload.
    await page.setRequestInterception(true);
    let uploads = 0;
    const third = new Promise<HTTPRequest>((resolve) => {
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (r.method() === 'POST' && path === '/files' && ++uploads === 3) {
          resolve(r);
          return;
        }
        void r.continue();
      });
    });
    const merges: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/pdf/merge-pdfs') merges.push(r.postData() ?? '');
    });

    await page.goto(`${app.origin}/pdf/merge-pdfs`);
    await choose(page, await file('a.pdf', 'Alpha', 1));
    await ready(page, 1);
    await choose(page, await file('b.pdf', 'Bravo', 2));
    await ready(page, 2);
    await choose(page, await file('c.pdf', 'Charlie', 1));
    const held = await third;

    // c.pdf is shown as uploading (it joins the list when it is in); the run button is disabled and says why.
    expect(await listed(page)).toEqual([
      ['a.pdf', true],
      ['b.pdf', true],
    ]);
    expect(await page.$$eval('#uploading li', (l) => l.map((li) => li.textContent))).toEqual(['c.pdf (uploading…)']);
    const button = '#run-form button[type=submit]';
    expect(
      await page.$eval(button, (b) => [
        (b as unknown as { disabled: boolean }).disabled,
        b.getAttribute('aria-describedby'),
      ]),
    ).toEqual([true, 'run-wait']);
    expect(await page.$eval('#run-wait', (e) => [(e as unknown as Hideable).hidden, e.textContent])).toEqual([
      false,
      'Wait: c.pdf is still uploading.',
    ]);
    // Pressing the button, or Enter in a field of the form, does not run the merge on two files (the
    // one merge request, checked below, has all three); a submit by other means is held back and says why.
    await page.click(button).catch(() => undefined);
    await page.focus('#opt-filename');
    await page.keyboard.press('Enter');
    await page.$eval('#run-form', (f) => (f as unknown as { requestSubmit: () => void }).requestSubmit());
    await page.waitForFunction(
      `document.getElementById('upload-status').textContent === 'Wait: c.pdf is still uploading.'`,
      { timeout: 30_000 },
    );
    expect(await page.$('#result')).toBeNull();

    // The upload ends: the button is enabled again.
    void held.continue();
    await ready(page, 3);
    await page.waitForFunction(`!document.querySelector('${button}').disabled`, { timeout: 30_000 });
    expect(await page.$eval('#run-wait', (e) => (e as unknown as Hideable).hidden)).toBe(true);

    // The first file's Move up and the last file's Move down are disabled; the others are not.
    const disabled = (): Promise<string[]> =>
      page.$$eval('#chosen button[data-order]:disabled', (bs) => bs.map((b) => b.getAttribute('aria-label') ?? ''));
    expect(await disabled()).toEqual(['Move up: a.pdf', 'Move down: c.pdf']);
    // Reorder by keyboard: c.pdf up twice (the focus stays on its button; each move is announced); once
    // first, its Move up is disabled and the focus is on its Move down.
    await page.focus('#chosen li:nth-child(3) button[data-order=up]');
    expect(await focused(page)).toBe('Move up: c.pdf');
    await page.keyboard.press('Enter');
    await announced(page, 'c.pdf moved up: 2 of 3.');
    expect(await focused(page)).toBe('Move up: c.pdf');
    expect(await disabled()).toEqual(['Move up: a.pdf', 'Move down: b.pdf']);
    await page.keyboard.press('Space');
    await announced(page, 'c.pdf moved up: 1 of 3.');
    expect(await focused(page)).toBe('Move down: c.pdf');
    expect(await disabled()).toEqual(['Move up: c.pdf', 'Move down: b.pdf']);
    // Tab reaches the file's other button.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Remove: c.pdf');
    expect((await listed(page)).map(([n]) => n)).toEqual(['c.pdf', 'a.pdf', 'b.pdf']);
    expect(await page.$eval('#chosen-status', (e) => [e.getAttribute('role'), e.getAttribute('aria-live')])).toEqual([
      'status',
      'polite',
    ]);

    // Remove by keyboard: a fourth file, then its Remove button; the focus goes to the file now last.
    await choose(page, await file('d.pdf', 'Delta', 1));
    await ready(page, 4);
    await page.focus('#chosen li:nth-child(4) button[data-order=remove]');
    expect(await focused(page)).toBe('Remove: d.pdf');
    await page.keyboard.press('Space');
    await announced(page, 'd.pdf removed. 3 files left.');
    expect(await focused(page)).toBe('Remove: b.pdf');
    expect((await listed(page)).map(([n]) => n)).toEqual(['c.pdf', 'a.pdf', 'b.pdf']);
    const order = await page.$$eval('#chosen li input[name=file_id]', (l) =>
      l.map((i) => (i as unknown as { value: string }).value),
    );

    // Run: one merge, of the three files, in the order listed.
    await page.click(button);
    await page.waitForSelector('#result a[href^="/files/"]', { timeout: 60_000 });
    expect(await page.$eval('#result p', (p) => p.textContent)).toMatch(/^Merged 3 PDFs into 4 pages\./);
    expect(merges).toHaveLength(1);
    expect(new URLSearchParams(merges[0]).getAll('file_id')).toEqual(order);
    const href = await page.$eval('#result a[href^="/files/"]', (a) => a.getAttribute('href'));
    const res = await fetch(`${app.origin}${href}`);
    expect(res.status).toBe(200);
    const pages = pageTexts(new Uint8Array(await res.arrayBuffer()));
    expect(pages).toEqual(['Charlie page 1', 'Alpha page 1', 'Bravo page 1', 'Bravo page 2']);
    // After the run the list is the one merged, with its buttons again.
    expect((await listed(page)).map(([n]) => n)).toEqual(['c.pdf', 'a.pdf', 'b.pdf']);
    expect(await page.$$eval('#chosen li button[data-order]', (b) => b.length)).toBe(9);
    await page.browserContext().close();
  }, 180_000);
});
