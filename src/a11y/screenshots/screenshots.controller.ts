import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../../common/decorators/public.decorator';
import { RateLimit } from '../../common/decorators/rate-limit.decorator';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { REPORT_CACHE } from '../report-headers';
import { ScreenshotStore } from './screenshot.store';

/**
 * GET /api/screenshots/{id}.png: a stored screenshot (immutable, kept as long as its report). Rate
 * limited per IP in the `report` bucket with /r, the PDF and the badge (browsers keep the images:
 * REPORT_CACHE).
 */
@Public()
@RateLimit('report')
@Controller('api/screenshots')
export class ScreenshotsController {
  constructor(private readonly store: ScreenshotStore) {}

  @Get(':name')
  async get(@Param('name') name: string, @Res() res: Response): Promise<void> {
    const m = /^([A-Za-z0-9_-]{16})\.png$/.exec(name);
    const png = m ? await this.store.get(m[1]) : undefined;
    if (!png)
      throw new DomainError(
        ErrorCode.ReportNotFound,
        'No screenshot with this address (screenshots are kept as long as their report).',
      );
    res
      .status(200)
      .set({
        'Cache-Control': REPORT_CACHE,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      })
      .type('image/png')
      .send(png);
  }
}
