import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a site's pages come from, chosen on the site form (docs/a11y-monitoring.md, "Pages of a
 * scan"): 'sitemap', 'list' or 'crawl'. Existing sites keep what they did: the sitemap when they have
 * one, else the list when it has addresses, else the crawl. SQL only in SitesStore.
 */
export class A11ySitePageSource1795749000000 implements MigrationInterface {
  name = 'A11ySitePageSource1795749000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "a11y_sites" ADD "page_source" text NOT NULL DEFAULT 'crawl'`);
    await q.query(
      `UPDATE "a11y_sites" SET "page_source" = CASE WHEN "sitemap_url" IS NOT NULL THEN 'sitemap' WHEN jsonb_array_length("urls") > 0 THEN 'list' ELSE 'crawl' END`,
    );
    await q.query(
      `ALTER TABLE "a11y_sites" ADD CONSTRAINT "CHK_a11y_sites_page_source" CHECK ("page_source" IN ('sitemap', 'list', 'crawl'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "a11y_sites" DROP CONSTRAINT "CHK_a11y_sites_page_source", DROP COLUMN "page_source"`);
  }
}
