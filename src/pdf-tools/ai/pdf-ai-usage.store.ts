import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface DailyUsage {
  calls: number;
  tokens: number;
}

/** The SQL of each web user's AI usage per UTC day (`pdf_ai_usage`). */
@Injectable()
export class PdfAiUsageStore {
  constructor(private readonly dataSource: DataSource) {}

  async today(userId: string): Promise<DailyUsage> {
    const rows = await this.dataSource.query<Array<{ calls: number; tokens: number }>>(
      `SELECT calls, tokens FROM pdf_ai_usage WHERE user_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date`,
      [userId],
    );
    return rows.length ? { calls: Number(rows[0].calls), tokens: Number(rows[0].tokens) } : { calls: 0, tokens: 0 };
  }

  /**
   * Counts one call (before it is made) when the user is under both limits; false when a limit is
   * reached. One statement, so two requests at once cannot both take the last call.
   */
  async takeCall(userId: string, maxCalls: number, maxTokens: number): Promise<boolean> {
    const rows = await this.dataSource.query<Array<{ calls: number }>>(
      `INSERT INTO pdf_ai_usage AS u (user_id, day, calls, tokens) SELECT $1, (now() AT TIME ZONE 'UTC')::date, 1, 0 WHERE $2 > 0
       ON CONFLICT (user_id, day) DO UPDATE SET calls = u.calls + 1 WHERE u.calls < $2 AND u.tokens < $3
       RETURNING calls`,
      [userId, maxCalls, maxTokens],
    );
    return rows.length > 0;
  }

  /** Gives back a call the platform did not answer (failures are refunded, as the tools' quota does). */
  async refundCall(userId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE pdf_ai_usage SET calls = GREATEST(calls - 1, 0) WHERE user_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date`,
      [userId],
    );
  }

  /** Adds the tokens a call used (input and output, as the platform billed them). */
  async addTokens(userId: string, tokens: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE pdf_ai_usage SET tokens = tokens + $2 WHERE user_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date`,
      [userId, Math.max(0, Math.round(tokens))],
    );
  }
}
