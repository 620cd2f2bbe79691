import { DataSource } from 'typeorm';
import { QuotaCounter, QuotaReservation, QuotaScope, QuotaStore, REFUNDS_TOOL } from '../quota.store';

/**
 * Quota counters in the table pdf_quota_usage (one row per day, subject and tool). Atomic through
 * row locks in one transaction: the rows are created if missing, then locked in subject order (so
 * two calls never wait on each other in a cycle), checked and updated. Runs on PostgreSQL and on the
 * embedded PGlite. Rows are not expired here: a day's rows are small and stay for the statistics.
 */
export class PostgresQuotaStore implements QuotaStore {
  constructor(private readonly db: DataSource) {}

  async reserve(scope: QuotaScope, tool: string, counters: readonly QuotaCounter[]): Promise<QuotaReservation> {
    const subjects = counters.map((c) => c.subject);
    return this.db.transaction(async (m) => {
      await m.query(
        `INSERT INTO pdf_quota_usage (day, subject, tool, used)
           SELECT $1, s, $2, 0 FROM unnest($3::varchar[]) AS s ORDER BY s ON CONFLICT DO NOTHING`,
        [scope.day, tool, subjects],
      );
      const rows: { subject: string; used: number }[] = await m.query(
        `SELECT subject, used FROM pdf_quota_usage WHERE day = $1 AND tool = $2 AND subject = ANY($3) ORDER BY subject FOR UPDATE`,
        [scope.day, tool, subjects],
      );
      const byKey = new Map(rows.map((r) => [r.subject, Number(r.used)]));
      const used = subjects.map((s) => byKey.get(s) ?? 0);
      if (counters.some((c, i) => used[i] >= c.cap)) return { allowed: false, used };
      await m.query(`UPDATE pdf_quota_usage SET used = used + 1 WHERE day = $1 AND tool = $2 AND subject = ANY($3)`, [
        scope.day,
        tool,
        subjects,
      ]);
      return { allowed: true, used: used.map((u) => u + 1) };
    });
  }

  async refund(
    scope: QuotaScope,
    tool: string,
    subjects: readonly string[],
    allowance: QuotaCounter,
  ): Promise<boolean> {
    return this.db.transaction(async (m) => {
      await m.query(
        `INSERT INTO pdf_quota_usage (day, subject, tool, used) VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING`,
        [scope.day, allowance.subject, REFUNDS_TOOL],
      );
      const rows: { used: number }[] = await m.query(
        // A SELECT around the UPDATE: TypeORM answers a bare UPDATE with [rows, count].
        `WITH u AS (UPDATE pdf_quota_usage SET used = used + 1 WHERE day = $1 AND subject = $2 AND tool = $3 AND used < $4 RETURNING used)
         SELECT used FROM u`,
        [scope.day, allowance.subject, REFUNDS_TOOL, allowance.cap],
      );
      if (rows.length === 0) return false;
      await m.query(
        `UPDATE pdf_quota_usage SET used = GREATEST(used - 1, 0) WHERE day = $1 AND tool = $2 AND subject = ANY($3)`,
        [scope.day, tool, subjects],
      );
      return true;
    });
  }

  async read(scope: QuotaScope, tool: string, subjects: readonly string[]): Promise<number[]> {
    const rows: { subject: string; used: number }[] = await this.db.query(
      `SELECT subject, used FROM pdf_quota_usage WHERE day = $1 AND tool = $2 AND subject = ANY($3)`,
      [scope.day, tool, subjects],
    );
    const byKey = new Map(rows.map((r) => [r.subject, Number(r.used)]));
    return subjects.map((s) => byKey.get(s) ?? 0);
  }
}
