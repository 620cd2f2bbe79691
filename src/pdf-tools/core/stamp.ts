import { PDFPage, rgb, RGB } from 'pdf-lib';
import { ToolFailure } from './tool-failure';

/** The 9-grid positions of stamps (watermarks, page numbers). */
export const POSITIONS = [
  'top-left',
  'top-center',
  'top-right',
  'middle-left',
  'center',
  'middle-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
] as const;
export type Position = (typeof POSITIONS)[number];

/**
 * A page as the reader sees it: width and height after /Rotate, and the mapping from those
 * visible coordinates to the page's own (unrotated) coordinates. Drawing in page space at
 * `angle + rotation` then appears upright at `angle`.
 */
export interface VisibleFrame {
  width: number;
  height: number;
  rotation: number;
  toPage(x: number, y: number): { x: number; y: number };
}

export function visibleFrame(page: PDFPage): VisibleFrame {
  const box = page.getCropBox();
  const rotation = ((page.getRotation().angle % 360) + 360) % 360;
  const { x: ox, y: oy, width: w, height: h } = box;
  switch (rotation) {
    case 90:
      return { width: h, height: w, rotation, toPage: (x, y) => ({ x: ox + w - y, y: oy + x }) };
    case 180:
      return { width: w, height: h, rotation, toPage: (x, y) => ({ x: ox + w - x, y: oy + h - y }) };
    case 270:
      return { width: h, height: w, rotation, toPage: (x, y) => ({ x: ox + y, y: oy + h - x }) };
    default:
      return { width: w, height: h, rotation: 0, toPage: (x, y) => ({ x: ox + x, y: oy + y }) };
  }
}

/** Size of a w x h box rotated by `angle` degrees (its axis-aligned bounding box). */
export function rotatedExtent(w: number, h: number, angle: number): { width: number; height: number } {
  const a = (angle * Math.PI) / 180;
  const c = Math.abs(Math.cos(a));
  const s = Math.abs(Math.sin(a));
  return { width: w * c + h * s, height: w * s + h * c };
}

/** Visible coordinates of the centre of a box of `extent` at `position` with `margin`. */
export function anchor(
  frame: VisibleFrame,
  position: Position,
  extent: { width: number; height: number },
  margin: number,
): { x: number; y: number } {
  const [row, col] = position === 'center' ? ['middle', 'center'] : position.split('-');
  const x =
    col === 'left'
      ? margin + extent.width / 2
      : col === 'right'
        ? frame.width - margin - extent.width / 2
        : frame.width / 2;
  const y =
    row === 'top'
      ? frame.height - margin - extent.height / 2
      : row === 'bottom'
        ? margin + extent.height / 2
        : frame.height / 2;
  return { x, y };
}

/**
 * Page-space origin (lower-left corner before rotation) and rotation for drawing a w x h box
 * whose centre appears at visible (cx, cy), turned by `angle` (counter-clockwise, as seen).
 */
export function placeBox(
  frame: VisibleFrame,
  cx: number,
  cy: number,
  w: number,
  h: number,
  angle: number,
): { x: number; y: number; rotate: number } {
  const a = (angle * Math.PI) / 180;
  // The origin is the centre minus the rotated half-diagonal.
  const vx = cx - ((w / 2) * Math.cos(a) - (h / 2) * Math.sin(a));
  const vy = cy - ((w / 2) * Math.sin(a) + (h / 2) * Math.cos(a));
  const p = frame.toPage(vx, vy);
  return { x: p.x, y: p.y, rotate: angle + frame.rotation };
}

/** "#RRGGBB" or "RRGGBB" -> pdf-lib colour. */
export function parseColor(hex: string): RGB {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new ToolFailure('invalid_arguments', `Colour "${hex}" is not a #RRGGBB hex colour (e.g. "#808080").`);
  const n = parseInt(m[1], 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}
