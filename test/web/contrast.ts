/** WCAG 2.x contrast of two colours, from CSS hex ("#b45309", "#fff") or computed "rgb(r, g, b)" values. */
export function rgbOf(css: string): [number, number, number] {
  const s = css.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(s);
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(s);
  if (rgb && (rgb[4] === undefined || Number(rgb[4]) === 1)) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`not an opaque colour: ${css}`);
}

/** Relative luminance (WCAG 2.x). */
export function luminance(css: string): number {
  const [r, g, b] = rgbOf(css).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio (1 to 21) of two colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
