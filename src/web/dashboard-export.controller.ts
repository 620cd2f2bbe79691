import { Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { pipeline } from 'node:stream';
import type { UserView } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import {
  AnswersQuery,
  GapsQuery,
  HistoryQuery,
  PromptsQuery,
  SourcesQuery,
  UrlsQuery,
} from '../visibility/dto/query.dto';
import {
  EXPORT_KINDS,
  ExportKind,
  ExportQueries,
  VisibilityExportService,
} from '../visibility/export/visibility-export.service';
import { VisibilityQueryService } from '../visibility/visibility-query.service';
import { apiQuery } from './web-query';
import { WebController } from './web-controller.decorator';
import { WebUserParam } from './web-context';

/** The API's query DTO of each list (the dashboard's list pages read their filters with them too). */
export const QUERY_DTOS: { [K in ExportKind]: new () => ExportQueries[K] } = {
  answers: AnswersQuery,
  sources: SourcesQuery,
  urls: UrlsQuery,
  gaps: GapsQuery,
  history: HistoryQuery,
  prompts: PromptsQuery,
};

/** The link of a list's CSV with the page's filters (not its page: the file has every row). */
export function exportHref(kind: ExportKind, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && k !== 'cursor' && k !== 'limit' && k !== 'history_cursor') q.set(k, v);
  const s = q.toString();
  return `/dashboard/export/${kind}.csv${s ? `?${s}` : ''}`;
}

/**
 * CSV downloads of the dashboard's lists (members and admins): the API's export
 * (VisibilityExportService) with the page's filters, read by the API's DTOs, every matching row.
 */
@WebController('dashboard/export')
export class DashboardExportController {
  constructor(
    private readonly query: VisibilityQueryService,
    private readonly exports: VisibilityExportService,
  ) {}

  @Get(':file')
  async download(
    @WebUserParam() user: UserView,
    @Param('file') file: string,
    @Query() raw: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    const kind = EXPORT_KINDS.find((k) => file === `${k}.csv`);
    if (!kind) throw DomainError.notFound();
    const q = await apiQuery(QUERY_DTOS[kind], raw, ['limit', 'cursor']);
    const p = await this.query.project(user.workspace_id);
    const out = await this.exports.csv(kind, p, q);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${out.filename}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    pipeline(out.stream, res, () => undefined);
  }
}
