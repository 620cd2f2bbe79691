import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A site scan that resumes where a lost worker left it (issue #24, docs/a11y-monitoring.md, "A worker
 * killed mid-scan"): the scan's plan (its pages, what was left out, the pace, the viewports), fixed
 * when it first runs, and one row per page and viewport with the times it was started and its result,
 * written as each one finishes. SQL only in SitesStore.
 */
export class A11ySiteScanPages1795752000000 implements MigrationInterface {
  name = 'A11ySiteScanPages1795752000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "a11y_site_scans" ADD "plan" jsonb`);
    await q.query(
      `CREATE TABLE "a11y_site_scan_pages" ("scan_id" uuid NOT NULL, "idx" integer NOT NULL, "viewport" character varying(16) NOT NULL, "url" text NOT NULL, "attempts" integer NOT NULL DEFAULT 0, "result" jsonb, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a11y_site_scan_pages" PRIMARY KEY ("scan_id", "idx", "viewport"), CONSTRAINT "FK_a11y_site_scan_pages_scan" FOREIGN KEY ("scan_id") REFERENCES "a11y_site_scans"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "a11y_site_scan_pages"`);
    await q.query(`ALTER TABLE "a11y_site_scans" DROP COLUMN "plan"`);
  }
}
