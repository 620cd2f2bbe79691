import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-ups waiting for their e-mail to be verified (the PDF site, issue #23): no account exists
 * until the link is opened; the token is stored as its SHA-256 only. SQL only in SignupService.
 */
export class Signups1795736000000 implements MigrationInterface {
  name = 'Signups1795736000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "web_signups" ("email" character varying(254) NOT NULL, "password_hash" character varying(255) NOT NULL, "token_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_web_signups" PRIMARY KEY ("email"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_web_signups_token" ON "web_signups" ("token_hash")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "web_signups"`);
  }
}
