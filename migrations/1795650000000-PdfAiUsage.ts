import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue #23 item 4: each web user's AI calls and tokens per UTC day (the PDF AI features' daily limits). */
export class PdfAiUsage1795650000000 implements MigrationInterface {
  name = 'PdfAiUsage1795650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "pdf_ai_usage" ("user_id" uuid NOT NULL, "day" date NOT NULL, "calls" integer NOT NULL DEFAULT 0, "tokens" integer NOT NULL DEFAULT 0, CONSTRAINT "PK_pdf_ai_usage" PRIMARY KEY ("user_id", "day"))`,
    );
    await q.query(
      `ALTER TABLE "pdf_ai_usage" ADD CONSTRAINT "FK_pdf_ai_usage_user" FOREIGN KEY ("user_id") REFERENCES "web_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "pdf_ai_usage"`);
  }
}
