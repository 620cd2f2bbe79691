import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AppConfig } from '../../common/config/env';
import { Public } from '../../common/decorators/public.decorator';
import { RateLimit } from '../../common/decorators/rate-limit.decorator';
import { EXPORT_HEADERS, REPORT_CACHE } from '../report-headers';
import type { ReportDiff } from '../diff/diff';
import { gateCases } from './gate';
import { renderJunit } from './junit';
import { parseGateOptions, ResultsQuery, ResultsService } from './results.service';
import { renderSarif } from './sarif';

/** Header with the number of gate failures (JUnit failed test cases / SARIF rules at level error). */
export const FAILURES_HEADER = 'X-A11y-Gate-Failures';

/**
 * What changed since the last scan, and the CI exports (JUnit XML, SARIF 2.1.0) of a stored report.
 * Renderings of a report: rate limited per IP in the `report` bucket with /r, the PDF and the badge.
 */
@Public()
@RateLimit('report')
@Controller('api/scan/:id')
export class ResultsController {
  constructor(
    private readonly results: ResultsService,
    private readonly config: AppConfig,
  ) {}

  @Get('diff')
  async diff(
    @Param('id') id: string,
    @Query('against') against: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReportDiff> {
    const { diff } = await this.results.diff(id, against);
    res.set({ 'Cache-Control': REPORT_CACHE, ...EXPORT_HEADERS });
    return diff;
  }

  @Get('junit.xml')
  async junit(@Param('id') id: string, @Query() q: ResultsQuery, @Res() res: Response): Promise<void> {
    const { report, cases } = await this.cases(id, q);
    res
      .status(200)
      .set({
        'Cache-Control': REPORT_CACHE,
        [FAILURES_HEADER]: String(cases.filter((c) => c.outcome === 'failed').length),
        ...EXPORT_HEADERS,
      })
      .type('application/xml')
      .send(renderJunit(report, cases, this.publicUrl(report.id)));
  }

  @Get('sarif')
  async sarif(@Param('id') id: string, @Query() q: ResultsQuery, @Res() res: Response): Promise<void> {
    const { report, cases } = await this.cases(id, q);
    res
      .status(200)
      .set({
        'Cache-Control': REPORT_CACHE,
        [FAILURES_HEADER]: String(cases.filter((c) => c.outcome === 'failed').length),
        ...EXPORT_HEADERS,
      })
      .type('application/sarif+json')
      .send(JSON.stringify(renderSarif(report, cases, this.publicUrl(report.id)), null, 2));
  }

  /** The gate's cases; the diff against the previous scan (or `against`) marks new elements. */
  private async cases(id: string, q: ResultsQuery) {
    const options = parseGateOptions(q);
    const { report, diff } = await this.results.diff(id, q.against);
    return { report, cases: gateCases(report, options, diff) };
  }

  private publicUrl(id: string): string {
    return `${this.config.publicBaseUrl()}/r/${encodeURIComponent(id)}`;
  }
}
