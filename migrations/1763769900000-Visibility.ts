import { MigrationInterface, QueryRunner } from 'typeorm';

/** Visibility reporting: projects, prompts, scans and the rows derived from each scan at ingest. */
export class Visibility1763769900000 implements MigrationInterface {
  name = 'Visibility1763769900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "vis_projects" (
      "workspace_id" uuid NOT NULL,
      "business" character varying(200) NOT NULL,
      "brand" json NOT NULL,
      "competitors" json NOT NULL,
      "latest_scan_id" uuid,
      "scans_total" integer NOT NULL DEFAULT 0,
      "version" integer NOT NULL DEFAULT 0,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "REL_vis_projects_workspace" UNIQUE ("workspace_id"),
      CONSTRAINT "PK_vis_projects" PRIMARY KEY ("workspace_id"))`);
    await q.query(`CREATE TABLE "vis_scans" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "workspace_id" uuid NOT NULL,
      "scan_key" character varying(128) NOT NULL,
      "date" date NOT NULL,
      "platforms" text array NOT NULL,
      "content_hash" character(64) NOT NULL,
      "summary" json NOT NULL,
      "changes" json,
      "imported_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "UQ_vis_scans_workspace_key" UNIQUE ("workspace_id", "scan_key"),
      CONSTRAINT "PK_vis_scans" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_vis_scans_workspace_date" ON "vis_scans" ("workspace_id", "date", "scan_key")`);
    await q.query(`CREATE TABLE "vis_prompts" (
      "workspace_id" uuid NOT NULL,
      "prompt_key" character varying(128) NOT NULL,
      "text" text NOT NULL,
      "tags" text array NOT NULL,
      "intent" character varying(64),
      "country" character varying(2),
      "enabled" boolean NOT NULL,
      "latest_answers" integer,
      "latest_mentions" integer,
      CONSTRAINT "PK_vis_prompts" PRIMARY KEY ("workspace_id", "prompt_key"))`);
    await q.query(`CREATE TABLE "vis_answers" (
      "scan_id" uuid NOT NULL,
      "seq" integer NOT NULL,
      "prompt_key" character varying(128) NOT NULL,
      "platform" character varying(40) NOT NULL,
      "model" character varying(100),
      "status" character varying(32) NOT NULL,
      "text" text NOT NULL,
      "citations" text array NOT NULL,
      "brand_mentioned" boolean NOT NULL,
      "brand_position" integer,
      "competitor_mentions" jsonb NOT NULL,
      "cites_owned" boolean NOT NULL,
      CONSTRAINT "PK_vis_answers" PRIMARY KEY ("scan_id", "seq"))`);
    await q.query(`CREATE TABLE "vis_sources" (
      "scan_id" uuid NOT NULL,
      "domain" character varying(253) NOT NULL,
      "category" character varying(16) NOT NULL,
      "citations" integer NOT NULL,
      "answers" integer NOT NULL,
      "prompts" integer NOT NULL,
      "urls" integer NOT NULL,
      "platforms" text array NOT NULL,
      CONSTRAINT "PK_vis_sources" PRIMARY KEY ("scan_id", "domain"))`);
    await q.query(`CREATE TABLE "vis_urls" (
      "scan_id" uuid NOT NULL,
      "url" text NOT NULL,
      "domain" character varying(253) NOT NULL,
      "category" character varying(16) NOT NULL,
      "citations" integer NOT NULL,
      "answers" integer NOT NULL,
      "prompts" integer NOT NULL,
      "platforms" text array NOT NULL,
      CONSTRAINT "PK_vis_urls" PRIMARY KEY ("scan_id", "url"))`);
    await q.query(`CREATE TABLE "vis_gaps" (
      "scan_id" uuid NOT NULL,
      "url" text NOT NULL,
      "domain" character varying(253) NOT NULL,
      "category" character varying(16) NOT NULL,
      "answers" integer NOT NULL,
      "competitors" text array NOT NULL,
      "prompts" text array NOT NULL,
      "platforms" text array NOT NULL,
      CONSTRAINT "PK_vis_gaps" PRIMARY KEY ("scan_id", "url"))`);
    const fk = (table: string, name: string, column: string, ref: string) =>
      q.query(`ALTER TABLE "${table}" ADD CONSTRAINT "${name}" FOREIGN KEY ("${column}")
        REFERENCES "${ref}"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await fk('vis_projects', 'FK_vis_projects_workspace', 'workspace_id', 'workspaces');
    await fk('vis_scans', 'FK_vis_scans_workspace', 'workspace_id', 'workspaces');
    await fk('vis_prompts', 'FK_vis_prompts_workspace', 'workspace_id', 'workspaces');
    await fk('vis_answers', 'FK_vis_answers_scan', 'scan_id', 'vis_scans');
    await fk('vis_sources', 'FK_vis_sources_scan', 'scan_id', 'vis_scans');
    await fk('vis_urls', 'FK_vis_urls_scan', 'scan_id', 'vis_scans');
    await fk('vis_gaps', 'FK_vis_gaps_scan', 'scan_id', 'vis_scans');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'vis_gaps',
      'vis_urls',
      'vis_sources',
      'vis_answers',
      'vis_prompts',
      'vis_scans',
      'vis_projects',
    ]) {
      await q.query(`DROP TABLE "${t}"`);
    }
  }
}
