import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { pipeline, Readable } from 'node:stream';
import {
  AnswersQuery,
  GapsQuery,
  HistoryQuery,
  MAX_LIMIT,
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
    const page = <Q extends object>(x: Q, cursor: string | undefined): Q => ({ ...x, limit: MAX_LIMIT, cursor });
    const start = q.cursor;
    switch (kind) {
      case 'answers':
        return this.export('answers', ANSWER_COLUMNS, start, async (c) => {
          const r = await this.query.answers(p, page(q as AnswersQuery, c));
          return { items: r.answers, scan: r.scan, next: r.next_cursor };
        });
      case 'sources':
        return this.export('sources', SOURCE_COLUMNS, start, async (c) => {
          const r = await this.query.sources(p, page(q as SourcesQuery, c));
          return { items: r.sources, scan: r.scan, next: r.next_cursor };
        });
      case 'urls':
        return this.export('urls', URL_COLUMNS, start, async (c) => {
          const r = await this.query.urls(p, page(q as UrlsQuery, c));
          return { items: r.urls, scan: r.scan, next: r.next_cursor };
        });
      case 'gaps':
        return this.export('gaps', GAP_COLUMNS, start, async (c) => {
          const r = await this.query.gaps(p, page(q as GapsQuery, c));
          return { items: r.gaps, scan: r.scan, next: r.next_cursor };
        });
      case 'history':
        return this.export('history', HISTORY_COLUMNS, start, async (c) => {
          const r = await this.query.history(p, page(q, c));
          return { items: r.scans, scan: null, next: r.next_cursor };
        });
      case 'prompts':
        return this.export('prompts', PROMPT_COLUMNS, start, async (c) => {
          const r = await this.query.prompts(p, page(q as PromptsQuery, c));
          return { items: r.prompts, scan: null, next: r.next_cursor };
        });
    }
    throw new Error(`unknown export ${String(kind)}`);
  }

  private async export<T>(
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
}
