import sharp, { type PngOptions } from 'sharp';
import type { Box } from './box';

/** Decoded pixels (8 bits per channel, 3 or 4 channels, rows top to bottom). */
export interface Raster {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

export type Rgb = readonly [number, number, number];

/** `#rrggbb` as numbers. */
export const rgbOf = (hex: string): Rgb => [
  parseInt(hex.slice(1, 3), 16),
  parseInt(hex.slice(3, 5), 16),
  parseInt(hex.slice(5, 7), 16),
];

function setPixel(r: Raster, x: number, y: number, c: Rgb): void {
  const i = (y * r.width + x) * r.channels;
  r.data[i] = c[0];
  r.data[i + 1] = c[1];
  r.data[i + 2] = c[2];
  if (r.channels === 4) r.data[i + 3] = 255;
}

/**
 * Outlines `b` (clipped to the raster) with a stroke `width` pixels wide drawn inside the box, in
 * place. Drawing into the decoded pixels costs microseconds; compositing one SVG per box with
 * sharp costs a pass over the whole page each.
 */
export function strokeBox(r: Raster, b: Box, width: number, c: Rgb): void {
  const x0 = Math.max(0, b.x);
  const y0 = Math.max(0, b.y);
  const x1 = Math.min(r.width, b.x + b.width) - 1;
  const y1 = Math.min(r.height, b.y + b.height) - 1;
  for (let y = y0; y <= y1; y++) {
    const edgeRow = y - b.y < width || b.y + b.height - 1 - y < width;
    for (let x = x0; x <= x1; x++) {
      if (edgeRow || x - b.x < width || b.x + b.width - 1 - x < width) setPixel(r, x, y, c);
      else if (x < x1 - width) x = x1 - width; // skip the inside of the row
    }
  }
}

/** A copy of the area `b` (inside the raster). */
export function cropRaster(r: Raster, b: Box): Raster {
  const row = b.width * r.channels;
  const data = Buffer.allocUnsafe(row * b.height);
  for (let y = 0; y < b.height; y++) {
    const from = ((b.y + y) * r.width + b.x) * r.channels;
    r.data.copy(data, y * row, from, from + row);
  }
  return { data, width: b.width, height: b.height, channels: r.channels };
}

/** Copies opaque pixels of `src` (area `from`) to (x, y) of `dst`, clipped to `dst`. */
export function blit(dst: Raster, src: Raster, from: Box, x: number, y: number): void {
  for (let dy = 0; dy < from.height; dy++) {
    const ty = y + dy;
    if (ty < 0 || ty >= dst.height) continue;
    for (let dx = 0; dx < from.width; dx++) {
      const tx = x + dx;
      if (tx < 0 || tx >= dst.width) continue;
      const i = ((from.y + dy) * src.width + from.x + dx) * src.channels;
      setPixel(dst, tx, ty, [src.data[i], src.data[i + 1], src.data[i + 2]]);
    }
  }
}

/** PNG of a raster. */
export const encodePng = (r: Raster, options: PngOptions): Promise<Buffer> =>
  sharp(r.data, { raw: { width: r.width, height: r.height, channels: r.channels as 3 | 4 } })
    .png(options)
    .toBuffer();

/** Renders an SVG to a raster (4 channels). */
export async function rasterOfSvg(svg: string): Promise<Raster> {
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}
