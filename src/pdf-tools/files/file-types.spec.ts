import { contentTypeOf, safeFilename } from './file-store.service';

describe('stored file kinds', () => {
  it('names uploads and tool results .pdf, and the conversions by their kind', () => {
    expect(safeFilename('report')).toBe('report.pdf');
    expect(safeFilename('photo.png')).toBe('photo.png.pdf');
    expect(safeFilename('report-page-2.png', 'png')).toBe('report-page-2.png');
    expect(safeFilename('report-images', 'zip')).toBe('report-images.zip');
    expect(safeFilename('../x.txt', 'txt')).toBe('document.._x.txt');
  });

  it('serves each kind with its media type, anything else as a PDF', () => {
    expect(contentTypeOf('a.pdf')).toBe('application/pdf');
    expect(contentTypeOf('a.PNG')).toBe('image/png');
    expect(contentTypeOf('a.jpg')).toBe('image/jpeg');
    expect(contentTypeOf('a.zip')).toBe('application/zip');
    expect(contentTypeOf('a.txt')).toBe('text/plain; charset=utf-8');
    expect(contentTypeOf('a.html')).toBe('application/pdf');
    expect(contentTypeOf('noext')).toBe('application/pdf');
  });
});
