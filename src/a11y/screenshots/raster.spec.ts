import { blit, cropRaster, Raster, rgbOf, strokeBox } from './raster';

const blank = (width: number, height: number, channels = 3): Raster => ({
  data: Buffer.alloc(width * height * channels, 255),
  width,
  height,
  channels,
});
const at = (r: Raster, x: number, y: number) =>
  Array.from(r.data.subarray((y * r.width + x) * r.channels, (y * r.width + x + 1) * r.channels));
/** The raster as rows of '#' (red) and '.' (anything else). */
const picture = (r: Raster) =>
  Array.from({ length: r.height }, (_, y) =>
    Array.from({ length: r.width }, (_, x) => (at(r, x, y)[1] === 0 ? '#' : '.')).join(''),
  );
const RED = rgbOf('#ff0000');

describe('raster drawing for the pictures', () => {
  it('strokes a box inside its edges, the inside and outside untouched', () => {
    const r = blank(8, 6);
    strokeBox(r, { x: 1, y: 1, width: 6, height: 4 }, 1, RED);
    expect(picture(r)).toEqual(['........', '.######.', '.#....#.', '.#....#.', '.######.', '........']);
    expect(at(r, 1, 1)).toEqual([255, 0, 0]);
  });

  it('strokes wider than the box fill it; boxes over the edge are clipped; alpha is made opaque', () => {
    const r = blank(5, 4, 4);
    r.data.fill(0, 3, 4); // one transparent pixel at (0, 0)
    strokeBox(r, { x: -2, y: -1, width: 4, height: 3 }, 3, RED);
    expect(picture(r)).toEqual(['##...', '##...', '.....', '.....']);
    expect(at(r, 0, 0)).toEqual([255, 0, 0, 255]);
    strokeBox(r, { x: 3, y: 2, width: 9, height: 9 }, 1, RED);
    expect(picture(r)).toEqual(['##...', '##...', '...##', '...#.']);
  });

  it('crops a copy and copies one raster into another, clipped', () => {
    const r = blank(6, 4);
    strokeBox(r, { x: 2, y: 1, width: 2, height: 2 }, 1, RED);
    const c = cropRaster(r, { x: 1, y: 0, width: 4, height: 4 });
    expect(picture(c)).toEqual(['....', '.##.', '.##.', '....']);
    c.data.fill(0); // the crop is a copy
    expect(at(r, 0, 0)).toEqual([255, 255, 255]);
    const dst = blank(3, 3);
    const src = blank(2, 2, 4);
    strokeBox(src, { x: 0, y: 0, width: 2, height: 2 }, 1, RED);
    blit(dst, src, { x: 0, y: 0, width: 2, height: 2 }, 2, -1);
    expect(picture(dst)).toEqual(['..#', '...', '...']);
  });
});
