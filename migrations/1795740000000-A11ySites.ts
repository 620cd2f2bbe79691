import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accessibility monitoring (issue #24, docs/a11y-monitoring.md): saved sites of a workspace and
 * their scans (progress, the summary computed when a scan ends: score, pages, grouped issues, fix
 * plan). SQL only in SitesStore; no entity.
 */
export class A11ySites1795740000000 implements MigrationInterface {
  name = 'A11ySites1795740000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "a11y_sites" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "start_url" character varying(2048) NOT NULL, "sitemap_url" character varying(2048), "urls" jsonb NOT NULL DEFAULT '[]', "include_patterns" jsonb NOT NULL DEFAULT '[]', "exclude_patterns" jsonb NOT NULL DEFAULT '[]', "page_budget" integer NOT NULL DEFAULT 100, "respect_robots" boolean NOT NULL DEFAULT true, "ignore_rules" jsonb NOT NULL DEFAULT '[]', "excluded_selectors" jsonb NOT NULL DEFAULT '[]', "schedule" character varying(16) NOT NULL DEFAULT 'off', "alert_drop" integer NOT NULL DEFAULT 5, "verification_token" character varying(64) NOT NULL, "verified_at" TIMESTAMP WITH TIME ZONE, "verified_by" character varying(16), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a11y_sites" PRIMARY KEY ("id"), CONSTRAINT "CHK_a11y_sites_schedule" CHECK ("schedule" IN ('off', 'daily', 'weekly')))`,
    );
    await q.query(`CREATE INDEX "IDX_a11y_sites_workspace" ON "a11y_sites" ("workspace_id")`);
    await q.query(
      `ALTER TABLE "a11y_sites" ADD CONSTRAINT "FK_a11y_sites_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `CREATE TABLE "a11y_site_scans" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "site_id" uuid NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'queued', "trigger" character varying(16) NOT NULL, "pages_total" integer NOT NULL DEFAULT 0, "pages_done" integer NOT NULL DEFAULT 0, "score" integer, "summary" jsonb, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a11y_site_scans" PRIMARY KEY ("id"), CONSTRAINT "CHK_a11y_site_scans_status" CHECK ("status" IN ('queued', 'running', 'done', 'failed')))`,
    );
    await q.query(`CREATE INDEX "IDX_a11y_site_scans_site_created" ON "a11y_site_scans" ("site_id", "created_at")`);
    // One queued or running scan per site: two schedules firing at once, or Run now meanwhile, make one scan.
    await q.query(
      `CREATE UNIQUE INDEX "UQ_a11y_site_scans_active" ON "a11y_site_scans" ("site_id") WHERE "status" IN ('queued', 'running')`,
    );
    await q.query(
      `ALTER TABLE "a11y_site_scans" ADD CONSTRAINT "FK_a11y_site_scans_site" FOREIGN KEY ("site_id") REFERENCES "a11y_sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "a11y_site_scans"`);
    await q.query(`DROP TABLE "a11y_sites"`);
  }
}
