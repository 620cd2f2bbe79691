import type { BrowserContext, Page } from 'puppeteer-core';
import sharp from 'sharp';
import type { AppConfig } from '../../common/config/env';
import type { ReportPage } from '../report/report.types';
import type { Box } from './box';
import type { ScreenshotStore } from './screenshot.store';
import {
  MAX_CROPS_PER_REPORT,
  MAX_SCREENSHOT_BYTES_PER_REPORT,
  minPngBytes,
  Screenshots,
  worthCapturing,
} from './screenshots';

const box = (x: number, y: number, width = 20, height = 10): Box => ({ x, y, width, height });
const full = { crops: MAX_CROPS_PER_REPORT, bytes: MAX_SCREENSHOT_BYTES_PER_REPORT };

describe('pictures: when the page is captured', () => {
  it('minPngBytes is below the size of the most compressible PNG (one colour, strongest compression)', async () => {
    for (const [width, height] of [
      [1, 1],
      [40, 40],
      [1280, 4000],
      [5120, 4000],
    ]) {
      const png = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(minPngBytes(width, height)).toBeLessThanOrEqual(png.length);
    }
  });

  it('captures when a failing element has a box in the captured area and the budget can take a picture', () => {
    expect(worthCapturing([null, box(100, 3990)], 1280, 4000, full)).toBe(true);
    expect(worthCapturing([box(-10, -5)], 1280, 4000, full)).toBe(true); // partly in: cut to the area
    // No crop left, but bytes for this page's full picture.
    expect(worthCapturing([box(0, 0)], 1280, 800, { crops: 0, bytes: minPngBytes(1280, 800) })).toBe(true);
  });

  it('does not capture when no failing element has a box in the captured area', () => {
    expect(worthCapturing([], 1280, 800, full)).toBe(false);
    expect(worthCapturing([null, null], 1280, 800, full)).toBe(false); // not found, or no size
    expect(worthCapturing([box(100, 4000), box(5120, 10)], 5120, 4000, full)).toBe(false); // below the cut, right of the area
  });

  it("does not capture when the report's budget can take no picture: no crop left and fewer bytes than the full page needs", () => {
    expect(worthCapturing([box(0, 0)], 1280, 800, { crops: 0, bytes: minPngBytes(1280, 800) - 1 })).toBe(false);
    expect(worthCapturing([box(0, 0)], 1280, 800, { crops: 3, bytes: minPngBytes(1, 1) - 1 })).toBe(false);
  });

  it('Screenshots.capture takes no picture of a page whose failing elements have no box, and stores nothing', async () => {
    const shots: unknown[] = [];
    const saved: unknown[] = [];
    const context = {} as BrowserContext;
    const page = {
      browserContext: () => context,
      mainFrame: () => ({
        isolatedRealm: () => ({ evaluate: async () => ({ boxes: [null], width: 1280, height: 2000 }) }),
      }),
      screenshot: async (o: unknown) => {
        shots.push(o);
        return new Uint8Array();
      },
    } as unknown as Page;
    const store = { save: async (s: unknown[]) => void saved.push(...s) } as unknown as ScreenshotStore;
    const config = { publicBaseUrl: () => 'https://beacon.test' } as unknown as AppConfig;
    const node = { target: ['#hidden'], html: '<button id="hidden"></button>' };
    const entry = {
      url: 'https://site.test/',
      violations: [{ id: 'button-name', nodes: [node] }],
      timings: { navigationMs: 1, settleMs: 1, axeMs: 1, totalMs: 0 },
    } as unknown as ReportPage;
    const rest = await new Screenshots(store, config).capture(page, entry);
    await rest();
    expect(shots).toEqual([]);
    expect(saved).toEqual([]);
    expect(node).not.toHaveProperty('box');
    expect(entry.screenshot).toBeUndefined();
    expect(entry.timings.picturesMs).toEqual(expect.any(Number));
  });
});
