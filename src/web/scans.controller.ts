import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { UserView } from '../accounts/accounts.service';
import { AiProvidersService } from '../common/ai';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { CollectNotReady, CollectService } from '../visibility/collect/collect.service';
import { ACTIVE_STATUSES, RunRow } from '../visibility/collect/collect.types';
import { CsrfService } from './csrf.service';
import { trackablePlatforms } from './platform-status';
import { runPage, scansPage } from './pages/scans.pages';
import { sendPage } from '../common/html/page';
import { AdminOnly, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

const PAGE = 100;
/** Pages showing a running scan reload themselves this often (an HTTP Refresh header: no script). */
const REFRESH_S = 5;

/** Scans: Run now, progress, the runs and their answers (docs/visibility-collection.md). */
@WebController('dashboard/scans')
export class ScansController {
  constructor(
    private readonly collect: CollectService,
    private readonly ai: AiProvidersService,
    private readonly csrf: CsrfService,
  ) {}

  private refreshWhile(res: Response, runs: RunRow[]): void {
    if (runs.some((r) => ACTIVE_STATUSES.includes(r.status))) res.set('Refresh', String(REFRESH_S));
  }

  private async list(
    user: UserView,
    req: WebRequest,
    res: Response,
    status: number,
    o: { notice?: string; error?: string } = {},
  ): Promise<void> {
    const runs = await this.collect.runs(user.workspace_id);
    this.refreshWhile(res, runs);
    const ready = await this.collect.readiness(user.workspace_id);
    sendPage(
      res,
      status,
      scansPage(user, this.csrf.token(req, res), ready, await trackablePlatforms(this.ai, user.workspace_id), runs, o),
    );
  }

  @Get()
  async show(
    @WebUserParam() user: UserView,
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('already') already?: string,
  ): Promise<void> {
    await this.list(user, req, res, 200, {
      notice: already
        ? 'A scan was already running: this is the one you see (one scan per workspace at a time).'
        : undefined,
    });
  }

  @Post('run')
  @AdminOnly()
  async run(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    try {
      const { run, created } = await this.collect.start(user.workspace_id, 'manual');
      res.redirect(303, created ? `/dashboard/scans/${run.id}` : '/dashboard/scans?already=1');
    } catch (e) {
      if (!(e instanceof CollectNotReady)) throw e;
      await this.list(user, req, res, 409, { error: `The scan cannot run: ${e.message}` });
    }
  }

  @Get(':id')
  async detail(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('offset') offset?: string,
  ): Promise<void> {
    const run = await this.collect.run(user.workspace_id, id);
    if (!run) throw new DomainError(ErrorCode.NotFound, 'No such scan in this workspace.');
    const from = typeof offset === 'string' && /^\d{1,7}$/.test(offset) ? Number(offset) : 0;
    this.refreshWhile(res, [run]);
    sendPage(
      res,
      200,
      runPage(user, this.csrf.token(req, res), run, await this.collect.answers(run.id, from, PAGE), {
        offset: from,
        limit: PAGE,
      }),
    );
  }
}
