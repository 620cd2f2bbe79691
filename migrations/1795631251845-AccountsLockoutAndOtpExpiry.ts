import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #20: a sign-in subject counts the attempts being verified (`pending`, taken before the
 * verification) and remembers how often it was locked (each lock lasts twice the one before); a
 * one-time password remembers when it was issued (it expires); a session keeps one short-lived
 * sealed value for its next page (post/redirect/get of a new API key); an admin's invitation waits
 * in web_invitations until the invited person claims it (no account is made before).
 */
export class AccountsLockoutAndOtpExpiry1795631251845 implements MigrationInterface {
  name = 'AccountsLockoutAndOtpExpiry1795631251845';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "web_login_throttle" ADD "strikes" integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE "web_login_throttle" ADD "pending" integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE "web_users" ADD "one_time_password_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "web_sessions" ADD "flash" text`);
    await q.query(`ALTER TABLE "web_sessions" ADD "flash_expires_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`UPDATE "web_users" SET "one_time_password_at" = "created_at" WHERE "must_change_password"`);
    await q.query(
      `CREATE TABLE "web_invitations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "email" character varying(254) NOT NULL, "role" character varying(16) NOT NULL, "otp_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_web_invitations" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_web_invitations_email" ON "web_invitations" ("email")`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_web_invitations_workspace_email" ON "web_invitations" ("workspace_id", "email")`,
    );
    await q.query(
      `ALTER TABLE "web_invitations" ADD CONSTRAINT "FK_web_invitations_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "web_invitations"`);
    await q.query(`ALTER TABLE "web_sessions" DROP COLUMN "flash_expires_at"`);
    await q.query(`ALTER TABLE "web_sessions" DROP COLUMN "flash"`);
    await q.query(`ALTER TABLE "web_users" DROP COLUMN "one_time_password_at"`);
    await q.query(`ALTER TABLE "web_login_throttle" DROP COLUMN "pending"`);
    await q.query(`ALTER TABLE "web_login_throttle" DROP COLUMN "strikes"`);
  }
}
