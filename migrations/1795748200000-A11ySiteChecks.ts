import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a site scan checks beyond the first slice (issue #24, docs/a11y-monitoring.md): the viewports
 * each page is scanned at, the 320 px reflow check and the keyboard walk (both off for existing
 * sites), and the login steps (jsonb; field values sealed with SecretBox). SQL only in SitesStore.
 */
export class A11ySiteChecks1795748200000 implements MigrationInterface {
  name = 'A11ySiteChecks1795748200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "a11y_sites" ADD "viewports" jsonb NOT NULL DEFAULT '["desktop"]', ADD "reflow_check" boolean NOT NULL DEFAULT false, ADD "keyboard_walk" boolean NOT NULL DEFAULT false, ADD "login" jsonb`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "a11y_sites" DROP COLUMN "login", DROP COLUMN "keyboard_walk", DROP COLUMN "reflow_check", DROP COLUMN "viewports"`,
    );
  }
}
