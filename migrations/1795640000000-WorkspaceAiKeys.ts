import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue #22: a workspace's own AI platform keys, sealed with the instance secret (docs/ai-providers.md). */
export class WorkspaceAiKeys1795640000000 implements MigrationInterface {
  name = 'WorkspaceAiKeys1795640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "workspace_ai_keys" ("workspace_id" uuid NOT NULL, "platform" character varying(32) NOT NULL, "sealed" text NOT NULL, "updated_by" character varying(254), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_workspace_ai_keys" PRIMARY KEY ("workspace_id", "platform"))`,
    );
    await q.query(
      `ALTER TABLE "workspace_ai_keys" ADD CONSTRAINT "FK_workspace_ai_keys_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "workspace_ai_keys"`);
  }
}
