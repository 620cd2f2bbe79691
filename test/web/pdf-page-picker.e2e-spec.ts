import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import { gradeAt } from '../utils/axe-score';
import { cacheDir, useBrowserApp } from '../utils/browser-app';
import { docShot, SHOTS } from '../utils/screenshots';
import { WebClient } from './web-client';

/** A PDF of `pages` portrait pages, each with its number written large. */
async function numberedPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 1; i <= pages; i++) doc.addPage([300, 400]).drawText(String(i), { x: 110, y: 160, size: 90 });
  return doc.save();
}

/**
 * Page pickers with thumbnails (issue 23 item 1) in real Chromium against the full app: after a
 * file is chosen, a tool's page field shows the file's pages drawn by the server (poppler), each a
 * checkbox labelled "Page N"; ticking pages by mouse or keyboard writes the field, typing in the
 * field ticks them, and the tool runs on the pages ticked.
 */
describe('Page pickers with thumbnails (Chromium e2e)', () => {
  const app = useBrowserApp({ env: { PDF_DAILY_LIMIT: '50' } });
  const dir = cacheDir('web-page-picker');

  async function upload(page: Page, name: string, bytes: Uint8Array): Promise<void> {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const input = await page.$('#file');
    await (input as unknown as { uploadFile: (p: string) => Promise<void> }).uploadFile(path);
  }
  const ticked = (page: Page): Promise<number[]> =>
    page.$$eval('fieldset.page-picker input[type=checkbox]:checked', (els) =>
      els.map((e) => Number((e as unknown as { value: string }).value)),
    );
  const fieldValue = (page: Page): Promise<string> =>
    page.$eval('#opt-pages', (el) => (el as unknown as { value: string }).value);

  it('shows the pages as "Page N" checkboxes, fills the field by mouse and keyboard, and the tool rotates the pages ticked', async () => {
    const page = await (await app.browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${app.origin}/pdf/rotate-pages`);
    expect(await page.$('fieldset.page-picker:not([hidden])')).toBeNull();
    await upload(page, 'five.pdf', await numberedPdf(5));
    await page.waitForFunction("document.querySelectorAll('fieldset.page-picker li').length === 5", {
      timeout: 30_000,
    });
    // Each thumbnail is a checkbox whose label is "Page N" (the image has an empty alt), and its image loads.
    const labels = await page.$$eval('fieldset.page-picker input[type=checkbox]', (els) =>
      els.map((e) => (e as unknown as { labels: { textContent: string }[] }).labels[0].textContent),
    );
    expect(labels).toEqual(['Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 5']);
    await page.waitForFunction(
      "[...document.querySelectorAll('fieldset.page-picker img')].every((i) => i.complete && i.naturalWidth > 0)",
      { timeout: 30_000 },
    );
    const size = await page.$eval('fieldset.page-picker img', (i): number[] => [
      (i as unknown as { naturalWidth: number }).naturalWidth,
      (i as unknown as { naturalHeight: number }).naturalHeight,
    ]);
    expect(size).toEqual([150, 200]);

    // Space on a focused box, clicks on two thumbnails: the field says "2-3, 5".
    await page.focus('#opt-pages-page-2');
    await page.keyboard.press('Space');
    await page.click('label[for=opt-pages-page-3] img');
    await page.click('label[for=opt-pages-page-5]');
    expect(await fieldValue(page)).toBe('2-3, 5');
    expect(await page.$eval('fieldset.page-picker [role=status]', (e) => e.textContent)).toBe('Chosen: pages 2-3, 5.');
    // Typing still works, and ticks the pages it names.
    await page.$eval('#opt-pages', (el) => ((el as unknown as { value: string }).value = ''));
    await page.type('#opt-pages', 'odd');
    expect(await ticked(page)).toEqual([1, 3, 5]);
    await page.click('label[for=opt-pages-page-3]');
    expect(await fieldValue(page)).toBe('1, 5');

    // The page passes Beacon's own scanner with the picker shown, on a desktop and a phone.
    for (const width of [1280, 375]) {
      const entry = await gradeAt(app.t, page, width, 900);
      if (entry.score !== 100) console.log(JSON.stringify(entry.violations.map((v) => [v.id, v.nodes.length])));
      expect(entry.score).toBe(100);
      expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
    }
    await page.setViewport({ width: 1280, height: 900 });
    if (SHOTS) {
      await page.$eval('fieldset.page-picker', (el) => el.scrollIntoView());
      await docShot(page, 'pdf-page-picker');
    }

    // The tool runs on the pages ticked: 1 and 5 turned, the others not.
    await page.focus('#run-form button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#result a[download]', { timeout: 60_000 });
    const href = await page.$eval('#result a[download]', (a) => a.getAttribute('href'));
    const bytes = await (await fetch(app.origin + href)).arrayBuffer();
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPages().map((p) => p.getRotation().angle)).toEqual([90, 0, 0, 0, 90]);
    // The page came back with the same file chosen: the picker is there again, the field's pages ticked.
    await page.waitForFunction("document.querySelectorAll('fieldset.page-picker li').length === 5", {
      timeout: 30_000,
    });
    expect(await ticked(page)).toEqual([1, 5]);
  });

  it("lays each page's checkbox below its thumbnail, beside its name, covering none of the page (1280 and 375 px)", async () => {
    const page = await (await app.browser.createBrowserContext()).newPage();
    await page.goto(`${app.origin}/pdf/rotate-pages`);
    await upload(page, 'layout.pdf', await numberedPdf(3));
    await page.waitForFunction(
      "[...document.querySelectorAll('fieldset.page-picker img')].length === 3 && [...document.querySelectorAll('fieldset.page-picker img')].every((i) => i.complete && i.naturalWidth > 0)",
      { timeout: 30_000 },
    );
    for (const width of [1280, 375]) {
      await page.setViewport({ width, height: 900 });
      // Each box: below its image (no overlap), on the line of its "Page N", inside its card.
      const boxes = (await page.evaluate(`[...document.querySelectorAll('ul.thumbs li')].map((li) => {
        const r = (e) => e.getBoundingClientRect();
        const img = r(li.querySelector('img')), box = r(li.querySelector('input')), card = r(li);
        return { below: box.top >= img.bottom, inside: box.left >= card.left && box.right <= card.right && box.bottom <= card.bottom, size: box.width > 0 };
      })`)) as { below: boolean; inside: boolean; size: boolean }[];
      expect(boxes).toEqual(Array(3).fill({ below: true, inside: true, size: true }));
    }
    await page.browserContext().close();
  });

  it('split: the picker says a ticked page starts a document, and pages 1 and 3 of 5 make pages 1-2 and 3-5', async () => {
    const page = await (await app.browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${app.origin}/pdf/split-pdf`);
    await upload(page, 'split.pdf', await numberedPdf(5));
    await page.waitForFunction("document.querySelectorAll('fieldset.page-picker li').length === 5", {
      timeout: 30_000,
    });
    expect(await page.$eval('fieldset.page-picker legend', (e) => e.textContent)).toBe(
      'Or tick the first page of each document of split.pdf',
    );
    expect(await page.$eval('fieldset.page-picker p.hint', (e) => e.textContent)).toBe(
      'Each document runs from a ticked page to the page before the next ticked one; the last to the end of the file. Pages before the first ticked one are left out.',
    );
    await page.click('label[for=opt-ranges-page-1]');
    await page.click('label[for=opt-ranges-page-3]');
    expect(await page.$eval('#opt-ranges', (el) => (el as unknown as { value: string }).value)).toBe('1-2, 3-5');
    expect(await page.$eval('fieldset.page-picker [role=status]', (e) => e.textContent)).toBe(
      'Documents of pages 1-2, 3-5.',
    );
    // Typing ranges ticks the first page of each.
    await page.$eval('#opt-ranges', (el) => ((el as unknown as { value: string }).value = ''));
    await page.type('#opt-ranges', '2-3, 4-last');
    expect(
      await page.$$eval('fieldset.page-picker input[type=checkbox]:checked', (els) =>
        els.map((e) => Number((e as unknown as { value: string }).value)),
      ),
    ).toEqual([2, 4]);
    await page.$eval('#opt-ranges', (el) => ((el as unknown as { value: string }).value = '1-2, 3-5'));
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result a[download]', { timeout: 60_000 });
    const parts = await page.$$eval('#result li', (lis) => lis.map((li) => li.textContent ?? ''));
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/\(2 pages, [^)]*pages 1-2 of your file/);
    expect(parts[1]).toMatch(/\(3 pages, [^)]*pages 3-5 of your file/);
    await page.browserContext().close();
  });

  it('answers the picker: page count, small PNGs, and a clear refusal for other pages and unknown files', async () => {
    const c = WebClient.of(app.t.server);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(await numberedPdf(14))], { type: 'application/pdf' }), 'many.pdf');
    const up = (await (await fetch(`${app.origin}/files`, { method: 'POST', body: form })).json()) as {
      file_id: string;
    };
    const info = await c.request('GET', `/pdf/thumbnails/${up.file_id}`);
    expect(JSON.parse(info.text)).toEqual({ status: 'ok', pages: 14, filename: 'many.pdf' });
    // Page 13 is in the second batch of twelve.
    const png = await fetch(`${app.origin}/pdf/thumbnails/${up.file_id}/13.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([150, 200]);
    expect((await c.request('GET', `/pdf/thumbnails/${up.file_id}/15.png`)).status).toBe(404);
    const gone = await c.request('GET', `/pdf/thumbnails/${'x'.repeat(24)}/1.png`);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('This file is no longer kept: upload it again.');
  });
});
