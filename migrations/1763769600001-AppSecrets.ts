import { MigrationInterface, QueryRunner } from 'typeorm';

/** Deployment secrets generated on first use (e.g. the key of the quota IP hash). */
export class AppSecrets1763769600001 implements MigrationInterface {
  name = 'AppSecrets1763769600001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "app_secrets" (
      "name" character varying(64) NOT NULL,
      "value" character varying(128) NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_app_secrets" PRIMARY KEY ("name"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "app_secrets"`);
  }
}
