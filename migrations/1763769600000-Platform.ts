import { MigrationInterface, QueryRunner } from 'typeorm';

/** Workspaces and API keys. */
export class Platform1763769600000 implements MigrationInterface {
  name = 'Platform1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "workspaces" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "slug" character varying(64) NOT NULL,
      "name" character varying(200) NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "UQ_workspaces_slug" UNIQUE ("slug"),
      CONSTRAINT "PK_workspaces" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "api_keys" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "workspace_id" uuid NOT NULL,
      "label" character varying(200),
      "prefix" character varying(16) NOT NULL,
      "key_hash" character(64) NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "last_used_at" TIMESTAMP WITH TIME ZONE,
      "revoked_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "UQ_api_keys_key_hash" UNIQUE ("key_hash"),
      CONSTRAINT "PK_api_keys" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_api_keys_workspace" ON "api_keys" ("workspace_id")`);
    await q.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "FK_api_keys_workspace" FOREIGN KEY ("workspace_id")
      REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "api_keys"`);
    await q.query(`DROP TABLE "workspaces"`);
  }
}
