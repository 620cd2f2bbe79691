import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Response } from 'express';
import { AppConfig } from '../common/config/env';
import { DomainError } from '../common/errors/domain-error';
import { RateLimit } from '../common/decorators/rate-limit.decorator';
import { clientSubject } from '../common/http/client-ip';
import type { ToolErrorCode } from '../pdf-tools/core/tool-failure';
import { FileStoreService } from '../pdf-tools/files/file-store.service';
import { UploadService } from '../pdf-tools/files/upload.service';
import { ToolRunnerService } from '../pdf-tools/mcp/tool-runner.service';
import { QuotaService, QuotaState } from '../pdf-tools/quota/quota.service';
import { PDF_TOOLS } from '../pdf-tools/tools';
import type { PdfTool } from '../pdf-tools/tools/tool';
import { CsrfService } from './csrf.service';
import { formError, FormError, idOf, nameOf, optionArgs, OptionField, optionFields, optionValues, pageRangeError, renderOption, single, validationError, webError } from './pdf-form';
import { html, SafeHtml } from '../common/html/html';
import { plural } from '../common/text/plural';
import { fileSize } from '../common/text/file-size';
import { errorSummary, page, sendPage } from './render/layout';
import { Anonymous, CSRF_FIELD, CsrfAfterBody, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';
import { describeResult, describeValue } from './render/values';
import { firstSentence, refundWords, toolRefusal, uploadRefusal, uploadRefusals, WEB_TOOL_TEXT, WebLimits, webNote, webResultData, webSummary } from './pdf-web-text';

const MAX_FILES = 20;
const slugOf = (tool: PdfTool): string => tool.name.replace(/_/g, '-');
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
};
/** The tool page a name leads to (`/pdf/rotate_pages`, `/pdf/rotate`, case and `_`/`-` ignored), if it is not the page itself. */
export function redirectOf(name: string): string | null {
  const wanted = name.toLowerCase().replace(/_/g, '-');
  const tool = TOOLS.has(wanted) ? wanted : SHORT_NAMES[wanted]?.replace(/_/g, '-');
  return tool && tool !== name ? `/pdf/${tool}` : null;
}

/** HTTP status of a tool failure on the website (MCP carries the same code inside its result). */
const STATUS: Record<ToolErrorCode, number> = {
  invalid_arguments: 400,
  invalid_page_range: 400,
  file_too_large: 413,
  too_many_pages: 413,
  not_a_pdf: 415,
  invalid_image: 415,
  encrypted: 422,
  corrupt_pdf: 422,
  no_pages: 422,
  file_not_found: 404,
  url_not_allowed: 400,
  download_failed: 502,
  quota_exceeded: 429,
  timeout: 503,
  busy: 503,
  internal_error: 500,
};

interface StoredFile {
  file_id: string;
  filename: string;
  bytes: number;
  pages: number;
  expires_at: string;
  /** Split parts: the pages of the input in this part. */
  source_pages?: number[];
}

/** An uploaded input file shown on the page (and carried as a hidden file_id). */
interface ChosenFile {
  file_id: string;
  filename: string;
  /**
   * Null for a locked file: protected by a password needed to open it (an upload encrypted with a
   * user password, stored as sent: its pages are counted when a tool opens it). The form asks for
   * the password.
   */
  pages: number | null;
  bytes: number;
}

/** Longest password the tools take (their `password` argument). */
const MAX_PASSWORD = 1024;
/** The form field of a locked file's password: named by its file_id, so each file's password travels with it. */
const passwordName = (fileId: string): string => `password.${fileId}`;
/** The id of the password field of the i-th chosen file (0-based). */
const passwordId = (i: number): string => `password-${i + 1}`;

/**
 * A locked file's password field: type=password, no autocomplete, labelled with the file's name.
 * Always rendered empty: a password is never written back into a page.
 */
function passwordField(f: ChosenFile, i: number, invalid?: string): SafeHtml {
  const id = passwordId(i);
  return html`<div class="password"><label for="${id}">Password of ${f.filename}</label><br><input type="password" id="${id}" name="${passwordName(f.file_id)}" autocomplete="off" maxlength="${MAX_PASSWORD}" aria-describedby="${id}-hint"${invalid === id ? html` aria-invalid="true"` : ''}><br><span class="hint" id="${id}-hint">Needed to open the file. Used for this run only: it is not kept.</span></div>`;
}

/** The file_id values of a form body or query string (one or many). */
function fileIds(v: unknown): string[] {
  const list = Array.isArray(v) ? (v as unknown[]) : [v];
  return list.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
}

interface PageState {
  error?: string;
  /** The field the error is about (the summary links to it). */
  errorField?: string;
  values?: Record<string, string>;
  chosen?: ChosenFile[];
  result?: SafeHtml;
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
  ) {}

  private entry(slug: string): { tool: PdfTool; fields: OptionField[] } {
    const e = TOOLS.get(slug);
    if (!e) throw DomainError.notFound('There is no such PDF tool. The list is at /pdf.');
    return e;
  }

  /** The limits the page's messages name. */
  private limits(): WebLimits {
    const c = this.config;
    return { maxBytes: c.PDF_MAX_FILE_BYTES, maxPages: c.PDF_MAX_PAGES, keptMinutes: Math.round(c.PDF_RESULT_TTL_S / 60) };
  }

  private quotaLine(q: QuotaState): SafeHtml {
    const hours = Math.max(0, Math.ceil((Date.parse(q.resets_at) - Date.now()) / 3600_000));
    return html`<p class="notice" id="quota">Quota: <strong>${q.remaining} of ${plural(q.limit, 'run')}</strong> of this tool left today on this device. It resets at ${q.resets_at.slice(11, 16)} UTC on ${q.resets_at.slice(0, 10)}, in about ${hours} h.</p>`;
  }

  @Get()
  @Anonymous()
  index(@Req() req: WebRequest, @Res() res: Response): void {
    const csrf = this.csrf.token(req, res);
    sendPage(
      res,
      200,
      page({
        title: 'PDF tools',
        section: 'pdf',
        user: req.webUser,
        csrf,
        body: html`<h1>PDF tools</h1>
<p>Free, no account. Files up to ${fileSize(this.config.PDF_MAX_FILE_BYTES)} and ${plural(this.config.PDF_MAX_PAGES, 'page')}; results are kept ${plural(Math.round(this.config.PDF_RESULT_TTL_S / 60), 'minute')}. Each tool has a daily quota per device. AI agents use the same tools over <a href="/llms.txt">MCP</a>.</p>
<ul class="tools">${PDF_TOOLS.map((t) => html`<li class="card"><h2><a href="/pdf/${slugOf(t)}">${t.title}</a></h2><p>${firstSentence(WEB_TOOL_TEXT[t.name]?.intro ?? t.description)}</p></li>`)}</ul>`,
      }),
      false,
    );
  }

  /** The uploaded files still stored, in the order given (expired or unknown ids are dropped). */
  private async chosen(ids: string[]): Promise<ChosenFile[]> {
    const out: ChosenFile[] = [];
    for (const id of ids.slice(0, MAX_FILES)) {
      const found = await this.files.info(id);
      if (found.status === 'ok') out.push({ file_id: found.file.id, filename: found.file.filename, pages: found.file.pages, bytes: found.file.size });
    }
    return out;
  }

  private toolPage(req: WebRequest, csrf: string, slug: string, q: QuotaState, o: PageState = {}): string {
    const { tool, fields } = this.entry(slug);
    const many = tool.name === 'merge_pdfs';
    const chosen = o.chosen ?? [];
    const upload = new URLSearchParams({ [CSRF_FIELD]: csrf });
    if (many) for (const f of chosen) upload.append('file_id', f.file_id);
    return page({
      title: tool.title,
      section: 'pdf',
      user: req.webUser,
      csrf,
      body: html`<h1>${tool.title}</h1>
<p>${WEB_TOOL_TEXT[tool.name]?.intro ?? tool.description}</p>
${this.quotaLine(q)}
${o.result ?? ''}
${errorSummary(o.error, o.errorField)}
<form class="stack" id="upload-form" method="post" action="/pdf/${slug}/upload?${upload.toString()}" enctype="multipart/form-data" data-upload="/files"${many ? html` data-many="${MAX_FILES}"` : ''} data-refusals="${JSON.stringify(uploadRefusals(this.limits()))}">
  <div class="dropzone">
    <label for="file">1. ${many ? `PDF files (2 to ${MAX_FILES}, merged in the order listed under "Files")` : 'PDF file'}</label>
    <input type="file" id="file" name="file" accept="application/pdf,.pdf" aria-describedby="file-hint">
    <span class="hint" id="file-hint">Choose ${many ? 'a file, then the next one,' : 'a file'} or drop ${many ? 'files' : 'it'} here. At most ${fileSize(this.config.PDF_MAX_FILE_BYTES)} and ${plural(this.config.PDF_MAX_PAGES, 'page')} per file.</span>
    <div data-nojs><button type="submit" class="secondary">Upload</button></div>
  </div>
  <progress hidden max="100" value="0" aria-label="Upload progress"></progress>
  <p id="upload-status" role="status" aria-live="polite"></p>
</form>
<form class="stack" id="run-form" method="post" action="/pdf/${slug}" data-run>
  <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
  <div>
    <h2 id="chosen-title">2. ${many ? 'Files' : 'File'} and options</h2>
    <ul id="chosen" aria-labelledby="chosen-title">${chosen.map(
      (f, i) =>
        html`<li data-name="${f.filename}"><input type="hidden" name="file_id" value="${f.file_id}">${f.filename} <span class="hint">(${f.pages === null ? 'password-protected' : plural(f.pages, 'page')}, ${fileSize(f.bytes)})</span>${f.pages === null ? passwordField(f, i, o.errorField) : ''}</li>`,
    )}</ul>
    <p class="hint" id="none-chosen"${chosen.length ? html` hidden` : ''}>No file uploaded yet.</p>
    ${many ? html`<p class="hint" id="chosen-status" role="status" aria-live="polite"></p>` : ''}
    ${chosen.length ? html`<p><a href="/pdf/${slug}">Start again with other files</a></p>` : ''}
  </div>
  ${fields.map((f) => renderOption(f, o.values ?? {}, fields, o.errorField))}
  <div><button type="submit">${WEB_TOOL_TEXT[tool.name]?.button ?? `Run: ${tool.title}`}</button> <span class="hint" id="run-wait" hidden></span></div>
</form>`,
    });
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
    const q = await this.quota.status('web', tool.name, clientSubject(req), req.deviceId);
    sendPage(res, 200, this.toolPage(req, this.csrf.token(req, res), slug, q));
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
    const token = req.query[CSRF_FIELD];
    if (typeof token === 'string') req.headers['x-csrf-token'] = token;
    try {
      this.csrf.assert(req);
    } catch (e) {
      res.setHeader('Connection', 'close');
      throw e;
    }
    const before = many ? fileIds(req.query.file_id).slice(0, MAX_FILES - 1) : [];
    const caller = clientSubject(req);
    const csrf = this.csrf.token(req, res);
    try {
      const up = await this.uploads.upload(req);
      const chosen = await this.chosen([...before, up.file_id]);
      const q = await this.quota.status('web', tool.name, caller, req.deviceId);
      sendPage(res, 200, this.toolPage(req, csrf, slug, q, { chosen }));
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      // Bytes may still be coming (cut off at the limit, too slow): close the connection after the answer.
      if (!req.complete) res.setHeader('Connection', 'close');
      for (const [name, value] of Object.entries(e.headers)) res.setHeader(name, value);
      const q = await this.quota.status('web', tool.name, caller, req.deviceId);
      const error = uploadRefusal('Your file', e.code, e.details.error_detail, this.limits());
      sendPage(res, e.status, this.toolPage(req, csrf, slug, q, { error, errorField: 'file', chosen: await this.chosen(before) }));
    }
  }

  /** Runs the tool on uploaded files (their file_ids) with the form's options. */
  @Post(':tool')
  @Anonymous()
  async run(@Param('tool') slug: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const { tool, fields } = this.entry(slug);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const values = optionValues(fields, body);
    const caller = { ip: clientSubject(req), deviceId: req.deviceId };
    const csrf = this.csrf.token(req, res);
    const ids = fileIds(body.file_id);
    const chosen = await this.chosen(ids);
    const again = async (status: number, error: string, errorField = 'file'): Promise<void> => {
      const q = await this.quota.status('web', tool.name, caller.ip, caller.deviceId);
      sendPage(res, status, this.toolPage(req, csrf, slug, q, { error, errorField, values, chosen }));
    };
    if (ids.length === 0) return again(400, tool.name === 'merge_pdfs' ? 'Choose at least two PDFs to merge.' : 'Choose a PDF file first.');
    if (ids.length > MAX_FILES) return again(400, `At most ${plural(MAX_FILES, 'file')} at once.`);
    if (tool.name !== 'merge_pdfs' && ids.length > 1) return again(400, 'This tool takes one file: choose a single PDF.');
    // What the form itself shows to be wrong, in the page's words, before anything is run.
    const names = ids.map((id) => chosen.find((f) => f.file_id === id)?.filename ?? 'your file');
    const before = formError(fields, body) ?? (tool.name === 'merge_pdfs' ? undefined : this.pageProblem(fields, body, chosen[0]));
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
      if (passwords[i] === '') return passwordError(i, 400, `${name} is protected by a password: enter it in "Password of ${name}".`);
      if (passwords[i].length > MAX_PASSWORD) return passwordError(i, 400, `The password of ${name} is too long: at most ${MAX_PASSWORD} characters.`);
    }
    const refs = ids.map((file_id, i) => ({ file_id, ...(passwords[i] ? { password: passwords[i] } : {}) }));
    const args = { ...optionArgs(fields, body), ...(tool.name === 'merge_pdfs' ? { files: refs } : { file: refs[0] }) };
    // The tool's own argument checks, read from its schema's typed issues (the MCP message stays the tool's).
    const invalid = validationError(tool, fields, args);
    if (invalid) return again(400, invalid.message, invalid.field ?? 'file');
    const result = await this.runner.call(tool, args, caller);
    const sc = (result.structuredContent ?? {}) as Record<string, unknown> & { quota?: QuotaState };
    const q = sc.quota ?? (await this.quota.status('web', tool.name, caller.ip, caller.deviceId));
    if (result.isError) {
      const code = sc.error as ToolErrorCode;
      if (code === 'quota_exceeded') res.setHeader('Retry-After', String(Math.max(1, Math.ceil((Date.parse(q.resets_at) - Date.now()) / 1000))));
      const locked = code === 'encrypted' && typeof sc.password_given === 'boolean' ? this.lockedInput(sc.input, ids, chosen) : undefined;
      if (locked) {
        const { name, index } = locked;
        const message = sc.password_given
          ? `The password of ${name} is not correct: type it again in "Password of ${name}".`
          : `${name} is protected by a password: enter it in "Password of ${name}".`;
        return passwordError(index, STATUS[code], message + refundWords(sc.refunded));
      }
      const shown = this.failureWords(code, sc, names, fields, q);
      sendPage(res, STATUS[code] ?? 500, this.toolPage(req, csrf, slug, q, { error: shown.message, errorField: shown.field, values, chosen }));
      return;
    }
    sendPage(res, 200, this.toolPage(req, csrf, slug, q, { values, chosen, result: this.resultBlock(tool, result, sc, names) }));
  }

  /**
   * A tool failure in the page's words: by its code and typed details (pdf-web-text), linked to the
   * field it is about; only an argument problem the form could not foresee falls back to the tool's
   * message in the form's words.
   */
  private failureWords(code: ToolErrorCode, sc: Record<string, unknown>, names: string[], fields: OptionField[], q: QuotaState): FormError {
    if (code === 'quota_exceeded') {
      return { message: `You have used all ${plural(q.limit, 'run')} of this tool for today on this device. It resets at ${q.resets_at.slice(11, 16)} UTC.`, field: 'file' };
    }
    const words = toolRefusal(code, sc, names, this.limits());
    const pageField = fields.find((f) => f.web.pageRange);
    if (words) return { message: words + refundWords(sc.refunded), field: code === 'invalid_page_range' && pageField ? idOf(pageField.path) : 'file' };
    const shown = webError(String(sc.message), fields);
    return { message: shown.message, field: shown.field ?? 'file' };
  }

  /**
   * The page-range fields of a one-file tool checked against the chosen file (its pages, null when
   * it is locked), and split's number of parts against its pages.
   */
  private pageProblem(fields: OptionField[], body: Record<string, unknown>, file: ChosenFile | undefined): FormError | undefined {
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
        return { message: `${file.filename} has ${plural(file.pages, 'page')}: it cannot be split into ${text} parts.`, field: idOf(f.path) };
      }
    }
    return undefined;
  }

  /** The chosen file an input label of a tool message ("file", "files[2] (a.pdf)") names, if it is a locked one. */
  private lockedInput(label: unknown, ids: string[], chosen: ChosenFile[]): { name: string; index: number } | undefined {
    if (typeof label !== 'string') return undefined;
    const m = /^files\[(\d+)\]/.exec(label);
    const index = m ? Number(m[1]) : /^file\b/.test(label) ? 0 : -1;
    const f = chosen.find((c) => c.file_id === ids[index] && c.pages === null);
    return f ? { name: f.filename, index } : undefined;
  }

  /**
   * The result: the tool's sentence, then what opening did to the inputs (decrypted, repaired: the
   * result's `note`, in the page's words), the files to download and the tool's own details.
   * `names` are the input files' names in the order of the call.
   */
  private resultBlock(tool: PdfTool, result: CallToolResult, sc: Record<string, unknown>, names: string[]): SafeHtml {
    const first = result.content[0];
    const summary = webSummary(tool.name, sc, first && first.type === 'text' ? first.text.split('\n')[0] : 'Done.');
    const files: StoredFile[] = Array.isArray(sc.files) ? (sc.files as StoredFile[]) : typeof sc.file_id === 'string' ? [sc as unknown as StoredFile] : [];
    const { quota: _q, files: _f, file_id: _i, download_url: _u, expires_at: _e, filename: _n, bytes: _b, pages: _p, sha256: _s, note, ...data } = sc;
    return html`<section class="notice" aria-labelledby="result-title" id="result">
<h2 id="result-title">Done</h2>
<p>${summary}</p>
${typeof note === 'string' && note ? html`<p id="result-note">${webNote(note, names)}</p>` : ''}
${files.length
  ? html`<ul>${files.map((f) => html`<li><a href="/files/${f.file_id}" download="${f.filename}">Download ${f.filename}</a> (${plural(f.pages, 'page')}, ${fileSize(f.bytes)}${f.source_pages ? `; ${f.source_pages.length === 1 ? 'page' : 'pages'} ${describeValue(f.source_pages)} of your file` : ''}; available until ${f.expires_at.slice(11, 16)} UTC)</li>`)}</ul>`
  : ''}
${Object.keys(data).length ? html`<dl class="pairs">${describeResult(webResultData(tool.name, data)).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>` : ''}
</section>`;
  }
}
