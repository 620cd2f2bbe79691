import { join } from 'node:path';
import { loadConfig } from '../../../common/config/env';
import { pdfFileDir } from './file-bytes.provider';

describe('pdfFileDir: where the bytes of stored PDFs go', () => {
  const db = 'postgres://postgres@127.0.0.1:5432/x';
  it('PDF_FILE_DIR when set, with any database', () => {
    expect(pdfFileDir(loadConfig({ PDF_FILE_DIR: '/srv/files', DATABASE_URL: db }))).toBe('/srv/files');
    expect(pdfFileDir(loadConfig({ PDF_FILE_DIR: '/srv/files' }))).toBe('/srv/files');
  });
  it('on PostgreSQL without it: in the database, which every instance shares', () => {
    expect(pdfFileDir(loadConfig({ DATABASE_URL: db }))).toBeUndefined();
  });
  it('on the embedded database: beside it in DATA_DIR, or in it when it is in memory', () => {
    expect(pdfFileDir(loadConfig({ DATA_DIR: '/var/lib/beacon' }))).toBe(join('/var/lib/beacon', 'pdf-files'));
    expect(pdfFileDir(loadConfig({ DATA_DIR: 'memory://' }))).toBeUndefined();
  });
});
