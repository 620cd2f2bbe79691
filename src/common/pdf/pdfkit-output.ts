/**
 * The bytes a PDFKit document writes, as one Buffer once it ends. Call it before drawing into the
 * document, then `doc.end()` and await the promise; it rejects when the document fails.
 */
export function pdfkitOutput(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
