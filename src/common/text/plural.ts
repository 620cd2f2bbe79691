/**
 * A count with its noun, singular for exactly one: `plural(1, 'page')` is "1 page", `plural(0, 'page')`
 * "0 pages", `plural(2, 'reply', 'replies')` "2 replies". Every count the website and the PDF tools'
 * messages render goes through it (the website's page script has the same one-liner, checked
 * against this one in src/common/html/script-helpers.spec.ts).
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
