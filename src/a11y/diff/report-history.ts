import { Injectable } from '@nestjs/common';
import { Clock } from '../report/clock';
import { ReportStore } from '../report/report.store';
import type { Report } from '../report/report.types';
import { cacheKeyOf } from '../report/reports.service';

/** Earlier stored reports of the same address (the history side of the diff, on the one ReportStore). */
@Injectable()
export class ReportHistory {
  constructor(
    private readonly store: ReportStore,
    private readonly clock: Clock,
  ) {}

  /**
   * The newest unexpired report made before `report` of the same normalised URL and crawl flag
   * (the cache key), or undefined. Reports made in the same millisecond are not each other's
   * predecessor.
   */
  async previous(report: Report): Promise<Report | undefined> {
    return this.store.newest(cacheKeyOf(report.url, report.crawl), this.clock.now(), {
      before: new Date(report.scannedAt),
    });
  }
}
