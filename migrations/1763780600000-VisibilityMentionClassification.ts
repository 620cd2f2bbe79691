import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mention classification (issue 13): each answer keeps its brand status (mentioned / absent /
 * not_named) and the classification of every tracked brand with its evidence. Rows imported
 * before have not_named and no evidence until `scan:rederive` recomputes them.
 */
export class VisibilityMentionClassification1763780600000 implements MigrationInterface {
  name = 'VisibilityMentionClassification1763780600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "vis_answers" ADD "brand_status" character varying(16) NOT NULL DEFAULT 'not_named'`);
    await q.query(`ALTER TABLE "vis_answers" ADD "mentions" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`UPDATE "vis_answers" SET "brand_status" = 'mentioned' WHERE "brand_mentioned"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "vis_answers" DROP COLUMN "mentions"`);
    await q.query(`ALTER TABLE "vis_answers" DROP COLUMN "brand_status"`);
  }
}
