import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PDF results are streamed out of PostgreSQL in chunks (substring of the bytea). With EXTERNAL
 * storage (out of line, never compressed: PDFs barely compress) each chunk reads only its own
 * TOAST slices instead of decompressing the whole value.
 */
export class PdfFilesExternalStorage1763780300000 implements MigrationInterface {
  name = 'PdfFilesExternalStorage1763780300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "pdf_files" ALTER COLUMN "content" SET STORAGE EXTERNAL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "pdf_files" ALTER COLUMN "content" SET STORAGE EXTENDED`);
  }
}
