import { MigrationInterface, QueryRunner } from 'typeorm';

/** Screenshots of accessibility scans (element crops and annotated full pages), kept as long as reports. */
export class A11yScreenshots1763780800000 implements MigrationInterface {
  name = 'A11yScreenshots1763780800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "a11y_screenshots" (
      "id" character varying(32) NOT NULL,
      "png" bytea NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_a11y_screenshots" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_a11y_screenshots_expires" ON "a11y_screenshots" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "a11y_screenshots"`);
  }
}
