import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimit } from '../common/decorators/rate-limit.decorator';
import { DomainError } from '../common/errors/domain-error';
import { FileStoreService } from '../pdf-tools/files/file-store.service';
import { OCR_LANGUAGES } from '../pdf-tools/ocr/ocr-languages';
import { OcrService } from '../pdf-tools/ocr/ocr.service';
import type { QuotaState } from '../pdf-tools/quota/quota.service';
import { CsrfService } from './csrf.service';
import { toolErrorStatus } from '../pdf-tools/core/tool-failure';
import { OCR_INTRO, ocrJobBody, ocrOptions } from './pages/pdf-ocr.pages';
import { ConvertSupport, ConvertTool } from './pdf-convert.support';
import { page, sendPage } from '../common/html/page';
import { Anonymous, CsrfAfterBody, WebRequest } from './web-context';
import { WebController } from './web-controller.decorator';

/** Characters of the recognised text shown on the job's page (the whole text is the download). */
const PREVIEW_CHARS = 5000;

/** The `languages` values of a form body (one or many). */
function languagesOf(v: unknown): string[] {
  const list = Array.isArray(v) ? (v as unknown[]) : v === undefined ? [] : [v];
  return list.filter((x): x is string => typeof x === 'string').map((x) => x.trim().toLowerCase());
}

/**
 * OCR on the website (`/pdf/ocr`, issue 23 item 2): the form (upload or address, languages), then
 * a queued job with its own page `/pdf/ocr/jobs/{id}` (progress; the searchable PDF and the text),
 * kept as long as the files. Registered before PdfController (its `/pdf/:tool` would answer here).
 */
@WebController('pdf')
export class PdfOcrController {
  /** The languages ticked (`auto`: "Detect it"). */
  private readonly tool: ConvertTool<string[]> = {
    page: {
      slug: 'ocr',
      title: 'OCR: make a scanned PDF searchable',
      pageTitle: 'OCR',
      intro: OCR_INTRO,
      button: 'Start the OCR',
    },
    quota: (caller) => this.ocr.status(caller),
    options: ocrOptions,
  };

  constructor(
    private readonly ocr: OcrService,
    private readonly support: ConvertSupport,
    private readonly files: FileStoreService,
    private readonly csrf: CsrfService,
  ) {}

  @Get('ocr')
  @Anonymous()
  async form(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const view = { csrf: this.csrf.token(req, res), values: ['auto'] };
    await this.support.send(this.tool, req, res, 200, view, { url: this.support.prefilledUrl(req) });
  }

  @Post('ocr/upload')
  @Anonymous()
  @CsrfAfterBody()
  @RateLimit('pdf-upload')
  async upload(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    await this.support.upload(req, res, (status, s) =>
      this.support.send(this.tool, req, res, status, { csrf: this.csrf.token(req, res), values: ['auto'] }, s),
    );
  }

  @Post('ocr')
  @Anonymous()
  async run(@Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const csrf = this.csrf.token(req, res);
    const ticked = languagesOf(body.languages);
    const form = await this.support.formInput(body);
    const again = (status: number, error: string, errorField: string, quota?: QuotaState): Promise<void> =>
      this.support.send(
        this.tool,
        req,
        res,
        status,
        { csrf, values: ticked, quota },
        { chosen: form.chosen, url: form.url, error, errorField },
      );
    if (!form.ok) return again(form.status, form.message, form.field);
    const unknown = ticked.find((l) => l !== 'auto' && !(l in OCR_LANGUAGES));
    if (unknown !== undefined)
      return again(
        400,
        `The language "${unknown.slice(0, 20)}" is not offered: choose English, German, French or Spanish, or "Detect it".`,
        'languages',
      );
    // Languages ticked win over "Detect it"; nothing ticked is "Detect it".
    const named = ticked.filter((l) => l !== 'auto');
    const languages = named.length ? [...new Set(named)] : ['auto'];
    const started = await this.ocr.start(form.input, languages, this.support.caller(req));
    if (!started.ok) {
      const words = this.support.failure(req, res, started.failure, started, form.name, 'OCR');
      return again(toolErrorStatus(started.failure.code), words.message, words.field, started.quota);
    }
    res.redirect(303, `/pdf/ocr/jobs/${started.jobId}`);
  }

  @Get('ocr/jobs/:id')
  @Anonymous()
  async job(@Param('id') id: string, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const job = await this.ocr.job(id);
    if (!job)
      throw DomainError.notFound(
        `This OCR job is not known or no longer kept (jobs and their files are kept ${this.support.limits().keptMinutes} minutes). Start again at /pdf/ocr.`,
      );
    let preview: string | undefined;
    if (job.status === 'done' && job.textFileId) {
      const found = await this.files.info(job.textFileId);
      const bytes = found.status === 'ok' ? await this.files.content(found.file) : undefined;
      if (bytes)
        preview = bytes
          .subarray(0, PREVIEW_CHARS * 4)
          .toString('utf8')
          .slice(0, PREVIEW_CHARS)
          .trim();
    }
    const csrf = this.csrf.token(req, res);
    sendPage(
      res,
      200,
      page({
        title: `OCR of ${job.sourceName}`,
        section: 'pdf',
        user: req.webUser,
        csrf,
        body: ocrJobBody(job, this.support.limits(), preview),
      }),
    );
  }
}
