import { MigrationInterface, QueryRunner } from 'typeorm';

/** PDF tools: stored results, quota counters, anonymous daily success counts. */
export class PdfTools1763769700000 implements MigrationInterface {
  name = 'PdfTools1763769700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "pdf_files" (
      "id" character varying(64) NOT NULL,
      "filename" character varying(255) NOT NULL,
      "content" bytea NOT NULL,
      "size" integer NOT NULL,
      "pages" integer NOT NULL,
      "sha256" character(64) NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_pdf_files" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_pdf_files_expires_at" ON "pdf_files" ("expires_at")`);
    await q.query(`CREATE TABLE "pdf_quota_usage" (
      "day" date NOT NULL,
      "subject" character varying(80) NOT NULL,
      "tool" character varying(40) NOT NULL,
      "used" integer NOT NULL DEFAULT 0,
      CONSTRAINT "PK_pdf_quota_usage" PRIMARY KEY ("day", "subject", "tool"))`);
    await q.query(`CREATE TABLE "pdf_daily_stats" (
      "day" date NOT NULL,
      "tool" character varying(40) NOT NULL,
      "success" integer NOT NULL DEFAULT 0,
      CONSTRAINT "PK_pdf_daily_stats" PRIMARY KEY ("day", "tool"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "pdf_daily_stats"`);
    await q.query(`DROP TABLE "pdf_quota_usage"`);
    await q.query(`DROP TABLE "pdf_files"`);
  }
}
