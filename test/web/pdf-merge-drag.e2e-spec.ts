import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'puppeteer-core';
import { cacheDir, useBrowserApp } from '../utils/browser-app';

/** A one-page PDF that says `word`. */
async function wordPdf(word: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 400]).drawText(word, { x: 40, y: 300, size: 20 });
  return doc.save();
}

/**
 * Merge on the website, files put in order by dragging with the mouse (issue 23 item 1; the
 * keyboard's "Move up"/"Move down" buttons are tested in pdf-merge-order.e2e-spec.ts), in real
 * Chromium: the dragged file lands where it is dropped, the move is announced, and the merge
 * follows the order shown.
 */
describe('PDF merge: reorder by dragging (Chromium e2e)', () => {
  const app = useBrowserApp({ env: { PDF_DAILY_LIMIT: '20' } });
  const dir = cacheDir('web-merge-drag');

  const names = (page: Page): Promise<(string | null)[]> =>
    page.$$eval('#chosen li', (items) => items.map((li) => li.getAttribute('data-name')));

  /** Drags the n-th file (1-based) by its grip with the mouse, and drops it over the top (before) or bottom quarter (after) of the m-th. */
  async function drag(page: Page, n: number, m: number, where: 'before' | 'after'): Promise<void> {
    const from = (await (await page.$(`#chosen li:nth-child(${n}) .grip`))!.boundingBox())!;
    const to = (await (await page.$(`#chosen li:nth-child(${m})`))!.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 40, to.y + (to.height * (where === 'before' ? 1 : 3)) / 4, { steps: 8 });
    await page.mouse.up();
  }

  it('moves a file where it is dropped and merges in that order', async () => {
    const page = await (await app.browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1100, height: 900 });
    await page.goto(`${app.origin}/pdf/merge-pdfs`);
    for (const [i, word] of ['Alpha', 'Bravo', 'Charlie'].entries()) {
      const path = join(dir, `${word}.pdf`);
      writeFileSync(path, await wordPdf(word));
      const input = await page.$('#file');
      await (input as unknown as { uploadFile: (p: string) => Promise<void> }).uploadFile(path);
      await page.waitForFunction(`document.querySelectorAll('#chosen li input[name=file_id]').length === ${i + 1}`, {
        timeout: 60_000,
      });
    }
    await page.waitForFunction("document.querySelectorAll('#chosen li .grip').length === 3");
    expect(await names(page)).toEqual(['Alpha.pdf', 'Bravo.pdf', 'Charlie.pdf']);

    await drag(page, 3, 1, 'before');
    expect(await names(page)).toEqual(['Charlie.pdf', 'Alpha.pdf', 'Bravo.pdf']);
    expect(await page.$eval('#chosen-status', (e) => e.textContent)).toBe('Charlie.pdf moved: 1 of 3.');
    await drag(page, 2, 3, 'after');
    expect(await names(page)).toEqual(['Charlie.pdf', 'Bravo.pdf', 'Alpha.pdf']);
    // A press on a button does not start a drag: "Move down" moves by one, as from the keyboard.
    await page.click('#chosen li:nth-child(1) button[data-order=down]');
    expect(await names(page)).toEqual(['Bravo.pdf', 'Charlie.pdf', 'Alpha.pdf']);

    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result a[href^="/files/"]', { timeout: 60_000 });
    const href = await page.$eval('#result a[href^="/files/"]', (a) => a.getAttribute('href'));
    const path = join(dir, 'merged.pdf');
    writeFileSync(path, Buffer.from(await (await fetch(`${app.origin}${href}`)).arrayBuffer()));
    const text = execFileSync('pdftotext', [path, '-'], { stdio: 'pipe' }).toString();
    expect(
      text
        .split('\f')
        .map((p) => p.trim())
        .filter(Boolean),
    ).toEqual(['Bravo', 'Charlie', 'Alpha']);
  }, 180_000);
});
