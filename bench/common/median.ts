/** The median of `times` (the lower middle one of an even count), as bench/pdf reports its runs. */
export function median(times: number[]): number {
  return [...times].sort((a, b) => a - b)[Math.floor((times.length - 1) / 2)];
}
