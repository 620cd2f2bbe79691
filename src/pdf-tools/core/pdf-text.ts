import { dirname, join } from 'node:path';
import type { TextRun } from './text-layout';

/**
 * A PDF's text with positions, read by pdf.js (pdfjs-dist, Mozilla's PDF reader): page by page,
 * so memory stays bounded by one page's text. pdf.js is an ES module: loaded once per worker
 * thread with a real dynamic import (the TypeScript output is CommonJS, whose `import()` would
 * become `require()`). Runs in the PDF worker threads only (read_pdf), never on the event loop.
 */

/** The parts of pdf.js this file uses. */
interface PdfJsTextItem {
  str?: string;
  transform?: number[];
  width?: number;
  fontName?: string;
}
interface PdfJsPage {
  /** `styles`: per font, its generic family ("monospace", "serif", "sans-serif"). */
  getTextContent(): Promise<{ items: PdfJsTextItem[]; styles: Record<string, { fontFamily?: string } | undefined> }>;
  cleanup(): boolean;
}
interface PdfJsDocument {
  numPages: number;
  getPage(n: number): Promise<PdfJsPage>;
  destroy(): Promise<void>;
}
interface PdfJs {
  getDocument(source: Record<string, unknown>): { promise: Promise<PdfJsDocument> };
}

// A dynamic import that TypeScript leaves as it is (see above). The source ends with a comment unique
// to this module instance: V8 reuses a compiled Function of the same source, and with it the import
// callback of the context that compiled it first (under jest, an earlier test file's, torn down since).
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const importModule = new Function('specifier', `return import(specifier); // ${process.hrtime.bigint()}`) as (
  specifier: string,
) => Promise<unknown>;
let loading: Promise<PdfJs> | undefined;

function pdfjs(): Promise<PdfJs> {
  loading ??= (async () => {
    // pdf.js parses on this thread (its "fake worker"): handing it the worker module up front spares
    // it an import of its own from inside pdf.mjs, one dynamic import fewer to go wrong.
    const g = globalThis as { pdfjsWorker?: unknown };
    g.pdfjsWorker ??= await importModule('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return (await importModule('pdfjs-dist/legacy/build/pdf.mjs')) as PdfJs;
  })().catch((e: unknown) => {
    loading = undefined; // a failed load is tried again by the next call
    throw e;
  });
  return loading;
}

/** pdf.js's data folders (fonts' metrics for the 14 standard fonts, character maps of CJK encodings). */
const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));

/** A document opened for its text: its page count and each page's runs. */
export interface PdfText {
  pages: number;
  /** The text runs of page `n` (1-based), in content order. */
  page(n: number): Promise<TextRun[]>;
  close(): Promise<void>;
}

/** Opens `bytes` (a readable, decrypted PDF: openPdf's output) for its text. */
export async function openText(bytes: Uint8Array): Promise<PdfText> {
  const lib = await pdfjs();
  const doc = await lib.getDocument({
    // pdf.js may detach the buffer it gets: its own copy.
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    standardFontDataUrl: `${join(PDFJS_DIR, 'standard_fonts')}/`,
    cMapUrl: `${join(PDFJS_DIR, 'cmaps')}/`,
    cMapPacked: true,
  }).promise;
  return {
    pages: doc.numPages,
    async page(n) {
      const page = await doc.getPage(n);
      try {
        const content = await page.getTextContent();
        const runs: TextRun[] = [];
        for (const item of content.items) {
          const t = item.transform;
          if (typeof item.str !== 'string' || !t || item.str.trim() === '') continue;
          const mono = content.styles[item.fontName ?? '']?.fontFamily === 'monospace';
          runs.push({
            text: item.str,
            x: t[4],
            y: t[5],
            width: item.width ?? 0,
            size: Math.hypot(t[2], t[3]) || Math.hypot(t[0], t[1]),
            ...(mono ? { mono } : {}),
          });
        }
        return runs;
      } finally {
        page.cleanup();
      }
    },
    close: () => doc.destroy(),
  };
}
