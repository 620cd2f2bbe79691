import { plural } from './plural';

/** A wait or a window in words: "5 seconds" under two minutes, then "2 minutes" (rounded up). */
export function waitWords(seconds: number): string {
  return seconds < 120 ? plural(Math.max(1, Math.ceil(seconds)), 'second') : plural(Math.ceil(seconds / 60), 'minute');
}
