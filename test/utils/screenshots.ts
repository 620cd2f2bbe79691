import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';

/** WEB_SCREENSHOTS=1 writes the documentation screenshots (docs/screenshots/) from the browser e2e files. */
export const SHOTS = process.env.WEB_SCREENSHOTS === '1' ? join(__dirname, '..', '..', 'docs', 'screenshots') : null;

/** With WEB_SCREENSHOTS=1, docs/screenshots/<name>.png: what the page's viewport shows. */
export async function docShot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const png = await page.screenshot({ fullPage: false, optimizeForSpeed: true });
  // Palette PNGs: a screenshot of flat UI loses nothing visible and weighs a quarter.
  await sharp(png)
    .png({ palette: true, quality: 80, compressionLevel: 9 })
    .toFile(join(SHOTS, `${name}.png`));
}
