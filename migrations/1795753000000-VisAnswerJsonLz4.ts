import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each answer's stored JSON (`vis_answers.api_tail`, about 1.2 KB, compressed in the row) with lz4
 * instead of pglz (issue #25): GET /answers decompresses it for every row it sends, and lz4 does so
 * in a fraction of pglz's time (docs/benchmarks.md, "Issue #25 item 4, fourth pass"). Rows written
 * before keep pglz until their scan is imported or re-derived again (not rewritten here: that would
 * rewrite every answer in one migration); PostgreSQL reads both.
 *
 * A no-op on a PostgreSQL built without lz4, e.g. the embedded PGlite: `default_toast_compression`
 * then does not offer it, and the column keeps pglz.
 */
export class VisAnswerJsonLz41795753000000 implements MigrationInterface {
  name = 'VisAnswerJsonLz41795753000000';

  async up(q: QueryRunner): Promise<void> {
    const rows = (await q.query(
      `SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
    )) as Array<{ lz4: boolean }>;
    if (rows[0]?.lz4 === true) await q.query(`ALTER TABLE "vis_answers" ALTER COLUMN "api_tail" SET COMPRESSION lz4`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "vis_answers" ALTER COLUMN "api_tail" SET COMPRESSION DEFAULT`);
  }
}
