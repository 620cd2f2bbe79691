import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { AppConfig } from '../common/config/env';
import type { SafeHtml } from '../common/html/html';
import { DomainError } from '../common/errors/domain-error';
import { FileStoreService } from '../pdf-tools/files/file-store.service';
import { UploadService } from '../pdf-tools/files/upload.service';
import { signedInDailyLimit } from '../pdf-tools/quota/quota.service';
import type { ConversionInput } from '../pdf-tools/render/metered-run';
import { CsrfService } from './csrf.service';
import type { ChosenFile, DailyLimits } from './pages/pdf-convert.pages';
import {
  ConvertPage,
  ConvertPageState,
  convertBody,
  countedOn,
  failureWords,
  fullAddress,
  MAX_PASSWORD,
  MAX_URL,
} from './pages/pdf-convert.pages';
import type { ToolErrorCode } from '../pdf-tools/core/tool-failure';
import type { QuotaState } from '../pdf-tools/quota/quota.service';
import type { WebCaller } from '../pdf-tools/render/metered-run';
import { clientSubject } from '../common/http/client-ip';
import { page, sendPage } from '../common/html/page';
import { single } from './pdf-form';
import { uploadRefusal, WebLimits } from './pdf-web-text';
import { WebRequest } from './web-context';

/** The website's daily limits per tool, and whether the signed-in one applies to `req`. */
export function dailyLimits(c: AppConfig, req: WebRequest): DailyLimits {
  return { signedIn: req.webUser !== undefined, anonymous: c.PDF_DAILY_LIMIT, signedInLimit: signedInDailyLimit(c) };
}

/** What the run form of a conversion page asks for, or the problem with it (in the page's words). */
export type FormInput =
  | { ok: true; input: ConversionInput; chosen?: ChosenFile; url: string; name: string }
  | { ok: false; status: number; message: string; field: string; chosen?: ChosenFile; url: string };

/** What a conversion page has of its own: its words, its quota now, and its option fields. */
export interface ConvertTool<Values> {
  page: Pick<ConvertPage, 'slug' | 'title' | 'intro' | 'button'> & { pageTitle: string };
  quota(caller: WebCaller): Promise<QuotaState>;
  options(values: Values, errorField?: string): SafeHtml;
}

/** What one drawing of a conversion page shows: the form's token, the options as typed, the quota when a run gave it. */
export interface ConvertView<Values> {
  csrf: string;
  values: Values;
  quota?: QuotaState;
}

/**
 * What the conversion pages (`/pdf/images`, `/pdf/ocr`) share on the server: the limits their
 * words name, the chosen file from its id, the upload without JavaScript (the upload service of
 * POST /files, CSRF token in the query string checked before the body), and reading the run
 * form's file, address and password.
 */
@Injectable()
export class ConvertSupport {
  constructor(
    private readonly config: AppConfig,
    private readonly uploads: UploadService,
    private readonly files: FileStoreService,
    private readonly csrf: CsrfService,
  ) {}

  limits(): WebLimits {
    const c = this.config;
    return {
      maxBytes: c.PDF_MAX_FILE_BYTES,
      maxPages: c.PDF_MAX_PAGES,
      keptMinutes: Math.round(c.PDF_RESULT_TTL_S / 60),
    };
  }

  /** The daily limits of the conversion pages and which applies to this request (signed in or not). */
  daily(req: WebRequest): DailyLimits {
    return dailyLimits(this.config, req);
  }

  /** Who runs a conversion: the address, the device cookie and the account when signed in. */
  caller(req: WebRequest): WebCaller {
    return { ip: clientSubject(req), deviceId: req.deviceId, ...(req.webUser ? { userId: req.webUser.id } : {}) };
  }

  /**
   * Draws a conversion page (PDF to images, OCR): its frame, the options, the limits and the quota
   * line (the quota a run gave, else the tool's now).
   */
  async send<Values>(
    tool: ConvertTool<Values>,
    req: WebRequest,
    res: Response,
    status: number,
    view: ConvertView<Values>,
    s: ConvertPageState,
  ): Promise<void> {
    const quota = view.quota ?? (await tool.quota(this.caller(req)));
    const options = tool.options(view.values, s.errorField);
    const p = { ...tool.page, csrf: view.csrf, quota, options, limits: this.limits(), daily: this.daily(req) };
    sendPage(
      res,
      status,
      page({ title: p.pageTitle, section: 'pdf', user: req.webUser, csrf: p.csrf, body: convertBody(p, s) }),
    );
  }

  /** A conversion's failure in the page's words; a spent quota also says when to come back (Retry-After). */
  failure(
    req: WebRequest,
    res: Response,
    f: { code: ToolErrorCode; details: Record<string, unknown> },
    outcome: { refunded?: boolean; quota: QuotaState },
    name: string,
    what: string,
  ): { message: string; field: string } {
    if (f.code === 'quota_exceeded')
      res.setHeader(
        'Retry-After',
        String(Math.max(1, Math.ceil((Date.parse(outcome.quota.resets_at) - Date.now()) / 1000))),
      );
    return failureWords(
      {
        code: f.code,
        details: f.details,
        countedOn: countedOn(this.daily(req)),
        refunded: outcome.refunded,
        quota: outcome.quota,
      },
      name,
      this.limits(),
      what,
    );
  }

  /** The address a link prefills the form with (`?url=`), cut to the field's length. */
  prefilledUrl(req: WebRequest): string {
    return typeof req.query.url === 'string' ? req.query.url.slice(0, MAX_URL) : '';
  }

  async chosen(id: string | undefined): Promise<ChosenFile | undefined> {
    if (!id) return undefined;
    const found = await this.files.info(id);
    if (found.status !== 'ok') return undefined;
    return { file_id: found.file.id, filename: found.file.filename, pages: found.file.pages, bytes: found.file.size };
  }

  /**
   * The upload without JavaScript: `render(status, state)` draws the page again, with the chosen
   * file or the refusal at the file field. Bytes still coming after a refusal close the connection
   * after the answer.
   */
  async upload(
    req: WebRequest,
    res: Response,
    render: (status: number, s: ConvertPageState) => Promise<void>,
  ): Promise<void> {
    const drawn = (status: number, chosen?: ChosenFile, error?: string): Promise<void> =>
      render(status, { chosen, error, errorField: error ? 'file' : undefined });
    this.csrf.assertBeforeUpload(req, res);
    try {
      const up = await this.uploads.upload(req);
      await drawn(200, await this.chosen(up.file_id));
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      if (!req.complete) res.setHeader('Connection', 'close');
      for (const [name, value] of Object.entries(e.headers)) res.setHeader(name, value);
      await drawn(e.status, undefined, uploadRefusal('Your file', e.code, e.details.error_detail, this.limits()));
    }
  }

  /** The run form's input: the uploaded file (with its password) or else the address. */
  async formInput(body: Record<string, unknown>): Promise<FormInput> {
    const id = (single(body.file_id) ?? '').trim();
    const url = (single(body.url) ?? '').trim();
    const chosen = await this.chosen(id || undefined);
    if (id && !chosen)
      return {
        ok: false,
        status: 404,
        message: `The file you chose is no longer kept (files are kept ${this.limits().keptMinutes} minutes): upload it again.`,
        field: 'file',
        url,
      };
    if (chosen) {
      const password = single(body[`password.${chosen.file_id}`]) ?? '';
      if (chosen.pages === null && password === '') {
        return {
          ok: false,
          status: 400,
          message: `${chosen.filename} is protected by a password: enter it in "Password of ${chosen.filename}".`,
          field: 'password-1',
          chosen,
          url,
        };
      }
      if (password.length > MAX_PASSWORD)
        return {
          ok: false,
          status: 400,
          message: `The password of ${chosen.filename} is too long: at most ${MAX_PASSWORD} characters.`,
          field: 'password-1',
          chosen,
          url,
        };
      return {
        ok: true,
        input: { fileId: chosen.file_id, ...(password ? { password } : {}) },
        chosen,
        url,
        name: chosen.filename,
      };
    }
    if (!url)
      return {
        ok: false,
        status: 400,
        message: 'Choose a PDF file first, or give the address of one.',
        field: 'file',
        url,
      };
    if (url.length > MAX_URL)
      return {
        ok: false,
        status: 400,
        message: `The address is too long: at most ${MAX_URL} characters.`,
        field: 'url',
        url,
      };
    const full = fullAddress(url);
    return { ok: true, input: { url: full }, url, name: full };
  }
}
