import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The SQL of pdf_daily_stats: anonymous success counts per UTC day ("YYYY-MM-DD") and tool. */
@Injectable()
export class StatsStore {
  constructor(private readonly db: DataSource) {}

  /** Adds one success to the day's count of the tool (the row is created at the first one). */
  async increment(day: string, tool: string): Promise<void> {
    await this.db.query(
      `INSERT INTO pdf_daily_stats (day, tool, success) VALUES ($1, $2, 1)
       ON CONFLICT (day, tool) DO UPDATE SET success = pdf_daily_stats.success + 1`,
      [day, tool],
    );
  }

  /** Successes of every tool from `fromDay` to `toDay`, both included. */
  async total(fromDay: string, toDay: string): Promise<number> {
    const rows: { total: string | number | null }[] = await this.db.query(
      `SELECT COALESCE(SUM(success), 0) AS total FROM pdf_daily_stats WHERE day >= $1 AND day <= $2`,
      [fromDay, toDay],
    );
    return Number(rows[0]?.total ?? 0);
  }
}
