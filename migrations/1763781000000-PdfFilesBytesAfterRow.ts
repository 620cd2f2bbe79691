import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stored file's row is inserted first and its bytes written right after (FileStoreService):
 * `content` is null in between.
 */
export class PdfFilesBytesAfterRow1763781000000 implements MigrationInterface {
  name = 'PdfFilesBytesAfterRow1763781000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "pdf_files" ALTER COLUMN "content" DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "pdf_files" WHERE "content" IS NULL`);
    await q.query(`ALTER TABLE "pdf_files" ALTER COLUMN "content" SET NOT NULL`);
  }
}
