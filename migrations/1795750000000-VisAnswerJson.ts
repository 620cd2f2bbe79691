import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each answer's GET /answers JSON after its prompt, written once at ingest (issue #25,
 * src/visibility/store/answer-json.ts). Rows imported before it have none: the API builds theirs per
 * request, as it did, until their scan is imported or re-derived again.
 */
export class VisAnswerJson1795750000000 implements MigrationInterface {
  name = 'VisAnswerJson1795750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "vis_answers" ADD "api_tail" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "vis_answers" DROP COLUMN "api_tail"`);
  }
}
