import { MigrationInterface, QueryRunner } from 'typeorm';

/** Accessibility scan reports. */
export class A11y1763769800000 implements MigrationInterface {
  name = 'A11y1763769800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "a11y_reports" (
      "id" character varying(32) NOT NULL,
      "url" text NOT NULL,
      "crawl" boolean NOT NULL,
      "cache_key" character(64) NOT NULL,
      "score" smallint NOT NULL,
      "report" jsonb NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_a11y_reports" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_a11y_reports_cache" ON "a11y_reports" ("cache_key", "created_at")`);
    await q.query(`CREATE INDEX "IDX_a11y_reports_expires" ON "a11y_reports" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "a11y_reports"`);
  }
}
