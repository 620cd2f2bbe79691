import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { In, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { AppConfig } from '../../common/config/env';
import { Clock } from '../report/clock';
import { PURGE_INTERVAL_MS } from '../report/reports.service';
import { A11yScreenshot } from './a11y-screenshot.entity';

export const newScreenshotId = (): string => randomBytes(12).toString('base64url');
const ID_SHAPE = /^[A-Za-z0-9_-]{16}$/;

/** Screenshots in PostgreSQL (bytea), kept REPORT_RETENTION_DAYS like the reports; purged hourly. */
@Injectable()
export class ScreenshotStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('A11yScreenshots');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @InjectRepository(A11yScreenshot) private readonly repo: Repository<A11yScreenshot>,
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
    await this.repo.insert(shots.map((s) => ({ id: s.id, png: s.png, createdAt: now, expiresAt })));
  }

  /** The PNG, or undefined (unknown, malformed or expired id). */
  async get(id: string): Promise<Buffer | undefined> {
    if (!ID_SHAPE.test(id)) return undefined;
    const row = await this.repo.findOne({ where: { id, expiresAt: MoreThan(this.clock.now()) }, select: { id: true, png: true } });
    return row?.png;
  }

  /** Several PNGs at once (for the PDF); missing ids are left out. */
  async many(ids: readonly string[]): Promise<Map<string, Buffer>> {
    const valid = ids.filter((id) => ID_SHAPE.test(id));
    if (valid.length === 0) return new Map();
    const rows = await this.repo.find({ where: { id: In(valid), expiresAt: MoreThan(this.clock.now()) }, select: { id: true, png: true } });
    return new Map(rows.map((r) => [r.id, r.png]));
  }

  async purgeExpired(now: Date = this.clock.now()): Promise<number> {
    const res = await this.repo.delete({ expiresAt: LessThanOrEqual(now) });
    return res.affected ?? 0;
  }
}
