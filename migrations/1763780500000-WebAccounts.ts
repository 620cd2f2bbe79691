import { MigrationInterface, QueryRunner } from 'typeorm';

/** Website accounts: users (one workspace, a role), server-side sessions, sign-in failure counters. */
export class WebAccounts1763780500000 implements MigrationInterface {
  name = 'WebAccounts1763780500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "web_users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "email" character varying(254) NOT NULL, "role" character varying(16) NOT NULL, "password_hash" character varying(255) NOT NULL, "must_change_password" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "disabled_at" TIMESTAMP WITH TIME ZONE, "last_sign_in_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_1d4f97a474d0ab1b1407ec2f4c7" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_web_users_workspace" ON "web_users" ("workspace_id")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_web_users_email" ON "web_users" ("email")`);
    await q.query(
      `ALTER TABLE "web_users" ADD CONSTRAINT "FK_web_users_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `CREATE TABLE "web_sessions" ("id_hash" character(64) NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_8991af248f10947a7a8565ec960" PRIMARY KEY ("id_hash"))`,
    );
    await q.query(`CREATE INDEX "IDX_web_sessions_user" ON "web_sessions" ("user_id")`);
    await q.query(`CREATE INDEX "IDX_web_sessions_expires" ON "web_sessions" ("expires_at")`);
    await q.query(
      `CREATE TABLE "web_login_throttle" ("subject" character varying(100) NOT NULL, "failures" integer NOT NULL, "window_ends_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_07ef106f5192832f544ca16e9b9" PRIMARY KEY ("subject"))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "web_login_throttle"`);
    await q.query(`DROP TABLE "web_sessions"`);
    await q.query(`DROP TABLE "web_users"`);
  }
}
