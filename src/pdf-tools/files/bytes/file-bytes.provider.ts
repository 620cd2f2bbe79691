import { Provider } from '@nestjs/common';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../common/config/env';
import { MEMORY_DATA_DIR } from '../../../common/database/embedded-postgres';
import { DirectoryFileBytes } from './directory-file-bytes';
import { FILE_BYTES, FileBytes } from './file-bytes';
import { PostgresFileBytes } from './postgres-file-bytes';

/**
 * The folder for the bytes of stored PDFs: PDF_FILE_DIR when set; on the embedded database (one
 * instance by construction) DATA_DIR/pdf-files beside it; otherwise none: the bytes go into the
 * database, which every instance shares.
 */
export function pdfFileDir(config: AppConfig): string | undefined {
  if (config.PDF_FILE_DIR) return config.PDF_FILE_DIR;
  if (config.embedded && config.DATA_DIR !== MEMORY_DATA_DIR) return join(config.DATA_DIR, 'pdf-files');
  return undefined;
}

/** Where this deployment keeps the bytes of stored PDFs (see {@link pdfFileDir}). */
export const fileBytesProvider: Provider = {
  provide: FILE_BYTES,
  inject: [AppConfig, DataSource],
  useFactory: (config: AppConfig, db: DataSource): FileBytes => {
    const dir = pdfFileDir(config);
    return dir ? new DirectoryFileBytes(dir) : new PostgresFileBytes(db);
  },
};
