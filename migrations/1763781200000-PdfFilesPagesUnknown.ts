import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stored file's page count is null while not known (an upload encrypted with a password: counted
 * when a tool opens it), where such rows held 0 before.
 */
export class PdfFilesPagesUnknown1763781200000 implements MigrationInterface {
  name = 'PdfFilesPagesUnknown1763781200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "pdf_files" ALTER COLUMN "pages" DROP NOT NULL`);
    await q.query(`UPDATE "pdf_files" SET "pages" = NULL WHERE "pages" = 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE "pdf_files" SET "pages" = 0 WHERE "pages" IS NULL`);
    await q.query(`ALTER TABLE "pdf_files" ALTER COLUMN "pages" SET NOT NULL`);
  }
}
