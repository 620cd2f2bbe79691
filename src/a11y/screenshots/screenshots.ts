import { Injectable, Logger } from '@nestjs/common';
import type { BrowserContext, Page } from 'puppeteer-core';
import sharp from 'sharp';
import { AppConfig } from '../../common/config/env';
import type { ReportPage } from '../report/report.types';
import type { Box } from './box';
import { newScreenshotId, ScreenshotStore } from './screenshot-store';

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
interface Budget {
  crops: number;
  bytes: number;
}

/** Runs in the page: document boxes of top-document elements (null if not found or not visible) and the document size. */
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
    return { x: Math.round(r.left + g.scrollX), y: Math.round(r.top + g.scrollY), width: Math.round(r.width), height: Math.round(r.height) };
  });
  const el = doc.documentElement;
  return { boxes, width: Math.max(el.scrollWidth, g.innerWidth), height: Math.max(el.scrollHeight, doc.body?.scrollHeight ?? 0) };
}

const clampBox = (b: Box, w: number, h: number): Box | null => {
  const x = Math.max(0, b.x);
  const y = Math.max(0, b.y);
  const x2 = Math.min(w, b.x + b.width);
  const y2 = Math.min(h, b.y + b.height);
  return x2 - x >= 1 && y2 - y >= 1 ? { x, y, width: x2 - x, height: y2 - y } : null;
};

const rectSvg = (b: Box, dx = 0, dy = 0): string =>
  `<rect x="${b.x - dx + OUTLINE.width / 2}" y="${b.y - dy + OUTLINE.width / 2}" width="${Math.max(1, b.width - OUTLINE.width)}" height="${Math.max(1, b.height - OUTLINE.width)}" fill="none" stroke="${OUTLINE.colour}" stroke-width="${OUTLINE.width}"/>`;

/**
 * Pictures of the failing elements: one full-page screenshot of the graded page (cut at
 * MAX_FULL_PAGE_HEIGHT) with every failing element outlined and numbered, and a crop of each
 * failing element (its box outlined, CROP_CONTEXT_PX around it). Taken from the page as graded,
 * through the same request interception (nothing is fetched again). Crops are cut from the one
 * full-page capture with sharp. Stored as PNGs for the report's retention; capped per report.
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

  /** Adds `screenshot` (full page) to the entry and `box`, `marker`, `screenshot` to its violation nodes. Never fails the scan. */
  async capture(page: Page, entry: ReportPage): Promise<void> {
    const nodes = entry.violations.flatMap((v) => v.nodes);
    if (nodes.length === 0) return;
    const context = page.browserContext();
    let budget = this.budgets.get(context);
    if (!budget) this.budgets.set(context, (budget = { crops: MAX_CROPS_PER_REPORT, bytes: MAX_SCREENSHOT_BYTES_PER_REPORT }));
    const t0 = Date.now();
    try {
      await this.take(page, entry, nodes, budget);
    } catch (e) {
      this.logger.warn(`Screenshots of ${entry.url} failed: ${(e as Error).message}`);
    } finally {
      entry.timings.picturesMs = Date.now() - t0;
    }
  }

  private async take(page: Page, entry: ReportPage, nodes: ReportPage['violations'][number]['nodes'], budget: Budget): Promise<void> {
    const m = await page.evaluate(measure, nodes.map((n) => n.target));
    const width = Math.min(m.width, 4 * 1280);
    const height = Math.min(m.height, MAX_FULL_PAGE_HEIGHT);
    const shot = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width, height }, captureBeyondViewport: true, optimizeForSpeed: true });
    const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const saved: { id: string; png: Buffer }[] = [];
    const boxes: { box: Box; marker: number }[] = [];
    let marker = 0;
    for (let i = 0; i < nodes.length; i++) {
      const box = m.boxes[i] && clampBox(m.boxes[i]!, info.width, info.height);
      if (!box) continue;
      const node = nodes[i];
      node.box = m.boxes[i]!;
      node.marker = ++marker;
      boxes.push({ box, marker });
      if (budget.crops <= 0) continue;
      const crop = clampBox({ x: box.x - CROP_CONTEXT_PX, y: box.y - CROP_CONTEXT_PX, width: box.width + 2 * CROP_CONTEXT_PX, height: box.height + 2 * CROP_CONTEXT_PX }, info.width, info.height)!;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${crop.width}" height="${crop.height}">${rectSvg(box, crop.x, crop.y)}</svg>`;
      const png = await sharp(data, raw)
        .extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height })
        .composite([{ input: Buffer.from(svg), left: 0, top: 0 }])
        .png({ compressionLevel: 6 })
        .toBuffer();
      if (png.length > budget.bytes) {
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
    if (boxes.length > 0) {
      const labels = boxes
        .map(({ box, marker: n }) => {
          const lx = Math.max(0, box.x - OUTLINE.width);
          const ly = Math.max(18, box.y - 2);
          const w = 8 + String(n).length * 8;
          return `${rectSvg(box)}<rect x="${lx}" y="${ly - 18}" width="${w}" height="18" fill="${OUTLINE.colour}"/><text x="${lx + 4}" y="${ly - 4}" font-family="DejaVu Sans, sans-serif" font-size="13" font-weight="bold" fill="#fff">${n}</text>`;
        })
        .join('');
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${info.width}" height="${info.height}">${labels}</svg>`;
      const full = await sharp(data, raw).composite([{ input: Buffer.from(svg), left: 0, top: 0 }]).png({ compressionLevel: 6 }).toBuffer();
      if (full.length <= budget.bytes) {
        budget.bytes -= full.length;
        const id = newScreenshotId();
        saved.push({ id, png: full });
        entry.screenshot = { url: this.url(id), width: info.width, height: info.height, cut: m.height > height };
      }
    }
    await this.store.save(saved);
  }
}
