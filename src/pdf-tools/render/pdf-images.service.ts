import { Injectable } from '@nestjs/common';
import { Zip, ZipPassThrough } from 'fflate';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../../common/config/env';
import { checkPageRange, pageRangeTokens, parsePageRange } from '../core/page-range';
import { ToolFailure } from '../core/tool-failure';
import { FileStoreService, type SavedFile } from '../files/file-store.service';
import { ConversionInput, Metered, MeteredRun, WebCaller } from './metered-run';
import { runCapped } from './poppler';
import { PreparedPdf, preparePdf } from './prepare';

/** The quota's and the public stats' name of the conversion. */
export const PDF_TO_IMAGES = 'pdf_to_images';
export const IMAGE_FORMATS = ['png', 'jpeg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const MIN_DPI = 72;
export const MAX_DPI = 300;
/** Most pixels of one page image (25 megapixels: A3 at 300 dpi); a larger page is rendered at a lower resolution, and the result says so. */
export const MAX_PAGE_PIXELS = 25_000_000;
/** Time limit of one whole conversion (past it, the pages not drawn yet are left out and named). */
export const IMAGES_TIMEOUT_MS = 180_000;
/** Conversions running at once per instance; beyond, `busy` (each is one poppler process at a time). */
export const IMAGES_CONCURRENCY = 2;
/** Pages per pdftoppm run (one process renders them one after the other, one page bitmap in memory). */
const BATCH_PAGES = 10;
const JPEG_QUALITY = 85;

export interface ImagesRequest {
  /** Page range in the tools' grammar ("all", "1-3,7", ...). */
  pages: string;
  format: ImageFormat;
  dpi: number;
}

/** A converted file: one image (one page chosen) or a ZIP of one image per page. */
export interface ImagesResult {
  file: SavedFile;
  kind: 'image' | 'zip';
  format: ImageFormat;
  dpi: number;
  /** The document's page count. */
  pageCount: number;
  /** The pages in the result, in the order chosen. */
  rendered: number[];
  /** Pages chosen but left out: the result reached the size cap (`capBytes`) or the time limit (`timeLimitMs`). */
  leftOut: number[];
  leftOutReason: 'size' | 'time';
  capBytes: number;
  timeLimitMs: number;
  /** Pages too large for MAX_PAGE_PIXELS at the chosen resolution, with the resolution they got. */
  lowered: { page: number; dpi: number }[];
  opened: PreparedPdf['opened'];
  /** The input's file name. */
  source: string;
}

/**
 * PDF to images (issue 23 item 1) on the server with poppler's `pdftoppm`: chosen pages as PNG or
 * JPEG at 72-300 dpi, one image for one page, else a ZIP (fflate, stored entries: the images are
 * compressed already). Rendered a batch of pages at a time in a capped child process, each image
 * read, added to the ZIP and deleted before the next batch, so memory holds the result plus one
 * batch's images whatever the page count; a result growing past PDF_MAX_CALL_OUTPUT_BYTES stops
 * there and says which pages were left out. Why poppler rather than pdf.js: docs/pdf-tools.md,
 * "PDF to images".
 */
@Injectable()
export class PdfImagesService {
  private running = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly metered: MeteredRun,
    private readonly files: FileStoreService,
  ) {}

  /** Checks the request (before the quota), then converts under the quota. */
  async convert(input: ConversionInput, req: ImagesRequest, caller: WebCaller): Promise<Metered<ImagesResult>> {
    try {
      if (!IMAGE_FORMATS.includes(req.format))
        throw new ToolFailure('invalid_arguments', 'format', { field: 'format' });
      if (!Number.isInteger(req.dpi) || req.dpi < MIN_DPI || req.dpi > MAX_DPI)
        throw new ToolFailure('invalid_arguments', 'dpi', { field: 'dpi' });
      pageRangeTokens(req.pages);
      const checked = await this.metered.check(input);
      if ('stored' in checked && checked.stored.pages !== null)
        checkPageRange(req.pages, checked.stored.pages, checked.stored.filename);
      if ('stored' in checked && checked.stored.pages === null && !checked.password) {
        throw new ToolFailure('encrypted', 'password needed', { input: 'file', password_given: false });
      }
      if (this.running >= IMAGES_CONCURRENCY) throw new ToolFailure('busy', 'busy');
      this.running++;
      try {
        return await this.metered.run(PDF_TO_IMAGES, caller, async () =>
          this.render(await this.metered.load(checked), req),
        );
      } finally {
        this.running--;
      }
    } catch (e) {
      if (!(e instanceof ToolFailure)) throw e;
      return { ok: false, failure: e, quota: await this.metered.status(PDF_TO_IMAGES, caller) };
    }
  }

  private async render(input: Awaited<ReturnType<MeteredRun['load']>>, req: ImagesRequest): Promise<ImagesResult> {
    const deadline = Date.now() + IMAGES_TIMEOUT_MS;
    const dir = await mkdtemp(join(tmpdir(), 'beacon-images-'));
    try {
      const pdf = await preparePdf(dir, input, this.config.PDF_MAX_PAGES, IMAGES_TIMEOUT_MS);
      const pages = parsePageRange(req.pages, pdf.pages, input.name);
      const ext = req.format === 'png' ? 'png' : 'jpg';
      const base = input.name.replace(/\.pdf$/i, '') || 'document';
      const digits = String(pdf.pages).length;
      const entryName = (page: number): string => `${base}-page-${String(page).padStart(digits, '0')}.${ext}`;
      const cap = this.config.PDF_MAX_CALL_OUTPUT_BYTES;
      const lowered: { page: number; dpi: number }[] = [];
      const dpiOf = (page: number): number => {
        const size = pdf.sizes[page - 1] ?? { width: 612, height: 792 };
        const pixels = (size.width / 72) * (size.height / 72) * req.dpi * req.dpi;
        if (pixels <= MAX_PAGE_PIXELS) return req.dpi;
        const dpi = Math.max(1, Math.floor(req.dpi * Math.sqrt(MAX_PAGE_PIXELS / pixels)));
        lowered.push({ page, dpi });
        return dpi;
      };
      // The images, batch by batch, in the order chosen: the one image, or each into the ZIP.
      const rendered: number[] = [];
      let single: Uint8Array | undefined;
      let total = 0;
      const leftOut: number[] = [];
      let leftOutReason: ImagesResult['leftOutReason'] = 'size';
      const chunks: Uint8Array[] = [];
      let zipError: Error | undefined;
      const zip = new Zip((err, chunk) => (err ? (zipError = err) : chunks.push(chunk)));
      const one = pages.length === 1;
      let i = 0;
      while (i < pages.length) {
        // A batch: consecutive pages in ascending order at the same resolution.
        const first = pages[i];
        const dpi = dpiOf(first);
        let n = 1;
        while (n < BATCH_PAGES && i + n < pages.length && pages[i + n] === first + n && dpiOf(pages[i + n]) === dpi)
          n++;
        let batch: { page: number; bytes: Uint8Array }[];
        try {
          batch = await this.pdftoppm(pdf.path, dir, first, first + n - 1, dpi, req.format, deadline);
        } catch (e) {
          // Out of time with pages already drawn: the result has those, and says which were left out.
          if (!(e instanceof ToolFailure && e.code === 'timeout' && rendered.length)) throw e;
          leftOut.push(...pages.slice(i));
          leftOutReason = 'time';
          break;
        }
        for (const { page, bytes } of batch) {
          if (total + bytes.length > cap) {
            if (total === 0)
              throw new ToolFailure('file_too_large', 'page image over the cap', {
                page,
                bytes: bytes.length,
                max_bytes: cap,
              });
            leftOut.push(...pages.slice(pages.indexOf(page)));
            break;
          }
          total += bytes.length;
          rendered.push(page);
          if (one) single = bytes;
          else {
            const entry = new ZipPassThrough(entryName(page));
            zip.add(entry);
            entry.push(bytes, true);
          }
        }
        if (leftOut.length) break;
        i += n;
      }
      zip.end();
      if (zipError) throw zipError;
      const bytes = single ?? concat(chunks);
      const file = await this.files.save({
        name: one ? entryName(pages[0]) : `${base}-images.zip`,
        ext: one ? ext : 'zip',
        bytes,
        pages: one ? 1 : rendered.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      return {
        file,
        kind: one ? 'image' : 'zip',
        format: req.format,
        dpi: req.dpi,
        pageCount: pdf.pages,
        rendered,
        leftOut,
        leftOutReason,
        capBytes: cap,
        timeLimitMs: IMAGES_TIMEOUT_MS,
        lowered: dedupe(lowered),
        opened: pdf.opened,
        source: input.name,
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Renders pages `from`..`to` with one pdftoppm run; returns each page's image (files deleted). */
  private async pdftoppm(
    path: string,
    dir: string,
    from: number,
    to: number,
    dpi: number,
    format: ImageFormat,
    deadline: number,
  ): Promise<{ page: number; bytes: Uint8Array }[]> {
    const left = deadline - Date.now();
    if (left <= 0) throw new ToolFailure('timeout', 'deadline');
    const out = join(dir, 'p');
    const kind = format === 'png' ? ['-png'] : ['-jpeg', '-jpegopt', `quality=${JPEG_QUALITY}`];
    const run = await runCapped(
      'pdftoppm',
      ['-r', String(dpi), '-f', String(from), '-l', String(to), ...kind, path, out],
      left,
    );
    if (run.timedOut) throw new ToolFailure('timeout', 'deadline');
    if (run.missing) throw new ToolFailure('internal_error', 'pdftoppm is not installed');
    const names = (await readdir(dir)).filter((n) => /^p-\d+\.(png|jpg)$/.test(n));
    const found = names.map((n) => ({ n, page: Number(/(\d+)\./.exec(n)![1]) })).sort((a, b) => a.page - b.page);
    if (run.code !== 0 || found.length !== to - from + 1) {
      await Promise.all(names.map((n) => rm(join(dir, n), { force: true })));
      throw new ToolFailure(
        'corrupt_pdf',
        (run.stderr.split('\n').find((l) => /error/i.test(l)) ?? 'pages could not be drawn').trim(),
        { input: 'file' },
      );
    }
    const images: { page: number; bytes: Uint8Array }[] = [];
    for (const f of found) {
      images.push({ page: f.page, bytes: new Uint8Array(await readFile(join(dir, f.n))) });
      await rm(join(dir, f.n), { force: true });
    }
    return images;
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function dedupe(list: { page: number; dpi: number }[]): { page: number; dpi: number }[] {
  const seen = new Map(list.map((l) => [l.page, l]));
  return [...seen.values()].sort((a, b) => a.page - b.page);
}
