/**
 * The OCR job's plain text from ocrmypdf's sidecar (`--sidecar`). Its pages are separated by form
 * feeds; a run of pages that already had text (`--skip-text`) stands there as one marker such as
 * "[OCR skipped on page(s) 1-3]" instead of their words. Those pages' own text (read by
 * `pdftotext`) takes the marker's place, so the text file has every page's words; pages are
 * separated by a blank line.
 */
const SKIPPED = /^\s*\[OCR skipped on page\(s\) (\d+)(?:-(\d+))?\]\s*$/;

/** Whether the sidecar names pages it left out (then their text must be read from the PDF). */
export function skipsPages(sidecar: string): boolean {
  return sidecar.split('\f').some((part) => SKIPPED.test(part));
}

/** The text file: each sidecar part, a skipped run replaced by `pageText(n)` of each of its pages. */
export function ocrText(sidecar: string, pageText: (page: number) => string): string {
  const out: string[] = [];
  for (const part of sidecar.split('\f')) {
    const skipped = SKIPPED.exec(part);
    if (!skipped) {
      out.push(part);
      continue;
    }
    const first = Number(skipped[1]);
    const last = Number(skipped[2] ?? skipped[1]);
    for (let n = first; n <= last; n++) out.push(`${pageText(n)}\n`);
  }
  return out.join('\n\n');
}
