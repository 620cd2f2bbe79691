import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { A11yScreenshot } from './a11y-screenshot.entity';

/**
 * Every query of the stored screenshots (a11y_screenshots, PNG in bytea). "Unexpired" is relative
 * to the `now` the caller passes; the policy (retention, id shape, the purge schedule) is
 * ScreenshotStore's.
 */
@Injectable()
export class ScreenshotRowsStore {
  constructor(@InjectRepository(A11yScreenshot) private readonly repo: Repository<A11yScreenshot>) {}

  /** One INSERT for all of them. */
  async insert(shots: readonly { id: string; png: Buffer }[], createdAt: Date, expiresAt: Date): Promise<void> {
    await this.repo.insert(shots.map((s) => ({ id: s.id, png: s.png, createdAt, expiresAt })));
  }

  /** The unexpired PNG of this id. */
  async findOne(id: string, now: Date): Promise<Buffer | undefined> {
    const row = await this.repo.findOne({ where: { id, expiresAt: MoreThan(now) }, select: { id: true, png: true } });
    return row?.png;
  }

  /** The unexpired PNGs among `ids`, by id. */
  async findMany(ids: readonly string[], now: Date): Promise<Map<string, Buffer>> {
    const rows = await this.repo.find({
      where: { id: In([...ids]), expiresAt: MoreThan(now) },
      select: { id: true, png: true },
    });
    return new Map(rows.map((r) => [r.id, r.png]));
  }

  /** Deletes the screenshots expired at `now`; returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const res = await this.repo.delete({ expiresAt: LessThanOrEqual(now) });
    return res.affected ?? 0;
  }
}
