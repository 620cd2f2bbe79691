import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { diffReports, ReportDiff } from '../diff/diff';
import { ReportHistory } from '../diff/report-history';
import { ReportsService } from '../report/reports.service';
import type { Report } from '../report/report.types';
import { isImpact } from '../scoring/score';
import { GateOptions } from './gate';
import type { RenderExtras } from '../render/results-sections';
import { ScreenshotStore } from '../screenshots/screenshot.store';

/** Raw query options of the diff and CI exports. */
export interface ResultsQuery {
  against?: unknown;
  fail_on?: unknown;
  new_only?: unknown;
}

/** Reads `fail_on` (an impact) and `new_only` (true/false/1/0); 400 bad_request naming the field otherwise. */
export function parseGateOptions(q: ResultsQuery): GateOptions {
  let failOn: GateOptions['failOn'] = 'minor';
  if (q.fail_on !== undefined) {
    if (!isImpact(q.fail_on))
      throw DomainError.badRequest('Invalid fail_on: use critical, serious, moderate or minor.', 'fail_on');
    failOn = q.fail_on;
  }
  let newOnly = false;
  if (q.new_only !== undefined) {
    if (q.new_only === 'true' || q.new_only === '1') newOnly = true;
    else if (q.new_only !== 'false' && q.new_only !== '0')
      throw DomainError.badRequest('Invalid new_only: use true or false.', 'new_only');
  }
  return { failOn, newOnly };
}

/** Diffs of stored reports: against `?against={id}` or the previous report of the same address. */
@Injectable()
export class ResultsService {
  constructor(
    private readonly reports: ReportsService,
    private readonly history: ReportHistory,
    private readonly shots: ScreenshotStore,
  ) {}

  /** What /r/{id} (diff) and the PDF (diff and pictures) show beyond the stored report. */
  async extras(report: Report, withImages = false): Promise<RenderExtras> {
    const sinceLast = await this.sinceLast(report);
    if (!withImages) return { sinceLast };
    const urls = new Map<string, string>();
    for (const p of report.pages) {
      for (const v of p.violations)
        for (const n of v.nodes)
          if (n.screenshot) urls.set(/([A-Za-z0-9_-]{16})\.png$/.exec(n.screenshot)?.[1] ?? '', n.screenshot);
      if (p.screenshot) urls.set(/([A-Za-z0-9_-]{16})\.png$/.exec(p.screenshot.url)?.[1] ?? '', p.screenshot.url);
    }
    urls.delete('');
    const found = await this.shots.many([...urls.keys()]).catch(() => new Map<string, Buffer>());
    return { sinceLast, images: new Map([...found].map(([id, png]) => [urls.get(id)!, png])) };
  }

  /** The report earlier than `report` to diff against (undefined: none stored). */
  async baselineOf(report: Report, against: unknown): Promise<Report | undefined> {
    if (against === undefined) return this.history.previous(report);
    if (typeof against !== 'string' || !against)
      throw DomainError.badRequest('Invalid against: give a report id.', 'against');
    return this.reports.get(against);
  }

  async diff(id: string, against?: unknown): Promise<{ report: Report; diff: ReportDiff }> {
    const report = await this.reports.get(id);
    return { report, diff: diffReports(report, await this.baselineOf(report, against)) };
  }

  /** The diff of a report against its previous scan, for renderings; never fails the rendering. */
  async sinceLast(report: Report): Promise<ReportDiff | undefined> {
    try {
      return diffReports(report, await this.history.previous(report));
    } catch {
      return undefined;
    }
  }
}
