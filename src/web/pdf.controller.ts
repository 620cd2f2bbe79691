/**
 * Over 300 lines: the PDF pages' four routes (list, form, no-JavaScript upload, run) share the tool lookup, the limits
 * and the quota context, and the run route handles every outcome a form needs (refused input, quota, tool failure,
 * result); the markup is in pages/.
 */
import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AppConfig } from '../common/config/env';
import { DomainError } from '../common/errors/domain-error';
import { RateLimit } from '../common/decorators/rate-limit.decorator';
import { clientSubject } from '../common/http/client-ip';
import { toolErrorStatus } from '../pdf-tools/core/tool-failure';
import { FileStoreService } from '../pdf-tools/files/file-store.service';
import { UploadService } from '../pdf-tools/files/upload.service';
import { ToolRunnerService } from '../pdf-tools/run/tool-runner.service';
import type { ToolFailed } from '../pdf-tools/run/tool-outcome';
import { QuotaService, QuotaState } from '../pdf-tools/quota/quota.service';
import { PDF_TOOLS } from '../pdf-tools/tools';
import type { PdfTool } from '../pdf-tools/tools/tool';
import { CsrfService } from './csrf.service';
import { ConvertSupport, dailyLimits } from './pdf-convert.support';
import { countedOn, failureWords, fullAddress, MAX_URL } from './pages/pdf-convert.pages';
import {
  formError,
  FormError,
  idOf,
  nameOf,
  optionArgs,
  OptionField,
  optionFields,
  optionValues,
  pageRangeError,
  single,
  validationError,
  webError,
} from './pdf-form';
import { plural } from '../common/text/plural';
import { sendPage } from '../common/html/page';
import { Anonymous, CsrfAfterBody, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';
import { refundWords, toolRefusal, uploadRefusal, WEB_TOOL_TEXT, WebLimits } from './pdf-web-text';
import {
  ChosenFile,
  MAX_FILES,
  MAX_PASSWORD,
  passwordId,
  passwordName,
  PdfPageContext,
  PdfPageState,
  pdfIndexPage,
  pdfResultBlock,
  pdfToolPage,
  slugOf,
} from './pages/pdf.pages';

const TOOLS = new Map(PDF_TOOLS.map((t) => [slugOf(t), { tool: t, fields: optionFields(t) }]));
/**
 * Other addresses people (and agents) try for a tool page, answered with a 301 to it: the tool's
 * own name (`rotate_pages`) and short names (`rotate`, `merge`).
 */
const SHORT_NAMES: Record<string, string> = {
  merge: 'merge_pdfs',
  split: 'split_pdf',
  rotate: 'rotate_pages',
  remove: 'remove_pages',
  delete: 'remove_pages',
  'delete-pages': 'remove_pages',
  compress: 'compress_pdf',
  watermark: 'add_watermark',
  'page-numbers': 'add_page_numbers',
  number: 'add_page_numbers',
  metadata: 'pdf_metadata',
  flatten: 'flatten_form',
  read: 'read_pdf',
  text: 'read_pdf',
  'pdf-to-text': 'read_pdf',
  'pdf-to-markdown': 'read_pdf',
};
/** The tool page a name leads to (`/pdf/rotate_pages`, `/pdf/rotate`, case and `_`/`-` ignored), if it is not the page itself. */
export function redirectOf(name: string): string | null {
  const wanted = name.toLowerCase().replace(/_/g, '-');
  const tool = TOOLS.has(wanted) ? wanted : SHORT_NAMES[wanted]?.replace(/_/g, '-');
  return tool && tool !== name ? `/pdf/${tool}` : null;
}

/** Failures of an address input said of the address (pdf-convert.pages failureWords), linked to its field. */
const URL_FAILURES = new Set<string>(['url_not_allowed', 'download_failed', 'not_a_pdf', 'encrypted']);

/** The file_id values of a form body or query string (one or many). */
function fileIds(v: unknown): string[] {
  const list = Array.isArray(v) ? (v as unknown[]) : [v];
  return list.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
}

/**
 * The PDF tools on the website, one page per tool. Input files go through the upload service of
 * `POST /files` (the same streaming, limits, PDF check and error messages as an agent's upload):
 * the page's script posts them to `POST /files` with upload progress; without JavaScript the
 * upload form posts to `/pdf/{tool}/upload`, which calls the same service. The tool form then
 * sends the `file_id`s, and the same ToolRunnerService as MCP runs the call (same validation,
 * limits, errors and stored results), counted on the quota's 'web' channel per device (cookie)
 * with the IP pool cap. Anonymous.
 */
@WebController('pdf')
export class PdfController {
  constructor(
    private readonly runner: ToolRunnerService,
    private readonly quota: QuotaService,
    private readonly uploads: UploadService,
    private readonly files: FileStoreService,
    private readonly csrf: CsrfService,
    private readonly config: AppConfig,
    private readonly support: ConvertSupport,
  ) {}

  private entry(slug: string): { tool: PdfTool; fields: OptionField[] } {
    const e = TOOLS.get(slug);
    if (!e) throw DomainError.notFound('There is no such PDF tool. The list is at /pdf.');
    return e;
  }

  /** The limits the page's messages name. */
  private limits(): WebLimits {
    const c = this.config;
    return {
      maxBytes: c.PDF_MAX_FILE_BYTES,
      maxPages: c.PDF_MAX_PAGES,
      keptMinutes: Math.round(c.PDF_RESULT_TTL_S / 60),
    };
  }

  private context(req: WebRequest, csrf: string): PdfPageContext {
    return { req, csrf, limits: this.limits(), daily: dailyLimits(this.config, req) };
  }

  @Get()
  @Anonymous()
  index(@Req() req: WebRequest, @Res() res: Response): void {
    sendPage(res, 200, pdfIndexPage(this.context(req, this.csrf.token(req, res)), this.config.PDF_RESULT_TTL_S), false);
  }

  /** The uploaded files still stored, in the order given (expired or unknown ids are dropped). */
  private async chosen(ids: string[]): Promise<ChosenFile[]> {
    const out: ChosenFile[] = [];
    for (const id of ids.slice(0, MAX_FILES)) {
      const found = await this.files.info(id);
      if (found.status === 'ok')
        out.push({
          file_id: found.file.id,
          filename: found.file.filename,
          pages: found.file.pages,
          bytes: found.file.size,
        });
    }
    return out;
  }

  private toolPage(req: WebRequest, csrf: string, slug: string, q: QuotaState, o: PdfPageState = {}): string {
    const { tool, fields } = this.entry(slug);
    return pdfToolPage(this.context(req, csrf), tool, fields, q, o);
  }

  @Get(':tool')
  @Anonymous()
  async form(@Param('tool') slug: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const moved = redirectOf(slug);
    if (moved) {
      const query = req.originalUrl.indexOf('?');
      res.redirect(301, moved + (query >= 0 ? req.originalUrl.slice(query) : ''));
      return;
    }
    const { tool } = this.entry(slug);
    const q = await this.quota.status('web', tool.name, clientSubject(req), req.deviceId, req.webUser?.id);
    // The browser extension's link: the PDF's address in the field (one-file tools), nothing fetched yet.
    const url = tool.name === 'merge_pdfs' ? undefined : this.support.prefilledUrl(req);
    sendPage(res, 200, this.toolPage(req, this.csrf.token(req, res), slug, q, { url }));
  }

  /**
   * The upload without JavaScript: the multipart form's `file` goes through the upload service of
   * `POST /files` (same limits, checks and messages); the page comes back with the file chosen.
   * The CSRF token travels in the query string (the upload service reads only the file part) and
   * is checked before a byte of the body is read.
   */
  @Post(':tool/upload')
  @Anonymous()
  @CsrfAfterBody()
  @RateLimit('pdf-upload')
  async upload(@Param('tool') slug: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const { tool } = this.entry(slug);
    const many = tool.name === 'merge_pdfs';
    this.csrf.assertBeforeUpload(req, res);
    const before = many ? fileIds(req.query.file_id).slice(0, MAX_FILES - 1) : [];
    const caller = clientSubject(req);
    const csrf = this.csrf.token(req, res);
    try {
      const up = await this.uploads.upload(req);
      const chosen = await this.chosen([...before, up.file_id]);
      const q = await this.quota.status('web', tool.name, caller, req.deviceId, req.webUser?.id);
      sendPage(res, 200, this.toolPage(req, csrf, slug, q, { chosen }));
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      // Bytes may still be coming (cut off at the limit, too slow): close the connection after the answer.
      if (!req.complete) res.setHeader('Connection', 'close');
      for (const [name, value] of Object.entries(e.headers)) res.setHeader(name, value);
      const q = await this.quota.status('web', tool.name, caller, req.deviceId, req.webUser?.id);
      const error = uploadRefusal('Your file', e.code, e.details.error_detail, this.limits());
      sendPage(
        res,
        e.status,
        this.toolPage(req, csrf, slug, q, { error, errorField: 'file', chosen: await this.chosen(before) }),
      );
    }
  }

  /** Runs the tool on uploaded files (their file_ids) with the form's options. */
  @Post(':tool')
  @Anonymous()
  async run(@Param('tool') slug: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const { tool, fields } = this.entry(slug);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const values = optionValues(fields, body);
    const caller = {
      ip: clientSubject(req),
      deviceId: req.deviceId,
      ...(req.webUser ? { userId: req.webUser.id } : {}),
    };
    const csrf = this.csrf.token(req, res);
    const ids = fileIds(body.file_id);
    const chosen = await this.chosen(ids);
    // One-file tools take the address of a PDF instead of an upload (an uploaded file wins).
    const url = tool.name === 'merge_pdfs' ? '' : (single(body.url) ?? '').trim();
    const fromUrl = ids.length === 0 && url !== '';
    const again = async (status: number, error: string, errorField = 'file'): Promise<void> => {
      const q = await this.quota.status('web', tool.name, caller.ip, caller.deviceId, caller.userId);
      sendPage(res, status, this.toolPage(req, csrf, slug, q, { error, errorField, values, chosen, url }));
    };
    if (ids.length === 0 && !fromUrl)
      return again(
        400,
        tool.name === 'merge_pdfs'
          ? 'Choose at least two PDFs to merge.'
          : 'Choose a PDF file first, or give the address of one.',
      );
    if (url.length > MAX_URL) return again(400, `The address is too long: at most ${MAX_URL} characters.`, 'url');
    if (ids.length > MAX_FILES) return again(400, `At most ${plural(MAX_FILES, 'file')} at once.`);
    if (tool.name !== 'merge_pdfs' && ids.length > 1)
      return again(400, 'This tool takes one file: choose a single PDF.');
    // What the form itself shows to be wrong, in the page's words, before anything is run.
    const names = fromUrl
      ? [fullAddress(url)]
      : ids.map((id) => chosen.find((f) => f.file_id === id)?.filename ?? 'your file');
    const before =
      formError(fields, body) ?? (tool.name === 'merge_pdfs' ? undefined : this.pageProblem(fields, body, chosen[0]));
    if (before) return again(400, before.message, before.field);
    // Each locked file's password, from the field named by its file_id: sent with it, never kept or shown.
    const passwords = ids.map((id) => single(body[passwordName(id)]) ?? '');
    const lockedAt = (i: number): number => chosen.findIndex((f) => f.file_id === ids[i] && f.pages === null);
    const passwordError = (i: number, status: number, message: string): Promise<void> => {
      const at = lockedAt(i);
      return again(status, message, at >= 0 ? passwordId(at) : 'file');
    };
    for (let i = 0; i < ids.length; i++) {
      const name = chosen[lockedAt(i)]?.filename;
      if (name === undefined) continue;
      if (passwords[i] === '')
        return passwordError(i, 400, `${name} is protected by a password: enter it in "Password of ${name}".`);
      if (passwords[i].length > MAX_PASSWORD)
        return passwordError(i, 400, `The password of ${name} is too long: at most ${MAX_PASSWORD} characters.`);
    }
    const refs = fromUrl
      ? [{ url: names[0] }]
      : ids.map((file_id, i) => ({ file_id, ...(passwords[i] ? { password: passwords[i] } : {}) }));
    const args = {
      ...optionArgs(fields, body),
      ...WEB_TOOL_TEXT[tool.name]?.args,
      ...(tool.name === 'merge_pdfs' ? { files: refs } : { file: refs[0] }),
    };
    // The tool's own argument checks, read from its schema's typed issues (the MCP message stays the tool's).
    const invalid = validationError(tool, fields, args);
    if (invalid) return again(400, invalid.message, invalid.field ?? 'file');
    const outcome = await this.runner.run(tool, args, caller);
    const q = outcome.quota;
    if (!outcome.ok) {
      const status = toolErrorStatus(outcome.code);
      if (outcome.code === 'quota_exceeded')
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil((Date.parse(q.resets_at) - Date.now()) / 1000))));
      const locked =
        outcome.code === 'encrypted' && outcome.passwordGiven !== undefined
          ? this.lockedInput(outcome.inputIndex, ids, chosen)
          : undefined;
      if (locked) {
        const { name, index } = locked;
        const message = outcome.passwordGiven
          ? `The password of ${name} is not correct: type it again in "Password of ${name}".`
          : `${name} is protected by a password: enter it in "Password of ${name}".`;
        return passwordError(index, status, message + refundWords(outcome.refunded));
      }
      const shown = this.failureWords(outcome, names, fields, req, fromUrl);
      sendPage(
        res,
        status,
        this.toolPage(req, csrf, slug, q, { error: shown.message, errorField: shown.field, values, chosen, url }),
      );
      return;
    }
    sendPage(
      res,
      200,
      this.toolPage(req, csrf, slug, q, { values, chosen, url, result: pdfResultBlock(outcome, names) }),
    );
  }

  /**
   * A tool failure in the page's words: by its code and typed details (pdf-web-text), linked to the
   * field it is about; only an argument problem the form could not foresee falls back to the tool's
   * message in the form's words.
   */
  private failureWords(
    f: ToolFailed,
    names: string[],
    fields: OptionField[],
    req: WebRequest,
    fromUrl: boolean,
  ): FormError {
    const q = f.quota;
    // The address did not give a PDF (not allowed, not downloaded, not a PDF, locked): said of the address, linked to its field.
    if (fromUrl && URL_FAILURES.has(f.code))
      return failureWords(
        { code: f.code, details: { ...f.details, input: 'url' }, refunded: f.refunded, quota: q },
        names[0],
        this.limits(),
        'this tool',
      );
    if (f.code === 'quota_exceeded') {
      return {
        message: `You have used all ${plural(q.limit, 'run')} of this tool for today ${countedOn(dailyLimits(this.config, req))}. It resets at ${q.resets_at.slice(11, 16)} UTC.`,
        field: 'file',
      };
    }
    const words = toolRefusal(f, names, this.limits());
    const pageField = fields.find((x) => x.web.pageRange);
    if (words)
      return {
        message: words + refundWords(f.refunded),
        field: f.code === 'invalid_page_range' && pageField ? idOf(pageField.path) : 'file',
      };
    const shown = webError(f.message, fields);
    return { message: shown.message, field: shown.field ?? 'file' };
  }

  /**
   * The page-range fields of a one-file tool checked against the chosen file (its pages, null when
   * it is locked), and split's number of parts against its pages.
   */
  private pageProblem(
    fields: OptionField[],
    body: Record<string, unknown>,
    file: ChosenFile | undefined,
  ): FormError | undefined {
    if (!file) return undefined;
    for (const f of fields) {
      const text = (single(body[nameOf(f.path)]) ?? '').trim();
      const when = f.web.when;
      if (text === '' || (when && single(body[nameOf(when.field.split('.'))]) !== when.value)) continue;
      if (f.web.pageRange) {
        const problem = pageRangeError(f, text, file.pages, file.filename, f.schema.type === 'array');
        if (problem) return problem;
      }
      if (f.path.join('.') === 'count' && when && file.pages !== null && Number(text) > file.pages) {
        return {
          message: `${file.filename} has ${plural(file.pages, 'page')}: it cannot be split into ${text} parts.`,
          field: idOf(f.path),
        };
      }
    }
    return undefined;
  }

  /** The chosen file a failure is about (its index among the call's inputs), if it is a locked one. */
  private lockedInput(
    index: number | undefined,
    ids: string[],
    chosen: ChosenFile[],
  ): { name: string; index: number } | undefined {
    if (index === undefined) return undefined;
    const f = chosen.find((c) => c.file_id === ids[index] && c.pages === null);
    return f ? { name: f.filename, index } : undefined;
  }
}
