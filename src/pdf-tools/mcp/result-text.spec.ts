import { describeOpenNotes } from '../core/pdf-open';
import type { StoredFileInfo } from '../tools/tool';
import { clip, resultText, TEXT_MAX_BYTES } from './result-text';

const file = (i: number): StoredFileInfo => ({
  file_id: `${'f'.repeat(40)}${String(i).padStart(3, '0')}`,
  download_url: `https://pdf.example.com/files/${'f'.repeat(40)}${String(i).padStart(3, '0')}`,
  expires_at: '2026-11-24T15:00:00.000Z',
  filename: `report-split-${i + 1}.pdf`,
  bytes: 1234,
  pages: 1,
  sha256: 'a'.repeat(64),
});
const size = (s: string) => Buffer.byteLength(s);

describe('resultText', () => {
  it('one file: summary, then its link and file_id, quota, note', () => {
    const text = resultText({
      summary: 'Rotated 3 pages by 90 degrees.',
      files: [file(0)],
      quota: 'Quota: 9 of 10 left.',
      note: 'File had 44 bytes before its %PDF- header; they were ignored.',
    });
    expect(text.split('\n')).toEqual([
      'Rotated 3 pages by 90 degrees.',
      `report-split-1.pdf: ${file(0).download_url} (file_id ${file(0).file_id}, 1 page, 1234 bytes, until 2026-11-24T15:00:00.000Z)`,
      'Quota: 9 of 10 left.',
      'File had 44 bytes before its %PDF- header; they were ignored.',
    ]);
  });

  it('several files: every link when they fit; else as many as fit and how many more', () => {
    const three = resultText({
      summary: 'Split into 3 documents.',
      files: [0, 1, 2].map(file),
      quota: 'Quota: 9 of 10 left.',
    });
    for (const i of [0, 1, 2])
      expect(three).toContain(
        `${i + 1}. report-split-${i + 1}.pdf: ${file(i).download_url} (file_id ${file(i).file_id}, 1 page)`,
      );
    expect(three).not.toContain('more file');
    const many = resultText({
      summary: 'Split into 200 documents.',
      files: Array.from({ length: 200 }, (_, i) => file(i)),
      quota: 'Quota: 9 of 10 left.',
      note: 'x. '.repeat(300),
    });
    expect(size(many)).toBeLessThanOrEqual(TEXT_MAX_BYTES);
    const shown = many.split('\n').filter((l) => /^\d+\. /.test(l)).length;
    expect(shown).toBeGreaterThanOrEqual(3);
    expect(many).toContain(`…and ${200 - shown} more files: see structuredContent.files.`);
    expect(many).toMatch(/Quota: 9 of 10 left\./);
  });

  it('a long note is cut at a sentence and says where the rest is; multi-byte text stays under the byte budget', () => {
    const note = Array.from({ length: 40 }, (_, i) => `Файл ${i} был повреждён и восстановлен.`).join(' ');
    const text = resultText({
      summary: 'Заголовок '.repeat(100),
      files: [file(0)],
      quota: 'Quota: 9 of 10 left.',
      note,
    });
    expect(size(text)).toBeLessThanOrEqual(TEXT_MAX_BYTES);
    expect(text).toContain(file(0).file_id);
    expect(text).toMatch(/восстановлен\. \(the whole note is in structuredContent\.note\)$/);
  });

  it('clip cuts at a character boundary', () => {
    expect(clip('ééé', 5)).toBe('é…');
    expect(clip('abc', 3)).toBe('abc');
  });
});

describe('describeOpenNotes', () => {
  it('says the same note about several inputs once, with their indexes as ranges, each sentence capitalised', () => {
    const enc = (label: string) => ({ label, one: 'was encrypted.', many: 'were encrypted.' });
    const notes = [
      ...Array.from({ length: 20 }, (_, i) => enc(`files[${i}]`)),
      { label: 'files[3]', one: 'had 2 bytes before.', many: 'had 2 bytes before.' },
    ];
    expect(describeOpenNotes(notes)).toEqual(['Files[0..19] were encrypted.', 'Files[3] had 2 bytes before.']);
    expect(describeOpenNotes([enc('files[0] (a.pdf)'), enc('files[2]'), enc('files[3]'), enc('files[7]')])).toEqual([
      'Files[0, 2..3, 7] were encrypted.',
    ]);
    expect(describeOpenNotes([enc('file')])).toEqual(['File was encrypted.']);
  });
});
