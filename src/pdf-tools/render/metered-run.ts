import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../common/config/env';
import { tooLarge } from '../core/base64';
import { findPdfHeader } from '../core/pdf-open';
import { ToolFailure } from '../core/tool-failure';
import { FileStoreService } from '../files/file-store.service';
import type { StoredFile } from '../files/stored-file.entity';
import type { CheckedUrl } from '../files/url-fetcher';
import { UrlInputService } from '../files/url-input.service';
import { QuotaService, QuotaState, QuotaTicket } from '../quota/quota.service';
import { StatsService } from '../stats/stats.service';

/** The website's caller: its IP (the quota's pool) and its device (the 'web' channel's counter). */
export interface WebCaller {
  ip: string;
  deviceId: string;
  /** The signed-in user, counted per account with the higher limit. */
  userId?: string;
}

/** The input of a website conversion: an uploaded (stored) file or a public address, and its password. */
export type ConversionInput = { fileId: string; password?: string } | { url: string; password?: string };

/** An input after the checks that need no byte of it (before the quota). */
export type CheckedInput = { stored: StoredFile; password?: string } | { url: CheckedUrl; password?: string };

/** An input's bytes (after the quota). */
export interface LoadedInput {
  name: string;
  bytes: Uint8Array;
  password?: string;
  /** Pages known from the stored row (null: encrypted, unknown until opened). */
  pages: number | null;
}

/** What a metered run answers: its value, or the failure, with the quota after it. */
export type Metered<T> =
  | { ok: true; value: T; quota: QuotaState }
  | { ok: false; failure: ToolFailure; quota: QuotaState; refunded?: boolean };

/**
 * The frame of the website's conversions (PDF to images, OCR) that are not MCP tools: inputs
 * checked before the quota (a stored file's row, a url's scheme and address), one unit of the
 * 'web' quota reserved per run under the conversion's own name, refunded when it fails (up to the
 * daily allowance, like the tools), and each success counted in the public stats.
 */
@Injectable()
export class MeteredRun {
  private readonly logger = new Logger('PdfConversions');

  constructor(
    private readonly config: AppConfig,
    private readonly files: FileStoreService,
    private readonly urls: UrlInputService,
    private readonly quota: QuotaService,
    private readonly stats: StatsService,
  ) {}

  status(tool: string, caller: WebCaller): Promise<QuotaState> {
    return this.quota.status('web', tool, caller.ip, caller.deviceId, caller.userId);
  }

  /** The checks that need no byte of the input. */
  async check(input: ConversionInput): Promise<CheckedInput> {
    if ('url' in input) return { url: await this.urls.check(input.url, 'url'), password: input.password };
    const found = await this.files.info(input.fileId);
    if (found.status !== 'ok') {
      throw new ToolFailure('file_not_found', found.status === 'expired' ? 'expired' : 'unknown', {
        input: 'file',
        expired: found.status === 'expired',
      });
    }
    if (found.file.size > this.config.PDF_MAX_FILE_BYTES)
      throw tooLarge('file', found.file.size, this.config.PDF_MAX_FILE_BYTES);
    return { stored: found.file, password: input.password };
  }

  /** The input's bytes: read from the store or downloaded through the egress guard; must be a PDF. */
  async load(input: CheckedInput): Promise<LoadedInput> {
    if ('url' in input) {
      const got = await this.urls.fetch(input.url, 'url');
      if (findPdfHeader(got.bytes) < 0) throw new ToolFailure('not_a_pdf', 'not a PDF', { input: 'url' });
      return { name: got.filename ?? 'document.pdf', bytes: got.bytes, password: input.password, pages: null };
    }
    const read = await this.files.content(input.stored);
    if (!read) throw new ToolFailure('file_not_found', 'expired', { input: 'file', expired: true });
    return {
      name: input.stored.filename,
      bytes: new Uint8Array(read.buffer, read.byteOffset, read.byteLength),
      password: input.password,
      pages: input.stored.pages,
    };
  }

  /**
   * Reserves one run of `tool` for work that goes on after the request (a queued job): the ticket,
   * or the quota failure. The job gives it back with {@link refundTicket} if it fails.
   */
  async reserve(
    tool: string,
    caller: WebCaller,
  ): Promise<{ ticket: QuotaTicket; quota: QuotaState } | { failure: ToolFailure; quota: QuotaState }> {
    const { decision, ticket } = await this.quota.consume('web', tool, caller.ip, caller.deviceId, caller.userId);
    const { allowed: _allowed, ...state } = decision;
    if (!decision.allowed || !ticket)
      return { failure: new ToolFailure('quota_exceeded', 'quota', { resets_at: state.resets_at }), quota: state };
    return { ticket, quota: state };
  }

  refundTicket(ticket: QuotaTicket): Promise<boolean> {
    return this.quota.refundTicket(ticket);
  }

  /** Counts a success of `tool` in the public stats (never fails the caller). */
  async counted(tool: string): Promise<void> {
    await this.stats.recordSuccess(tool).catch((e: Error) => this.logger.warn(`stats: ${e.message}`));
  }

  /**
   * Reserves one run of `tool`, runs `work`, refunds it when `work` throws (a ToolFailure, or
   * anything else as internal_error), counts a success in the public stats.
   */
  async run<T>(tool: string, caller: WebCaller, work: () => Promise<T>): Promise<Metered<T>> {
    const { decision, ticket } = await this.quota.consume('web', tool, caller.ip, caller.deviceId, caller.userId);
    const { allowed: _allowed, ...state } = decision;
    if (!decision.allowed || !ticket)
      return {
        ok: false,
        failure: new ToolFailure('quota_exceeded', 'quota', { resets_at: state.resets_at }),
        quota: state,
      };
    try {
      const value = await work();
      await this.stats.recordSuccess(tool).catch((e: Error) => this.logger.warn(`stats: ${e.message}`));
      return { ok: true, value, quota: state };
    } catch (e) {
      const failure = e instanceof ToolFailure ? e : new ToolFailure('internal_error', 'unexpected');
      if (!(e instanceof ToolFailure)) this.logger.error(e);
      const { refunded, state: after } = await this.quota.refund(
        'web',
        ticket,
        caller.ip,
        caller.deviceId,
        caller.userId,
      );
      return { ok: false, failure, quota: after, refunded };
    }
  }
}
