import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { utcDay } from '../quota/quota-clock';

export const STATS_WINDOW_DAYS = 30;
const CACHE_MS = 60_000;

/**
 * Anonymous success counts per UTC day and tool (pdf_daily_stats: no IP or caller data), and the
 * 30-day total of GET /api/public-stats, cached for a minute per instance.
 */
@Injectable()
export class StatsService {
  private cache?: { at: number; value: { window_days: number; success: number } };

  constructor(private readonly db: DataSource) {}

  async recordSuccess(tool: string, at = new Date()): Promise<void> {
    await this.db.query(
      `INSERT INTO pdf_daily_stats (day, tool, success) VALUES ($1, $2, 1)
       ON CONFLICT (day, tool) DO UPDATE SET success = pdf_daily_stats.success + 1`,
      [utcDay(at), tool],
    );
  }

  async publicStats(now = new Date()): Promise<{ window_days: number; success: number }> {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache.value;
    const from = new Date(now.getTime() - (STATS_WINDOW_DAYS - 1) * 86_400_000);
    const rows: { total: string | number | null }[] = await this.db.query(
      `SELECT COALESCE(SUM(success), 0) AS total FROM pdf_daily_stats WHERE day >= $1 AND day <= $2`,
      [utcDay(from), utcDay(now)],
    );
    const value = { window_days: STATS_WINDOW_DAYS, success: Number(rows[0]?.total ?? 0) };
    this.cache = { at: Date.now(), value };
    return value;
  }

  /** Forgets the cached total (tests, or right after a deploy). */
  invalidate(): void {
    this.cache = undefined;
  }
}
