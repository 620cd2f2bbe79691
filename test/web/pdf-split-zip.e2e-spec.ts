import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { cacheDir, useBrowserApp } from '../utils/browser-app';
import { WebClient } from './web-client';

/**
 * Split on the website (issue 23 item 1) in real Chromium: the ranges picked on the thumbnails of
 * split's "Page ranges" field, then every part as one ZIP besides the single links; the ZIP holds
 * the parts themselves (same bytes as their links), and a part no longer kept gets a clear 404.
 */
describe('PDF split: pages picked on thumbnails, all parts as one ZIP (Chromium e2e)', () => {
  const app = useBrowserApp({ env: { PDF_DAILY_LIMIT: '20' } });

  it('splits by the ranges ticked and offers the parts as one ZIP', async () => {
    const dir = cacheDir('web-split-zip');
    const doc = await PDFDocument.create();
    for (let i = 1; i <= 4; i++) doc.addPage([300, 400]).drawText(`Page ${i}`, { x: 40, y: 300, size: 20 });
    writeFileSync(join(dir, 'report.pdf'), await doc.save());

    const page = await (await app.browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto(`${app.origin}/pdf/split-pdf`);
    const input = await page.$('#file');
    await (input as unknown as { uploadFile: (p: string) => Promise<void> }).uploadFile(join(dir, 'report.pdf'));
    await page.waitForSelector('#chosen li input[name=file_id]', { timeout: 60_000 });
    await page.select('#opt-mode', 'ranges');
    await page.waitForFunction("document.querySelectorAll('fieldset.page-picker li').length === 4", {
      timeout: 30_000,
    });
    // Each ticked page starts a part: 1 and 4 make pages 1-3 and 4.
    for (const p of [1, 4]) await page.click(`label[for=opt-ranges-page-${p}]`);
    expect(await page.$eval('#opt-ranges', (el) => (el as unknown as { value: string }).value)).toBe('1-3, 4');
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result-zip', { timeout: 60_000 });
    expect(await page.$eval('#result-zip', (a) => a.textContent)).toBe('Download all 2 parts as one ZIP');
    const singles = await page.$$eval('#result li a[download]', (as) =>
      as.map((a) => [a.getAttribute('download'), a.getAttribute('href')] as [string, string]),
    );
    expect(singles.map(([n]) => n)).toEqual(['report-split-1.pdf', 'report-split-2.pdf']);
    const zipHref = (await page.$eval('#result-zip', (a) => a.getAttribute('href')))!;
    expect(await page.$eval('#result-zip', (a) => a.getAttribute('download'))).toBe('report-split.zip');

    const res = await fetch(app.origin + zipHref);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(zip)).toEqual(['report-split-1.pdf', 'report-split-2.pdf']);
    for (const [name, href] of singles) {
      const single = new Uint8Array(await (await fetch(app.origin + href)).arrayBuffer());
      expect(Buffer.from(zip[name]).equals(Buffer.from(single))).toBe(true);
    }
    expect((await PDFDocument.load(zip['report-split-1.pdf'])).getPageCount()).toBe(3);
    expect((await PDFDocument.load(zip['report-split-2.pdf'])).getPageCount()).toBe(1);

    const c = WebClient.of(app.t.server);
    const gone = await c.request('GET', `/pdf/zip?file_id=${'x'.repeat(24)}`);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('A part is no longer kept');
    expect((await c.request('GET', '/pdf/zip')).status).toBe(400);
  }, 180_000);
});
