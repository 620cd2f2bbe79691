import { Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { VisibilityQueryService } from '../visibility/visibility-query.service';
import { CsrfService } from './csrf.service';
import { emptyDashboard } from './pages/dashboard.pages';
import { trendsPage } from './pages/dashboard-trends.pages';
import { sendPage } from '../common/html/page';
import { WebController } from './web-controller.decorator';
import { WebRequest, WebUserParam } from './web-context';

/** Scans drawn in the trend charts (the newest). */
const TREND_SCANS = 52;

/** The Trends page of the dashboard (issue #22 item 6). */
@WebController('dashboard')
export class DashboardTrendsController {
  constructor(
    private readonly query: VisibilityQueryService,
    private readonly csrf: CsrfService,
  ) {}

  @Get('trends')
  async trends(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const csrf = this.csrf.token(req, res);
    let p;
    try {
      p = await this.query.project(user.workspace_id);
    } catch (e) {
      if (e instanceof DomainError && e.code === ErrorCode.ProjectNotFound)
        return sendPage(res, 200, emptyDashboard(user, csrf));
      throw e;
    }
    const [summary, scans] = await Promise.all([this.query.summary(p), this.query.trends(p, TREND_SCANS)]);
    sendPage(res, 200, trendsPage(user, csrf, summary.business, summary.brand.name, scans));
  }
}
