import { ocrText, skipsPages } from './sidecar';

const texts = ['', 'First page words', 'Second page words', 'Third', 'Fourth page words'];
const pageText = (n: number): string => texts[n] ?? '';

describe('the OCR text file from the sidecar', () => {
  it('is the sidecar with blank lines between pages when no page was skipped', () => {
    const sidecar = 'One\n\fTwo\n';
    expect(skipsPages(sidecar)).toBe(false);
    expect(ocrText(sidecar, pageText)).toBe('One\n\n\nTwo\n');
  });

  it('puts each skipped page’s own text where ocrmypdf left its marker', () => {
    // What ocrmypdf 16 wrote for pages 1-2 with text, 3 scanned, 4 with text, 5 scanned.
    const sidecar = '[OCR skipped on page(s) 1-2]\fThird\n\f[OCR skipped on page(s) 4]\fFifth\n';
    expect(skipsPages(sidecar)).toBe(true);
    const text = ocrText(sidecar, pageText);
    expect(text).not.toContain('OCR skipped');
    expect(text.split('\n\n').map((p) => p.trim())).toEqual([
      'First page words',
      'Second page words',
      'Third',
      'Fourth page words',
      'Fifth',
    ]);
  });

  it('leaves a skipped page empty when its text could not be read', () => {
    expect(ocrText('[OCR skipped on page(s) 7]', () => '').trim()).toBe('');
  });
});
