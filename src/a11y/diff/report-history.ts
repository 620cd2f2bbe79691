import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Repository } from 'typeorm';
import { A11yReport } from '../report/a11y-report.entity';
import { Clock } from '../report/clock';
import type { Report } from '../report/report.types';
import { cacheKeyOf } from '../report/reports.service';

/** Earlier stored reports of the same address (the store side of the diff). */
@Injectable()
export class ReportHistory {
  constructor(
    @InjectRepository(A11yReport) private readonly repo: Repository<A11yReport>,
    private readonly clock: Clock,
  ) {}

  /**
   * The newest unexpired report made before `report` of the same normalised URL and crawl flag
   * (the cache key), or undefined. Reports made in the same millisecond are not each other's
   * predecessor.
   */
  async previous(report: Report): Promise<Report | undefined> {
    const row = await this.repo.findOne({
      where: {
        cacheKey: cacheKeyOf(report.url, report.crawl),
        createdAt: LessThan(new Date(report.scannedAt)),
        expiresAt: MoreThan(this.clock.now()),
      },
      order: { createdAt: 'DESC' },
      select: { id: true, report: true },
    });
    return row?.report;
  }
}
