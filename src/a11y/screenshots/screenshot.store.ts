import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../../common/config/env';
import { Clock } from '../report/clock';
import { PURGE_INTERVAL_MS } from '../report/reports.service';
import { ScreenshotRowsStore } from './screenshot-rows.store';

export const newScreenshotId = (): string => randomBytes(12).toString('base64url');
const ID_SHAPE = /^[A-Za-z0-9_-]{16}$/;

/** Screenshots in PostgreSQL (bytea, rows in {@link ScreenshotRowsStore}), kept REPORT_RETENTION_DAYS like the reports; purged hourly. */
@Injectable()
export class ScreenshotStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('A11yScreenshots');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly rows: ScreenshotRowsStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.purgeExpired().catch((e: Error) => this.logger.warn(`Purging expired screenshots failed: ${e.message}`));
    }, PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Stores PNGs made now (one INSERT) under the given ids. */
  async save(shots: readonly { id: string; png: Buffer }[]): Promise<void> {
    if (shots.length === 0) return;
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.REPORT_RETENTION_DAYS * 86400_000);
    await this.rows.insert(shots, now, expiresAt);
  }

  /** The PNG, or undefined (unknown, malformed or expired id). */
  async get(id: string): Promise<Buffer | undefined> {
    if (!ID_SHAPE.test(id)) return undefined;
    return this.rows.findOne(id, this.clock.now());
  }

  /** Several PNGs at once (for the PDF); missing ids are left out. */
  async many(ids: readonly string[]): Promise<Map<string, Buffer>> {
    const valid = ids.filter((id) => ID_SHAPE.test(id));
    if (valid.length === 0) return new Map();
    return this.rows.findMany(valid, this.clock.now());
  }

  async purgeExpired(now: Date = this.clock.now()): Promise<number> {
    return this.rows.deleteExpired(now);
  }
}
