/**
 * pdf.js (pdfjs-dist, the copy read_pdf uses) rendering in headless Chromium, for bench/pdf/convert.ts:
 * the other way issue 23 item 1 names for PDF to images ("rendering in the browser"). A loopback
 * server serves pdf.js's modern build, its standard font data, one page of script and the PDF; the
 * page draws every page on a canvas at the chosen resolution and encodes it (canvas.toBlob, PNG or
 * JPEG quality 0.85 like the server's), timing itself. Chromium is started with the project's flags
 * (CHROMIUM_ARGS of the scan pool).
 */
import { readFile } from 'node:fs/promises';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize } from 'node:path';
import puppeteer, { Browser, Page } from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../src/a11y/browser/browser-pool';
import { treeRssMiB } from '../common/process-tree';

const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));
const TYPES: Record<string, string> = {
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.pfb': 'application/octet-stream',
  '.ttf': 'font/ttf',
  '.pdf': 'application/pdf',
};

/** The page's script: `renderAll(dpi, format)` answers its own timings and the first page as a data URL. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>pdf.js bench</title>
<script type="module">
import * as pdfjsLib from '/pdfjs/build/pdf.mjs';
pdfjsLib.GlobalWorkerOptions.workerSrc = '/pdfjs/build/pdf.worker.mjs';
window.renderAll = async (dpi, format) => {
  const t0 = performance.now();
  const doc = await pdfjsLib.getDocument({ url: '/doc.pdf', standardFontDataUrl: '/pdfjs/standard_fonts/' }).promise;
  let drawMs = 0, bytes = 0, first = '', extra = 0;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: dpi / 72 });
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    const d0 = performance.now();
    await page.render({ canvas, canvasContext: ctx, viewport }).promise;
    drawMs += performance.now() - d0;
    if (format !== 'none') {
      const blob = await new Promise((r) => canvas.toBlob(r, 'image/' + format, 0.85));
      bytes += blob.size;
      if (n === 1) {
        const f0 = performance.now();
        first = canvas.toDataURL('image/png'); // for the comparison, not timed
        extra += performance.now() - f0;
      }
    }
    page.cleanup();
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { ms: performance.now() - t0 - extra, drawMs, bytes, pages, first };
};
window.ready = true;
</script>`;

export interface PdfJsRun {
  /** Wall time in the page: open, draw and encode every page. */
  ms: number;
  /** Of which drawing alone. */
  drawMs: number;
  bytes: number;
  pages: number;
  /** Page 1 as a PNG (data URL), for the fidelity comparison. */
  first: string;
  /** Chromium's processes, highest resident memory seen during the run (MiB). */
  peakRssMiB: number;
}

export interface PdfJsRenderer {
  /** Renders the current document (see `use`) in a fresh tab. */
  render(dpi: number, format: 'png' | 'jpeg' | 'none'): Promise<PdfJsRun>;
  /** The PDF the page loads next. */
  use(pdf: Uint8Array): void;
  close(): Promise<void>;
}

export async function startPdfJs(): Promise<PdfJsRenderer> {
  let pdf: Uint8Array = new Uint8Array();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      if (path === '/doc.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from(pdf));
      const rel = normalize(path.replace(/^\/pdfjs\//, ''));
      if (!path.startsWith('/pdfjs/') || rel.startsWith('..')) return res.writeHead(404).end();
      try {
        const body = await readFile(join(PDFJS_DIR, rel));
        res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser: Browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const pid = browser.process()!.pid!;
  return {
    use: (bytes) => (pdf = bytes),
    render: async (dpi, format) => {
      const page: Page = await browser.newPage();
      let peak = 0;
      const timer = setInterval(() => (peak = Math.max(peak, treeRssMiB(pid))), 100);
      try {
        await page.goto(`${origin}/`);
        await page.waitForFunction('window.ready === true');
        const run = (await page.evaluate(`window.renderAll(${dpi}, '${format}')`)) as Omit<PdfJsRun, 'peakRssMiB'>;
        return { ...run, peakRssMiB: Math.max(peak, treeRssMiB(pid)) };
      } finally {
        clearInterval(timer);
        await page.close();
      }
    },
    close: async () => {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
