import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { pipeline, Readable } from 'node:stream';
import {
  AnswersQuery,
  GapsQuery,
  HistoryQuery,
  MAX_LIMIT,
  PageQuery,
  PromptsQuery,
  SourcesQuery,
  UrlsQuery,
} from '../dto/query.dto';
import type { ScanRef } from '../dto/responses';
import { ProjectState, VisibilityQueryService } from '../visibility-query.service';
import {
  ANSWER_COLUMNS,
  Cell,
  Column,
  GAP_COLUMNS,
  HISTORY_COLUMNS,
  PROMPT_COLUMNS,
  SOURCE_COLUMNS,
  URL_COLUMNS,
} from './csv-columns';

export const EXPORT_KINDS = ['answers', 'sources', 'urls', 'gaps', 'history', 'prompts'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** The query DTO of each exported list (the API's and the dashboard's). */
export interface ExportQueries {
  answers: AnswersQuery;
  sources: SourcesQuery;
  urls: UrlsQuery;
  gaps: GapsQuery;
  history: HistoryQuery;
  prompts: PromptsQuery;
}

/** A list's CSV: its file name and the stream of its text. */
export interface CsvExport {
  filename: string;
  stream: Readable;
}

interface Fetched<T> {
  items: T[];
  scan: ScanRef | null;
  next: string | null;
}

/** A page of a list as the query service returns it: the next cursor and, for answers, sources, URLs and gaps, its scan. */
interface ListPage {
  next_cursor: string | null;
  scan?: ScanRef;
}

/** One exported list's CSV, from its query (filters and start cursor). */
type ListExport<Q> = (query: VisibilityQueryService, kind: ExportKind, p: ProjectState, q: Q) => Promise<CsvExport>;

/** A list: its columns, the query service's read of one page and the name of that page's items. */
const list =
  <Q extends PageQuery, N extends string, T, R extends ListPage & Record<N, T[]>>(
    columns: Array<Column<T>>,
    read: (query: VisibilityQueryService, p: ProjectState, q: Q) => Promise<R>,
    items: N,
  ): ListExport<Q> =>
  (query, kind, p, q) =>
    csvOfPages(kind, columns, q.cursor, async (cursor) => {
      const r = await read(query, p, { ...q, limit: MAX_LIMIT, cursor });
      return { items: r[items], scan: r.scan ?? null, next: r.next_cursor };
    });

const LISTS: { [K in ExportKind]: ListExport<ExportQueries[K]> } = {
  answers: list(ANSWER_COLUMNS, (s, p, q: AnswersQuery) => s.answers(p, q), 'answers'),
  sources: list(SOURCE_COLUMNS, (s, p, q: SourcesQuery) => s.sources(p, q), 'sources'),
  urls: list(URL_COLUMNS, (s, p, q: UrlsQuery) => s.urls(p, q), 'urls'),
  gaps: list(GAP_COLUMNS, (s, p, q: GapsQuery) => s.gaps(p, q), 'gaps'),
  history: list(HISTORY_COLUMNS, (s, p, q: HistoryQuery) => s.history(p, q), 'scans'),
  prompts: list(PROMPT_COLUMNS, (s, p, q: PromptsQuery) => s.prompts(p, q), 'prompts'),
};

/**
 * CSV exports of the visibility lists. Each export walks the API's own pages (the query service,
 * keyset cursors, MAX_LIMIT rows a page) with the request's filters, from its cursor (if any) to
 * the end: no row limit but the workspace's data, and memory bounded by one page (the stream
 * pulls the next page only when the client has read the previous one). The first page is read
 * before anything is sent, so a bad cursor or an unknown scan is still a JSON error.
 */
@Injectable()
export class VisibilityExportService {
  constructor(private readonly query: VisibilityQueryService) {}

  csv<K extends ExportKind>(kind: K, p: ProjectState, q: ExportQueries[K]): Promise<CsvExport> {
    const exportList: ListExport<ExportQueries[K]> = LISTS[kind];
    return exportList(this.query, kind, p, q);
  }
}

/** A list's CSV file: its header, then the rows of each page fetched from `start` on, one page in memory at a time. */
async function csvOfPages<T>(
  kind: ExportKind,
  columns: Array<Column<T>>,
  start: string | undefined,
  fetch: (cursor: string | undefined) => Promise<Fetched<T>>,
): Promise<CsvExport> {
  const first = await fetch(start);
  async function* rows(): AsyncGenerator<Cell[]> {
    for (let page = first; ;) {
      for (const item of page.items) yield columns.map((c) => c.value(item, page.scan));
      if (!page.next) return;
      page = await fetch(page.next);
    }
  }
  const out = stringify({
    header: true,
    columns: columns.map((c) => c.name),
    cast: { boolean: (b) => String(b) },
  });
  // An error while reading a later page ends the stream in error: the response is cut, never passed off as complete.
  pipeline(Readable.from(rows()), out, () => undefined);
  const scan = first.scan ? `-${first.scan.scan_id}` : '';
  return { filename: `beacon-${kind}${scan}.csv`.replace(/[^A-Za-z0-9._-]/g, '_'), stream: out };
}
