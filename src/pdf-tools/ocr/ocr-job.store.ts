import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ToolErrorCode } from '../core/tool-failure';
import type { QuotaTicket } from '../quota/quota.service';

export type OcrStatus = 'queued' | 'running' | 'done' | 'failed';

/** An OCR job as the pages and the worker read it. */
export interface OcrJobView {
  id: string;
  status: OcrStatus;
  languages: string[];
  detectedLanguage: string | null;
  sourceName: string;
  inputFileId: string;
  pages: number;
  pagesDone: number;
  pdfFileId: string | null;
  textFileId: string | null;
  error: ToolErrorCode | null;
  refunded: boolean | null;
  ticket: QuotaTicket;
  expiresAt: Date;
}

export interface NewOcrJob {
  id: string;
  languages: string[];
  sourceName: string;
  inputFileId: string;
  pages: number;
  ticket: QuotaTicket;
  expiresAt: Date;
}

/** Where OCR jobs live: one interface, PostgreSQL (or the embedded PGlite) below. */
export abstract class OcrJobStore {
  abstract create(job: NewOcrJob): Promise<void>;
  /** The job, unless unknown or expired. */
  abstract get(id: string): Promise<OcrJobView | undefined>;
  /**
   * queued -> running; false when it is finished or gone. A job found running is taken again: the
   * queue runs one job id at a time, so that is BullMQ running a stalled job (its process died) again.
   */
  abstract start(id: string): Promise<boolean>;
  abstract progress(id: string, pagesDone: number, detectedLanguage?: string): Promise<void>;
  abstract finish(id: string, pdfFileId: string, textFileId: string): Promise<void>;
  abstract fail(id: string, error: ToolErrorCode, refunded: boolean): Promise<void>;
  /** Jobs not finished (queued or running), for the queue's bound. */
  abstract unfinished(): Promise<number>;
  /** Deletes expired jobs; returns how many. */
  abstract cleanup(): Promise<number>;
}

interface Row {
  id: string;
  status: OcrStatus;
  languages: string;
  detected_language: string | null;
  source_name: string;
  input_file_id: string;
  pages: number;
  pages_done: number;
  pdf_file_id: string | null;
  text_file_id: string | null;
  error: ToolErrorCode | null;
  refunded: boolean | null;
  ticket: QuotaTicket | string;
  expires_at: Date | string;
}

/** The only SQL of the OCR jobs (table pdf_ocr_jobs). UPDATE/DELETE ... RETURNING go through a CTE: TypeORM answers a bare one as [rows, count]. */
@Injectable()
export class PostgresOcrJobStore extends OcrJobStore {
  constructor(private readonly db: DataSource) {
    super();
  }

  async create(j: NewOcrJob): Promise<void> {
    await this.db.query(
      `INSERT INTO pdf_ocr_jobs (id, status, languages, source_name, input_file_id, pages, ticket, expires_at) VALUES ($1, 'queued', $2, $3, $4, $5, $6, $7)`,
      [
        j.id,
        j.languages.join('+'),
        j.sourceName.slice(0, 255),
        j.inputFileId,
        j.pages,
        JSON.stringify(j.ticket),
        j.expiresAt,
      ],
    );
  }

  async get(id: string): Promise<OcrJobView | undefined> {
    const rows: Row[] = await this.db.query(`SELECT * FROM pdf_ocr_jobs WHERE id = $1 AND expires_at > now()`, [id]);
    const r = rows[0];
    if (!r) return undefined;
    return {
      id: r.id,
      status: r.status,
      languages: r.languages.split('+'),
      detectedLanguage: r.detected_language,
      sourceName: r.source_name,
      inputFileId: r.input_file_id,
      pages: r.pages,
      pagesDone: r.pages_done,
      pdfFileId: r.pdf_file_id,
      textFileId: r.text_file_id,
      error: r.error,
      refunded: r.refunded,
      ticket: typeof r.ticket === 'string' ? (JSON.parse(r.ticket) as QuotaTicket) : r.ticket,
      expiresAt: new Date(r.expires_at),
    };
  }

  async start(id: string): Promise<boolean> {
    const rows: { id: string }[] = await this.db.query(
      `WITH u AS (UPDATE pdf_ocr_jobs SET status = 'running', pages_done = 0 WHERE id = $1 AND status IN ('queued', 'running') RETURNING id) SELECT id FROM u`,
      [id],
    );
    return rows.length === 1;
  }

  async progress(id: string, pagesDone: number, detectedLanguage?: string): Promise<void> {
    await this.db.query(
      `UPDATE pdf_ocr_jobs SET pages_done = GREATEST(pages_done, $2), detected_language = COALESCE($3, detected_language) WHERE id = $1`,
      [id, pagesDone, detectedLanguage ?? null],
    );
  }

  async finish(id: string, pdfFileId: string, textFileId: string): Promise<void> {
    await this.db.query(
      `UPDATE pdf_ocr_jobs SET status = 'done', pages_done = pages, pdf_file_id = $2, text_file_id = $3 WHERE id = $1`,
      [id, pdfFileId, textFileId],
    );
  }

  async fail(id: string, error: ToolErrorCode, refunded: boolean): Promise<void> {
    await this.db.query(`UPDATE pdf_ocr_jobs SET status = 'failed', error = $2, refunded = $3 WHERE id = $1`, [
      id,
      error,
      refunded,
    ]);
  }

  async unfinished(): Promise<number> {
    const rows: { n: string | number }[] = await this.db.query(
      `SELECT count(*) AS n FROM pdf_ocr_jobs WHERE status IN ('queued', 'running') AND expires_at > now()`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async cleanup(): Promise<number> {
    const rows: { id: string }[] = await this.db.query(
      `WITH d AS (DELETE FROM pdf_ocr_jobs WHERE expires_at <= now() RETURNING id) SELECT id FROM d`,
    );
    return rows.length;
  }
}
