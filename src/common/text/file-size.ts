/**
 * A byte count as people read it: kilobytes below one megabyte (at least "1 KB"), else megabytes
 * to one decimal ("10 MB", "2.5 MB"). Every size the website and the PDF tools' texts show goes
 * through it (the website's page script has the same one-liner, checked against this one in
 * src/common/html/script-helpers.spec.ts).
 */
export function fileSize(n: number): string {
  return n < 1048576 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${Math.round(n / 104857.6) / 10} MB`;
}
