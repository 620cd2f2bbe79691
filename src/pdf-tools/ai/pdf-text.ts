import { execFile } from 'node:child_process';

/** What the AI features read from a PDF: one string per page (1-based page n is `pages[n - 1]`). */
export type PdfTextResult =
  { ok: true; pages: string[] } | { ok: false; reason: 'no_text_layer' | 'unreadable' | 'too_much_text' };

/** Longest a text extraction may take. */
const EXTRACT_TIMEOUT_MS = 60_000;
/** Most text read from one file (pdftotext's output), so a huge document cannot fill memory. */
const MAX_TEXT_BYTES = 16 * 1024 * 1024;

/**
 * The text layer of a PDF page by page, with poppler's `pdftotext` (stdin to stdout, pages ended by
 * a form feed). A file whose pages carry (almost) no text is `no_text_layer`: a scan to OCR first.
 */
export function extractPageTexts(pdf: Uint8Array): Promise<PdfTextResult> {
  return new Promise((resolve) => {
    const child = execFile(
      'pdftotext',
      ['-q', '-enc', 'UTF-8', '-', '-'],
      { timeout: EXTRACT_TIMEOUT_MS, maxBuffer: MAX_TEXT_BYTES, encoding: 'utf8' },
      (err, stdout) => {
        if (err)
          return resolve({
            ok: false,
            reason:
              (err as { code?: unknown }).code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' ? 'too_much_text' : 'unreadable',
          });
        resolve(pagesOf(stdout));
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });
}

/** pdftotext's output split into pages; `no_text_layer` when fewer than 20 letters in all. */
export function pagesOf(text: string): PdfTextResult {
  const parts = text.split('\f');
  if (parts.length > 1 && parts[parts.length - 1].trim() === '') parts.pop();
  const pages = parts.map((p) =>
    p
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  );
  const letters = pages.join('').replace(/[^\p{L}\p{N}]/gu, '').length;
  return letters < 20 ? { ok: false, reason: 'no_text_layer' } : { ok: true, pages };
}
