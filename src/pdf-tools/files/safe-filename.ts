/**
 * The kinds of stored files and their media types: PDFs (uploads and the tools' results), and the
 * website's conversions (page images, their ZIP, OCR text). A file's kind is its name's extension.
 */
export const FILE_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
} as const;
export type FileExt = keyof typeof FILE_TYPES;

/** The media type a stored file is served with, from its name's extension (PDF for anything else). */
export function contentTypeOf(filename: string): string {
  const ext = /\.([a-z]+)$/i.exec(filename)?.[1].toLowerCase();
  return ext && ext in FILE_TYPES ? FILE_TYPES[ext as FileExt] : FILE_TYPES.pdf;
}

/** File names as we hand them out: no paths or control characters, ending in .pdf (or `.${ext}`). */
export function safeFilename(name: string, ext: FileExt = 'pdf'): string {
  const base = name
    .replace(/[\\/]+/g, '_')
    .replace(/["\p{Cc}]/gu, '')
    .trim()
    .slice(0, 200);
  const withExt = new RegExp(`\\.${ext}$`, 'i').test(base) ? base : `${base || 'document'}.${ext}`;
  return withExt.startsWith('.') ? `document${withExt}` : withExt;
}
