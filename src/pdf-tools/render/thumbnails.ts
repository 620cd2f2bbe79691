import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStoreService } from '../files/file-store.service';
import { runCapped } from './poppler';

/** Longest side of a page thumbnail, in pixels (a 2x screen shows it at half). */
export const THUMBNAIL_PX = 200;
/** Pages drawn by one pdftoppm run: a picker asks for them one by one, in order, as they scroll into view. */
export const THUMBNAIL_BATCH = 12;
/** pdftoppm runs at once on this instance (the others wait their turn). */
const RUNNING_MAX = 2;
/** Requests waiting for a run beyond which a thumbnail is refused (the picker's field still takes typed pages). */
const WAITING_MAX = 40;
const RUN_TIMEOUT_MS = 30_000;
/** Bytes of thumbnails kept in memory (a file's pages never change: its id names the bytes). */
const CACHE_BYTES = 32 * 1024 * 1024;

export type ThumbnailOutcome =
  | { status: 'ok'; png: Buffer }
  /** Unknown or no longer kept. */
  | { status: 'gone' }
  /** Protected by a password: the pages cannot be drawn without it (it is never kept). */
  | { status: 'locked' }
  | { status: 'no_page' }
  /** Too many at once, or poppler could not draw it. */
  | { status: 'failed' };

/** What the page pickers need to know of an uploaded file before they ask for its thumbnails. */
export type ThumbnailSource =
  { status: 'ok'; pages: number; filename: string } | { status: 'gone' } | { status: 'locked'; filename: string };

/**
 * Page thumbnails for the page pickers of the website's tools (issue 23 item 1): an uploaded
 * file's pages drawn small by poppler's `pdftoppm` (the renderer of PDF to images, under the same
 * capped child process), a batch of pages per run, kept in memory by file id and page (bounded in
 * bytes). Not counted on the quota: it is the person's own upload, shown to choose pages by
 * looking; at most two runs at once, a bounded queue behind them.
 */
@Injectable()
export class PdfThumbnailsService {
  private readonly cache = new LRUCache<string, Buffer>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (b) => Math.max(1, b.length),
    ttl: 60 * 60 * 1000,
  });
  /** Batches being drawn (file id and first page), so that twelve requests make one run. */
  private readonly drawing = new Map<string, Promise<void>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly files: FileStoreService) {}

  async source(fileId: string): Promise<ThumbnailSource> {
    const found = await this.files.info(fileId);
    if (found.status !== 'ok') return { status: 'gone' };
    const f = found.file;
    return f.pages === null
      ? { status: 'locked', filename: f.filename }
      : { status: 'ok', pages: f.pages, filename: f.filename };
  }

  async page(fileId: string, page: number): Promise<ThumbnailOutcome> {
    const key = `${fileId}:${page}`;
    const hit = this.cache.get(key);
    if (hit) return { status: 'ok', png: hit };
    const found = await this.files.info(fileId);
    if (found.status !== 'ok') return { status: 'gone' };
    const file = found.file;
    if (file.pages === null) return { status: 'locked' };
    if (!Number.isInteger(page) || page < 1 || page > file.pages) return { status: 'no_page' };
    const first = Math.floor((page - 1) / THUMBNAIL_BATCH) * THUMBNAIL_BATCH + 1;
    const last = Math.min(file.pages, first + THUMBNAIL_BATCH - 1);
    const batch = `${fileId}:${first}`;
    let run = this.drawing.get(batch);
    if (!run) {
      if (this.waiting.length >= WAITING_MAX) return { status: 'failed' };
      run = this.draw(fileId, first, last, () => this.files.content(file)).finally(() => this.drawing.delete(batch));
      this.drawing.set(batch, run);
    }
    await run;
    const png = this.cache.get(key);
    return png ? { status: 'ok', png } : { status: 'failed' };
  }

  private async turn(): Promise<void> {
    if (this.running < RUNNING_MAX) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private done(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  /** Draws pages first..last of the file into the cache (nothing on failure: the picker shows the page number alone). */
  private async draw(fileId: string, first: number, last: number, bytes: () => Promise<Buffer | undefined>) {
    await this.turn();
    const dir = await mkdtemp(join(tmpdir(), 'beacon-thumbs-'));
    try {
      const content = await bytes();
      if (!content) return;
      const input = join(dir, 'in.pdf');
      await writeFile(input, content);
      const args = ['-f', String(first), '-l', String(last), '-png', '-scale-to', String(THUMBNAIL_PX)];
      const out = await runCapped('pdftoppm', [...args, input, join(dir, 't')], RUN_TIMEOUT_MS);
      if (out.code !== 0) return;
      for (const name of await readdir(dir)) {
        const m = /^t-0*(\d+)\.png$/.exec(name);
        if (m) this.cache.set(`${fileId}:${Number(m[1])}`, await readFile(join(dir, name)));
      }
    } finally {
      this.done();
      await rm(dir, { recursive: true, force: true });
    }
  }
}
