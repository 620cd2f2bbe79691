import { MigrationInterface, QueryRunner } from 'typeorm';

/** OCR jobs of the website (issue 23 item 2): state, progress and results, kept like the files. */
export class PdfOcrJobs1795735153564 implements MigrationInterface {
  name = 'PdfOcrJobs1795735153564';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "pdf_ocr_jobs" (
      "id" character varying(32) NOT NULL,
      "status" character varying(16) NOT NULL,
      "languages" character varying(64) NOT NULL,
      "detected_language" character varying(8),
      "source_name" character varying(255) NOT NULL,
      "input_file_id" character varying(64) NOT NULL,
      "pages" integer NOT NULL,
      "pages_done" integer NOT NULL DEFAULT 0,
      "pdf_file_id" character varying(64),
      "text_file_id" character varying(64),
      "error" character varying(32),
      "refunded" boolean,
      "ticket" jsonb NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_pdf_ocr_jobs" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_pdf_ocr_jobs_expires_at" ON "pdf_ocr_jobs" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "pdf_ocr_jobs"`);
  }
}
