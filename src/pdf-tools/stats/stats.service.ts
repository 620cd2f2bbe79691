import { Injectable } from '@nestjs/common';
import { utcDay } from '../quota/quota-clock';
import { StatsStore } from './stats.store';

export const STATS_WINDOW_DAYS = 30;
const CACHE_MS = 60_000;

/**
 * Anonymous success counts per UTC day and tool (pdf_daily_stats: no IP or caller data), and the
 * 30-day total of GET /api/public-stats, cached for a minute per instance.
 */
@Injectable()
export class StatsService {
  private cache?: { at: number; value: { window_days: number; success: number } };

  constructor(private readonly store: StatsStore) {}

  async recordSuccess(tool: string, at = new Date()): Promise<void> {
    await this.store.increment(utcDay(at), tool);
  }

  async publicStats(now = new Date()): Promise<{ window_days: number; success: number }> {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache.value;
    const from = new Date(now.getTime() - (STATS_WINDOW_DAYS - 1) * 86_400_000);
    const value = { window_days: STATS_WINDOW_DAYS, success: await this.store.total(utcDay(from), utcDay(now)) };
    this.cache = { at: Date.now(), value };
    return value;
  }

  /** Forgets the cached total (tests, or right after a deploy). */
  invalidate(): void {
    this.cache = undefined;
  }
}
