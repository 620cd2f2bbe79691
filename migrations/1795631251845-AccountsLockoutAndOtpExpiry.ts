import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #20: a sign-in subject counts the attempts being verified (`pending`, taken before the
 * verification) and remembers how often it was locked (each lock lasts twice the one before); a
 * one-time password remembers when it was issued (it expires); a session keeps one short-lived
 * sealed value for its next page (post/redirect/get of a new API key).
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
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "web_sessions" DROP COLUMN "flash_expires_at"`);
    await q.query(`ALTER TABLE "web_sessions" DROP COLUMN "flash"`);
    await q.query(`ALTER TABLE "web_users" DROP COLUMN "one_time_password_at"`);
    await q.query(`ALTER TABLE "web_login_throttle" DROP COLUMN "pending"`);
    await q.query(`ALTER TABLE "web_login_throttle" DROP COLUMN "strikes"`);
  }
}
