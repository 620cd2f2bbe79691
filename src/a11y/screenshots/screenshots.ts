import { Injectable, Logger } from '@nestjs/common';
import type { BrowserContext, Page } from 'puppeteer-core';
import sharp from 'sharp';
import { AppConfig } from '../../common/config/env';
import type { ReportPage } from '../report/report.types';
import { isolatedRealm } from '../security/isolated-world';
import type { Box } from './box';
import { VIEWPORT_WIDTH } from './box';
import { blit, cropRaster, encodePng, Raster, rasterOfSvg, rgbOf, strokeBox } from './raster';
import { newScreenshotId, ScreenshotStore } from './screenshot.store';

/* eslint-disable @typescript-eslint/no-explicit-any -- the function below runs in the page */

/** Element crops per report (all pages of a crawl together). */
export const MAX_CROPS_PER_REPORT = 40;
/** PNG bytes per report, crops and full pages together; what would go over is not stored. */
export const MAX_SCREENSHOT_BYTES_PER_REPORT = 4 * 1024 * 1024;
/** Full-page screenshots are cut at this height (CSS pixels, device scale 1). */
export const MAX_FULL_PAGE_HEIGHT = 4000;
/** Context around an element's box in its crop. */
export const CROP_CONTEXT_PX = 16;
/** Outline drawn on the box. */
const OUTLINE = { colour: '#d4145a', width: 3 };

/** A report's remaining screenshot budget (shared by the pages of one scan, i.e. one browser context). */
export interface Budget {
  crops: number;
  bytes: number;
}

/** Runs in the page's isolated world (the page's scripts cannot fake getBoundingClientRect there): document boxes of top-document elements (null if not found or not visible) and the document size. */
function measure(targets: string[][]): { boxes: (Box | null)[]; width: number; height: number } {
  const g = globalThis as any;
  const doc = g.document;
  const boxes = targets.map((t) => {
    if (t.length !== 1) return null;
    let root: any = doc;
    let el: any = null;
    for (const step of t[0].split(' >>> ')) {
      el = root?.querySelector(step) ?? null;
      if (!el) return null;
      root = el.shadowRoot;
    }
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return null;
    return {
      x: Math.round(r.left + g.scrollX),
      y: Math.round(r.top + g.scrollY),
      width: Math.round(r.width),
      height: Math.round(r.height),
    };
  });
  const el = doc.documentElement;
  return {
    boxes,
    width: Math.max(el.scrollWidth, g.innerWidth),
    height: Math.max(el.scrollHeight, doc.body?.scrollHeight ?? 0),
  };
}

const clampBox = (b: Box, w: number, h: number): Box | null => {
  const x = Math.max(0, b.x);
  const y = Math.max(0, b.y);
  const x2 = Math.min(w, b.x + b.width);
  const y2 = Math.min(h, b.y + b.height);
  return x2 - x >= 1 && y2 - y >= 1 ? { x, y, width: x2 - x, height: y2 - y } : null;
};

/**
 * Fewest bytes a PNG of `width` x `height` pixels (3 channels or more) can take: its signature,
 * IHDR, one IDAT, IEND and the zlib frame (63 bytes), and its filtered rows at deflate's best ratio
 * (1032:1, a 258-byte match per two bits).
 */
export const minPngBytes = (width: number, height: number): number => 63 + Math.ceil((height * (1 + 3 * width)) / 1032);

/**
 * Whether capturing the page can add a picture to the report: some failing element's box is in
 * the captured area (`width` x `height`), and the report's budget can still take a crop, or else
 * this page's full picture. Otherwise nothing would be drawn or stored, and the capture (Chromium
 * lays the page out at its full size, draws and encodes it) is skipped.
 */
export function worthCapturing(boxes: readonly (Box | null)[], width: number, height: number, budget: Budget): boolean {
  if (!boxes.some((b) => b && clampBox(b, width, height))) return false;
  return budget.crops > 0 ? budget.bytes >= minPngBytes(1, 1) : budget.bytes >= minPngBytes(width, height);
}

/** PNG compression of stored pictures: level 3 is as fast as level 1 and close to level 6 in size on screenshots. */
const PNG_OPTIONS = { compressionLevel: 3 } as const;
/** Height of a number label on the full page. */
const LABEL_HEIGHT = 18;
const labelWidth = (n: number): number => 8 + String(n).length * 8;

/**
 * The number labels 1..count, side by side in one small image (one SVG rendering for all labels of
 * a page; each is then copied next to its box).
 */
async function labelSprite(count: number): Promise<{ sprite: Raster; at: Box[] }> {
  const at: Box[] = [];
  let x = 0;
  for (let n = 1; n <= count; n++) {
    at.push({ x, y: 0, width: labelWidth(n), height: LABEL_HEIGHT });
    x += labelWidth(n);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${x}" height="${LABEL_HEIGHT}"><rect width="${x}" height="${LABEL_HEIGHT}" fill="${OUTLINE.colour}"/>${at
    .map(
      (b, i) =>
        `<text x="${b.x + 4}" y="${LABEL_HEIGHT - 4}" font-family="DejaVu Sans, sans-serif" font-size="13" font-weight="bold" fill="#fff">${i + 1}</text>`,
    )
    .join('')}</svg>`;
  return { sprite: await rasterOfSvg(svg), at };
}

type Nodes = ReportPage['violations'][number]['nodes'];

/**
 * Pictures of the failing elements: one full-page screenshot of the graded page (cut at
 * MAX_FULL_PAGE_HEIGHT) with every failing element outlined and numbered, and a crop of each
 * failing element (its box outlined, CROP_CONTEXT_PX around it). Taken from the page as graded,
 * through the same request interception (nothing is fetched again); boxes are measured in the
 * page's isolated world. Crops are cut from the one full-page capture with sharp. Stored as PNGs
 * for the report's retention; capped per report.
 */
@Injectable()
export class Screenshots {
  private readonly logger = new Logger('A11yScreenshots');
  private readonly budgets = new WeakMap<BrowserContext, Budget>();

  constructor(
    private readonly store: ScreenshotStore,
    private readonly config: AppConfig,
  ) {}

  private url(id: string): string {
    return `${this.config.publicBaseUrl()}/api/screenshots/${id}.png`;
  }

  /**
   * Measures the failing elements and captures the page (the part that needs the tab), then
   * returns the rest (crops, outlines, PNG encoding, storage), which needs only the capture: the
   * caller awaits it after closing the tab. Adds `screenshot` (full page) to the entry and `box`,
   * `marker`, `screenshot` to its violation nodes; `timings.picturesMs` counts both parts. Never
   * fails the scan.
   */
  async capture(page: Page, entry: ReportPage): Promise<() => Promise<void>> {
    const nodes = entry.violations.flatMap((v) => v.nodes);
    if (nodes.length === 0) return async () => undefined;
    const context = page.browserContext();
    let budget = this.budgets.get(context);
    if (!budget)
      this.budgets.set(context, (budget = { crops: MAX_CROPS_PER_REPORT, bytes: MAX_SCREENSHOT_BYTES_PER_REPORT }));
    const t0 = Date.now();
    let spent = 0;
    const fail = (e: unknown) => this.logger.warn(`Screenshots of ${entry.url} failed: ${(e as Error).message}`);
    let shot: { png: Uint8Array; boxes: (Box | null)[]; documentHeight: number; height: number } | undefined;
    try {
      const m = await isolatedRealm(page.mainFrame()).evaluate(
        measure,
        nodes.map((n) => n.target),
      );
      const width = Math.min(m.width, 4 * VIEWPORT_WIDTH);
      const height = Math.min(m.height, MAX_FULL_PAGE_HEIGHT);
      if (!worthCapturing(m.boxes, width, height, budget)) return async () => undefined;
      const png = await page.screenshot({
        type: 'png',
        clip: { x: 0, y: 0, width, height },
        captureBeyondViewport: true,
        optimizeForSpeed: true,
      });
      shot = { png, boxes: m.boxes, documentHeight: m.height, height };
    } catch (e) {
      fail(e);
    } finally {
      spent = Date.now() - t0;
      entry.timings.picturesMs = spent;
    }
    const taken = shot;
    if (!taken) return async () => undefined;
    return async () => {
      const t1 = Date.now();
      try {
        await this.process(entry, nodes, taken, budget);
      } catch (e) {
        fail(e);
      } finally {
        entry.timings.picturesMs = spent + (Date.now() - t1);
      }
    };
  }

  private async process(
    entry: ReportPage,
    nodes: Nodes,
    shot: { png: Uint8Array; boxes: (Box | null)[]; documentHeight: number; height: number },
    budget: Budget,
  ): Promise<void> {
    const { data, info } = await sharp(shot.png).raw().toBuffer({ resolveWithObject: true });
    const page: Raster = { data, width: info.width, height: info.height, channels: info.channels };
    const colour = rgbOf(OUTLINE.colour);
    const marked: { box: Box; marker: number }[] = [];
    const crops: { node: Nodes[number]; crop: Box; png: Promise<Buffer> }[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const box = shot.boxes[i] && clampBox(shot.boxes[i]!, page.width, page.height);
      if (!box) continue;
      const node = nodes[i];
      node.box = shot.boxes[i]!;
      node.marker = marked.length + 1;
      marked.push({ box, marker: node.marker });
      if (crops.length >= budget.crops) continue;
      const crop = clampBox(
        {
          x: box.x - CROP_CONTEXT_PX,
          y: box.y - CROP_CONTEXT_PX,
          width: box.width + 2 * CROP_CONTEXT_PX,
          height: box.height + 2 * CROP_CONTEXT_PX,
        },
        page.width,
        page.height,
      )!;
      const pixels = cropRaster(page, crop); // before any outline is drawn on the page
      strokeBox(pixels, { ...box, x: box.x - crop.x, y: box.y - crop.y }, OUTLINE.width, colour);
      const png = encodePng(pixels, PNG_OPTIONS); // encoded in parallel on the thread pool
      png.catch(() => undefined); // awaited below
      crops.push({ node, crop, png });
    }
    // The full page is drawn and encoded while the crops encode (the crops were copied first).
    let full: Promise<Buffer> | undefined;
    if (marked.length > 0) {
      const { sprite, at } = await labelSprite(marked.length);
      for (const { box } of marked) strokeBox(page, box, OUTLINE.width, colour);
      for (const { box, marker } of marked) {
        const label = at[marker - 1];
        blit(
          page,
          sprite,
          label,
          Math.max(0, Math.min(page.width - label.width, box.x - OUTLINE.width)),
          Math.max(0, box.y - 2 - LABEL_HEIGHT),
        );
      }
      full = encodePng(page, PNG_OPTIONS);
      full.catch(() => undefined); // awaited below
    }
    const saved: { id: string; png: Buffer }[] = [];
    for (const { node, crop, png: pending } of crops) {
      const png = await pending;
      if (budget.crops <= 0 || png.length > budget.bytes) {
        budget.crops = 0; // the byte cap is reached: no more pictures for this report
        continue;
      }
      budget.crops--;
      budget.bytes -= png.length;
      const id = newScreenshotId();
      saved.push({ id, png });
      node.screenshot = this.url(id);
      node.crop = crop;
    }
    if (full) {
      const png = await full;
      if (png.length <= budget.bytes) {
        budget.bytes -= png.length;
        const id = newScreenshotId();
        saved.push({ id, png });
        entry.screenshot = {
          url: this.url(id),
          width: page.width,
          height: page.height,
          cut: shot.documentHeight > shot.height,
        };
      }
    }
    await this.store.save(saved);
  }
}
