import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Visibility collection (issue 22): what a workspace tracks (set in the dashboard), its scans
 * ("runs": asked by Beacon itself, then imported through the same ingest as `scan:import`) and the
 * answers each run collected before its import. At most one active run per workspace (partial
 * unique index): two "Run now" clicks make one scan.
 */
export class VisibilityCollection1795700000000 implements MigrationInterface {
  name = 'VisibilityCollection1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "vis_tracking" (
      "workspace_id" uuid NOT NULL,
      "business" character varying(200) NOT NULL,
      "brand" json NOT NULL,
      "competitors" json NOT NULL,
      "platforms" text array NOT NULL DEFAULT '{}',
      "samples" integer NOT NULL DEFAULT 1,
      "schedule" character varying(16) NOT NULL DEFAULT 'weekly',
      "budget_calls" integer NOT NULL DEFAULT 1000,
      "budget_usd" double precision NOT NULL DEFAULT 10,
      "next_prompt" integer NOT NULL DEFAULT 1,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_vis_tracking" PRIMARY KEY ("workspace_id"),
      CONSTRAINT "FK_vis_tracking_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE)`);
    await q.query(`CREATE TABLE "vis_tracked_prompts" (
      "workspace_id" uuid NOT NULL,
      "prompt_key" character varying(128) NOT NULL,
      "position" integer NOT NULL,
      "text" text NOT NULL,
      "tags" text array NOT NULL,
      "intent" character varying(64),
      "country" character varying(2),
      "enabled" boolean NOT NULL,
      CONSTRAINT "PK_vis_tracked_prompts" PRIMARY KEY ("workspace_id", "prompt_key"),
      CONSTRAINT "FK_vis_tracked_prompts_tracking" FOREIGN KEY ("workspace_id") REFERENCES "vis_tracking"("workspace_id") ON DELETE CASCADE)`);
    await q.query(
      `CREATE INDEX "IDX_vis_tracked_prompts_position" ON "vis_tracked_prompts" ("workspace_id", "position")`,
    );
    await q.query(`CREATE TABLE "vis_collect_runs" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "workspace_id" uuid NOT NULL,
      "trigger" character varying(16) NOT NULL,
      "status" character varying(16) NOT NULL,
      "scan_key" character varying(128) NOT NULL,
      "date" date NOT NULL,
      "setup" json NOT NULL,
      "planned" integer NOT NULL,
      "asked" integer NOT NULL DEFAULT 0,
      "failed" integer NOT NULL DEFAULT 0,
      "cost_usd" double precision NOT NULL DEFAULT 0,
      "budget_calls" integer NOT NULL,
      "budget_usd" double precision NOT NULL,
      "stop_reason" text,
      "error" text,
      "result" json,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "started_at" TIMESTAMP WITH TIME ZONE,
      "finished_at" TIMESTAMP WITH TIME ZONE,
      "heartbeat_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_vis_collect_runs" PRIMARY KEY ("id"),
      CONSTRAINT "FK_vis_collect_runs_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE)`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_vis_collect_runs_active" ON "vis_collect_runs" ("workspace_id") WHERE "status" IN ('queued', 'running', 'importing')`,
    );
    await q.query(`CREATE INDEX "IDX_vis_collect_runs_workspace" ON "vis_collect_runs" ("workspace_id", "created_at")`);
    await q.query(`CREATE TABLE "vis_collect_answers" (
      "run_id" uuid NOT NULL,
      "prompt_key" character varying(128) NOT NULL,
      "platform" character varying(40) NOT NULL,
      "sample" integer NOT NULL,
      "status" character varying(32) NOT NULL,
      "model" character varying(100),
      "surface" character varying(16),
      "text" text NOT NULL,
      "citations" json NOT NULL,
      "search_queries" text array NOT NULL,
      "input_tokens" integer NOT NULL DEFAULT 0,
      "output_tokens" integer NOT NULL DEFAULT 0,
      "cost_usd" double precision NOT NULL DEFAULT 0,
      "reason" text,
      "asked_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_vis_collect_answers" PRIMARY KEY ("run_id", "prompt_key", "platform", "sample"),
      CONSTRAINT "FK_vis_collect_answers_run" FOREIGN KEY ("run_id") REFERENCES "vis_collect_runs"("id") ON DELETE CASCADE)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['vis_collect_answers', 'vis_collect_runs', 'vis_tracked_prompts', 'vis_tracking'])
      await q.query(`DROP TABLE "${t}"`);
  }
}
