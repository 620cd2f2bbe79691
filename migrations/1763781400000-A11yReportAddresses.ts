import { MigrationInterface, QueryRunner } from 'typeorm';

/** Report id -> cache key of purged reports: the badge of an expired report falls back to its address's latest report. */
export class A11yReportAddresses1763781400000 implements MigrationInterface {
  name = 'A11yReportAddresses1763781400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "a11y_report_addresses" (
      "id" character varying(32) NOT NULL,
      "cache_key" character(64) NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_a11y_report_addresses" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_a11y_report_addresses_created" ON "a11y_report_addresses" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "a11y_report_addresses"`);
  }
}
