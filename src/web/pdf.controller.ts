import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { AppConfig } from '../common/config/env';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { clientSubject } from '../common/http/client-ip';
import type { ToolErrorCode } from '../pdf-tools/core/tool-failure';
import { ToolRunnerService } from '../pdf-tools/mcp/tool-runner.service';
import { QuotaService, QuotaState } from '../pdf-tools/quota/quota.service';
import { PDF_TOOLS } from '../pdf-tools/tools';
import type { PdfTool } from '../pdf-tools/tools/tool';
import { CsrfService } from './csrf.service';
import { optionArgs, OptionField, optionFields, optionValues, renderOption } from './pdf-form';
import { html, SafeHtml } from './render/html';
import { errorSummary, page, sendPage } from './render/layout';
import { Anonymous, CSRF_FIELD, CsrfAfterBody, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';

const MAX_FILES = 20;
const slugOf = (tool: PdfTool): string => tool.name.replace(/_/g, '-');
const TOOLS = new Map(PDF_TOOLS.map((t) => [slugOf(t), { tool: t, fields: optionFields(t) }]));

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
  file_not_found: 404,
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
}

const mb = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * The PDF tools on the website, one page per tool: the same ToolRunnerService as MCP (same
 * validation, limits, errors and stored results), counted on the quota's 'web' channel per device
 * (cookie) with the IP pool cap. Anonymous.
 */
@WebController('pdf')
export class PdfController {
  private readonly upload: ReturnType<ReturnType<typeof multer>['array']>;

  constructor(
    private readonly runner: ToolRunnerService,
    private readonly quota: QuotaService,
    private readonly csrf: CsrfService,
    private readonly config: AppConfig,
  ) {
    this.upload = multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: config.PDF_MAX_FILE_BYTES, files: MAX_FILES, fields: 60, fieldSize: 10_000, parts: MAX_FILES + 60 },
    }).array('files', MAX_FILES);
  }

  private entry(slug: string): { tool: PdfTool; fields: OptionField[] } {
    const e = TOOLS.get(slug);
    if (!e) throw DomainError.notFound('There is no such PDF tool. The list is at /pdf.');
    return e;
  }

  private quotaLine(q: QuotaState): SafeHtml {
    const hours = Math.max(0, Math.ceil((Date.parse(q.resets_at) - Date.now()) / 3600_000));
    return html`<p class="notice" id="quota">Quota: <strong>${q.remaining} of ${q.limit}</strong> runs of this tool left today on this device. It resets at ${q.resets_at.slice(0, 16).replace('T', ' ')} UTC (00:00 UTC, in about ${hours} h).</p>`;
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
<p>Free, no account. Files up to ${mb(this.config.PDF_MAX_FILE_BYTES)} and ${this.config.PDF_MAX_PAGES} pages; results are kept ${Math.round(this.config.PDF_RESULT_TTL_S / 60)} minutes. Each tool has a daily quota per device. AI agents use the same tools over <a href="/llms.txt">MCP</a>.</p>
<ul class="tools">${PDF_TOOLS.map((t) => html`<li class="card"><h2><a href="/pdf/${slugOf(t)}">${t.title}</a></h2><p>${t.description.split('. ')[0]}.</p></li>`)}</ul>`,
      }),
      false,
    );
  }

  private toolPage(req: WebRequest, csrf: string, slug: string, q: QuotaState, o: { error?: string; values?: Record<string, string>; result?: SafeHtml } = {}): string {
    const { tool, fields } = this.entry(slug);
    const many = tool.name === 'merge_pdfs';
    return page({
      title: tool.title,
      section: 'pdf',
      user: req.webUser,
      csrf,
      body: html`<h1>${tool.title}</h1>
<p>${tool.description}</p>
${this.quotaLine(q)}
${o.result ?? ''}
${errorSummary(o.error, 'files')}
<form class="stack" method="post" action="/pdf/${slug}" enctype="multipart/form-data" data-upload>
  <input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
  <div class="dropzone">
    <label for="files">${many ? `PDF files (2 to ${MAX_FILES}, merged in the order chosen)` : 'PDF file'}</label>
    <input type="file" id="files" name="files" accept="application/pdf,.pdf" required${many ? html` multiple` : ''} aria-describedby="files-hint">
    <span class="hint" id="files-hint">Choose ${many ? 'files' : 'a file'} or drop ${many ? 'them' : 'it'} here. At most ${mb(this.config.PDF_MAX_FILE_BYTES)} and ${this.config.PDF_MAX_PAGES} pages per file.</span>
  </div>
  ${fields.map((f) => renderOption(f, o.values ?? {}))}
  <div><button type="submit">Run ${tool.title.toLowerCase()}</button></div>
  <progress hidden max="100" value="0" aria-label="Upload progress"></progress>
  <p id="upload-status" role="status" aria-live="polite"></p>
</form>`,
    });
  }

  @Get(':tool')
  @Anonymous()
  async form(@Param('tool') slug: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const { tool } = this.entry(slug);
    const q = await this.quota.status('web', tool.name, clientSubject(req), req.deviceId);
    sendPage(res, 200, this.toolPage(req, this.csrf.token(req, res), slug, q));
  }

  /** Parses the multipart body; size and count limits become readable errors. */
  private parse(req: Request, res: Response): Promise<void> {
    return new Promise((resolve, reject) => {
      this.upload(req, res, (err: unknown) => {
        if (!err) return resolve();
        if (err instanceof MulterError) {
          if (err.code === 'LIMIT_FILE_SIZE') {
            return reject(new DomainError(ErrorCode.PayloadTooLarge, `The file${err.field ? '' : ''} is larger than ${mb(this.config.PDF_MAX_FILE_BYTES)}, the limit of every PDF tool.`, { limit: this.config.PDF_MAX_FILE_BYTES }));
          }
          if (err.code === 'LIMIT_FILE_COUNT') return reject(DomainError.badRequest(`At most ${MAX_FILES} files at once.`, 'files'));
          return reject(DomainError.badRequest(`The upload could not be read (${err.message}).`, 'files'));
        }
        reject(DomainError.badRequest('The upload could not be read. Choose the file again and retry.', 'files'));
      });
    });
  }

  @Post(':tool')
  @Anonymous()
  @CsrfAfterBody()
  async run(@Param('tool') slug: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const { tool, fields } = this.entry(slug);
    await this.parse(req, res);
    this.csrf.assert(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const values = optionValues(fields, body);
    const caller = { ip: clientSubject(req), deviceId: req.deviceId };
    const csrf = this.csrf.token(req, res);
    const files = (req.files as Express.Multer.File[] | undefined) ?? [];
    const again = async (status: number, error: string): Promise<void> => {
      const q = await this.quota.status('web', tool.name, caller.ip, caller.deviceId);
      sendPage(res, status, this.toolPage(req, csrf, slug, q, { error, values }));
    };
    if (files.length === 0) return again(400, 'Choose a PDF file first.');
    const refs = files.map((f) => ({ base64: f.buffer.toString('base64'), filename: f.originalname.slice(0, 200) || 'document.pdf' }));
    const args = { ...optionArgs(fields, body), ...(tool.name === 'merge_pdfs' ? { files: refs } : { file: refs[0] }) };
    if (tool.name !== 'merge_pdfs' && files.length > 1) return again(400, 'This tool takes one file: choose a single PDF.');
    const result = await this.runner.call(tool, args, caller);
    const sc = (result.structuredContent ?? {}) as Record<string, unknown> & { quota?: QuotaState };
    const q = sc.quota ?? (await this.quota.status('web', tool.name, caller.ip, caller.deviceId));
    if (result.isError) {
      const code = sc.error as ToolErrorCode;
      if (code === 'quota_exceeded') res.setHeader('Retry-After', String(Math.max(1, Math.ceil((Date.parse(q.resets_at) - Date.now()) / 1000))));
      sendPage(res, STATUS[code] ?? 500, this.toolPage(req, csrf, slug, q, { error: String(sc.message), values }));
      return;
    }
    sendPage(res, 200, this.toolPage(req, csrf, slug, q, { values, result: this.resultBlock(result, sc) }));
  }

  private resultBlock(result: CallToolResult, sc: Record<string, unknown>): SafeHtml {
    const first = result.content[0];
    const summary = first && first.type === 'text' ? first.text.split('\n')[0] : 'Done.';
    const files: StoredFile[] = Array.isArray(sc.files) ? (sc.files as StoredFile[]) : typeof sc.file_id === 'string' ? [sc as unknown as StoredFile] : [];
    const { quota: _q, files: _f, file_id: _i, download_url: _u, expires_at: _e, filename: _n, bytes: _b, pages: _p, sha256: _s, ...data } = sc;
    return html`<section class="notice" aria-labelledby="result-title" id="result">
<h2 id="result-title">Done</h2>
<p>${summary}</p>
${files.length
  ? html`<ul>${files.map((f) => html`<li><a href="/files/${f.file_id}" download="${f.filename}">Download ${f.filename}</a> (${f.pages} pages, ${mb(f.bytes)}; available until ${f.expires_at.slice(11, 16)} UTC)</li>`)}</ul>`
  : ''}
${Object.keys(data).length ? html`<dl class="pairs">${Object.entries(data).map(([k, v]) => html`<dt>${k.replace(/_/g, ' ')}</dt><dd>${typeof v === 'string' ? v : JSON.stringify(v)}</dd>`)}</dl>` : ''}
</section>`;
  }
}
