/** Where an element is, in document coordinates (CSS pixels). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Width of the scan's viewport (the scanner's VIEWPORT): full-page pictures are at most 4 of it wide. */
export const VIEWPORT_WIDTH = 1280;
