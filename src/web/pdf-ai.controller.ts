/**
 * Over 300 lines: the AI page's routes (upload, summary, chat, translation, its downloads, and
 * "Run OCR, then ..." with its waiting page) share one outcome function, so a request on an
 * uploaded file and the same request after the OCR of a scan end on the same page and refusals.
 */
import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { LRUCache } from 'lru-cache';
import { randomBytes } from 'node:crypto';
import type { UserView } from '../accounts/accounts.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { RateLimit } from '../common/decorators/rate-limit.decorator';
import { MAX_QUESTION_CHARS, notConfiguredMessage, PdfAiFailure, PdfAiService } from '../pdf-tools/ai/pdf-ai.service';
import { toolErrorStatus } from '../pdf-tools/core/tool-failure';
import { OcrService } from '../pdf-tools/ocr/ocr.service';
import { clientSubject } from '../common/http/client-ip';
import { failureWords } from './pages/pdf-convert.pages';
import { ConvertSupport } from './pdf-convert.support';
import { uploadRefusal } from './pdf-web-text';
import { translationPdf } from '../pdf-tools/ai/translation-pdf';
import { FileStoreService } from '../pdf-tools/files/file-store.service';
import { UploadService } from '../pdf-tools/files/upload.service';
import { CsrfService } from './csrf.service';
import { AiAsk, AiFile, pdfAiPage, PdfAiPageState } from './pages/pdf-ai.pages';
import { sendPage } from '../common/html/page';
import { CsrfAfterBody, field, WebRequest, WebUserParam } from './web-context';
import { WebController } from './web-controller.decorator';

/** HTTP status of each refusal on the page. */
const STATUS: Record<PdfAiFailure['reason'], number> = {
  not_configured: 503,
  file_gone: 404,
  no_text_layer: 422,
  unreadable: 422,
  invalid_question: 400,
  invalid_language: 400,
  daily_limit: 429,
  too_long: 413,
  provider_failed: 502,
};
/** The form field a refusal is about. */
const FIELD: Partial<Record<PdfAiFailure['reason'], string>> = {
  invalid_question: 'question',
  invalid_language: 'language',
};

interface AfterOcr {
  userId: string;
  jobId: string;
  ask: AiAsk;
  filename: string;
  answer?: Promise<{ status: number; state: Omit<PdfAiPageState, 'usage'> }>;
}

interface Translation {
  userId: string;
  language: string;
  filename: string;
  text: string;
  pages: { page: number; text: string }[];
}

/**
 * PDF tools > AI (issue #23 item 4, docs/pdf-tools.md): summary, chat and translation of an
 * uploaded PDF for signed-in users. Registered before PdfController, whose `/pdf/:tool` would
 * otherwise answer `/pdf/ai`. A translation's downloads are kept an hour in this instance's memory,
 * for the user who asked only.
 */
@WebController('pdf/ai')
export class PdfAiController {
  private readonly translations = new LRUCache<string, Translation>({ max: 200, ttl: 60 * 60 * 1000 });
  /** Requests waiting for the OCR of their scan ("Run OCR, then ..."), kept an hour for the user who asked. */
  private readonly afterOcr = new LRUCache<string, AfterOcr>({ max: 500, ttl: 60 * 60 * 1000 });

  constructor(
    private readonly ai: PdfAiService,
    private readonly files: FileStoreService,
    private readonly uploads: UploadService,
    private readonly csrf: CsrfService,
    private readonly ocr: OcrService,
    private readonly support: ConvertSupport,
  ) {}

  @Get()
  async show(
    @WebUserParam() user: UserView,
    @Req() req: WebRequest,
    @Res() res: Response,
    @Query('file_id') fileId?: string,
  ): Promise<void> {
    const file = typeof fileId === 'string' ? await this.file(fileId) : undefined;
    // A link to a file no longer kept (a bookmark, an old tab) says so above the upload form.
    if (typeof fileId === 'string' && !file)
      return this.render(user, req, res, 404, {
        error: {
          message: 'That file is no longer available (uploads are kept for a limited time). Upload it again.',
          field: 'file',
        },
      });
    await this.render(user, req, res, 200, { file });
  }

  /** The page's own upload (multipart, no JavaScript): the CSRF token travels in the query string, checked before the body is read. */
  @Post('upload')
  @CsrfAfterBody()
  @RateLimit('pdf-upload')
  async upload(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    this.csrf.assertBeforeUpload(req, res);
    try {
      const up = await this.uploads.upload(req);
      await this.render(user, req, res, 200, { file: await this.file(up.file_id) });
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      if (!req.complete) res.setHeader('Connection', 'close');
      for (const [name, value] of Object.entries(e.headers)) res.setHeader(name, value);
      // In the page's words, as on the tool pages (never the upload's message for agents).
      const message = uploadRefusal('Your file', e.code, e.details.error_detail, this.support.limits());
      await this.render(user, req, res, e.status, { error: { message, field: 'file' } });
    }
  }

  @Post('summarize')
  async summarize(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    await this.answer(user, req, res, await this.chosen(req), { action: 'summarize' });
  }

  @Post('chat')
  async chat(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    await this.answer(user, req, res, await this.chosen(req), { action: 'chat', question: field(req, 'question') });
  }

  @Post('translate')
  async translate(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    await this.answer(user, req, res, await this.chosen(req), {
      action: 'translate',
      language: field(req, 'language'),
    });
  }

  /** Runs a request on a file and draws the page with its result or refusal. */
  private async answer(user: UserView, req: WebRequest, res: Response, file: AiFile, a: AiAsk): Promise<void> {
    const out = await this.outcome(user, file, a);
    await this.render(user, req, res, out.status, out.state);
  }

  /** The page a request on a file leads to (its status and state); a scan's refusal offers the OCR first. */
  private async outcome(
    user: UserView,
    file: AiFile,
    a: AiAsk,
  ): Promise<{ status: number; state: Omit<PdfAiPageState, 'usage'> }> {
    if (a.action === 'summarize') {
      const r = await this.ai.summarize(user, file.file_id);
      return r.ok ? { status: 200, state: { file, summary: r } } : this.refusal(file, r, a);
    }
    if (a.action === 'chat') {
      const question = a.question ?? '';
      const r = await this.ai.chat(user, file.file_id, question);
      // A refused question is not written back when it is over the limit (it could be 100 KB).
      const keep = question.length <= MAX_QUESTION_CHARS ? question : undefined;
      if (!r.ok) return this.refusal(file, r, { ...a, question: keep }, { question: keep });
      return { status: 200, state: { file, chat: { ...r, question }, question: keep } };
    }
    const language = a.language ?? '';
    const r = await this.ai.translate(user, file.file_id, language);
    if (!r.ok) return this.refusal(file, r, a, { language });
    const id = randomBytes(16).toString('base64url');
    this.translations.set(id, {
      userId: user.id,
      language: r.language,
      filename: file.filename,
      text: r.text,
      pages: r.pages,
    });
    return {
      status: 200,
      state: {
        file,
        language,
        translation: {
          language: r.language,
          text: r.text,
          pageCount: r.pageCount,
          download: `/pdf/ai/translations/${id}`,
        },
      },
    };
  }

  private refusal(
    file: AiFile,
    f: PdfAiFailure,
    a: AiAsk,
    extra: Partial<PdfAiPageState> = {},
  ): { status: number; state: Omit<PdfAiPageState, 'usage'> } {
    if (f.reason === 'not_configured') return { status: STATUS[f.reason], state: {} };
    return {
      status: STATUS[f.reason],
      state: {
        ...extra,
        file: f.reason === 'file_gone' ? undefined : file,
        error: { message: f.message, field: FIELD[f.reason] },
        ...(f.reason === 'no_text_layer' ? { offerOcr: a } : {}),
      },
    };
  }

  /**
   * "Run OCR, then ...": the scan goes to the OCR tool's queue (its quota, as on /pdf/ocr), and the
   * request waits on its own page, which shows the OCR's progress and then the answer on the
   * searchable PDF.
   */
  @Post('ocr')
  async ocrFirst(@WebUserParam() user: UserView, @Req() req: WebRequest, @Res() res: Response): Promise<void> {
    const file = await this.chosen(req);
    const then = field(req, 'then');
    const a: AiAsk =
      then === 'chat'
        ? { action: 'chat', question: field(req, 'question').slice(0, MAX_QUESTION_CHARS) }
        : then === 'translate'
          ? { action: 'translate', language: field(req, 'language') }
          : { action: 'summarize' };
    const caller = { ip: clientSubject(req), deviceId: req.deviceId, userId: user.id };
    const started = await this.ocr.start({ fileId: file.file_id }, ['auto'], caller);
    if (!started.ok) {
      const words = failureWords(
        {
          code: started.failure.code,
          details: started.failure.details,
          refunded: started.refunded,
          quota: started.quota,
          countedOn: 'on your account',
        },
        file.filename,
        this.support.limits(),
        'OCR',
      );
      return this.render(user, req, res, toolErrorStatus(started.failure.code), {
        file,
        error: { message: words.message },
      });
    }
    const id = randomBytes(16).toString('base64url');
    this.afterOcr.set(id, { userId: user.id, jobId: started.jobId, ask: a, filename: file.filename });
    res.redirect(303, `/pdf/ai/ocr/${id}`);
  }

  @Get('ocr/:id')
  async ocrThen(
    @WebUserParam() user: UserView,
    @Param('id') id: string,
    @Req() req: WebRequest,
    @Res() res: Response,
  ): Promise<void> {
    const w = this.afterOcr.get(id);
    const job = w && w.userId === user.id ? await this.ocr.job(w.jobId) : undefined;
    if (!w || !job)
      throw new DomainError(ErrorCode.NotFound, 'This request is no longer kept (an hour): start again on /pdf/ai.');
    const poll = `/pdf/ai/ocr/${id}`;
    if (job.status === 'queued' || job.status === 'running')
      return this.render(user, req, res, 200, {
        ocr: {
          pollUrl: poll,
          pages: job.pages,
          pagesDone: job.pagesDone,
          queued: job.status === 'queued',
          ask: w.ask.action,
        },
      });
    const file = job.pdfFileId ? await this.file(job.pdfFileId) : undefined;
    if (job.status !== 'done' || !file) {
      const words = failureWords(
        {
          code: job.error ?? 'internal_error',
          details: {},
          refunded: job.refunded ?? undefined,
          quota: { tool: 'ocr', limit: 0, remaining: 0, resets_at: new Date().toISOString() },
        },
        w.filename,
        this.support.limits(),
        'OCR',
      );
      return this.render(user, req, res, 422, { error: { message: `The OCR failed: ${words.message}` } });
    }
    // The answer is asked once: the page's reloads (and its script's polls) show the same one.
    w.answer ??= this.outcome(user, file, w.ask);
    const out = await w.answer;
    await this.render(user, req, res, out.status, { ...out.state, ocrDone: w.filename });
  }

  @Get('translations/:name')
  async download(@WebUserParam() user: UserView, @Param('name') name: string, @Res() res: Response): Promise<void> {
    const m = /^([A-Za-z0-9_-]{22})\.(pdf|txt)$/.exec(name);
    const t = m ? this.translations.get(m[1]) : undefined;
    if (!m || !t || t.userId !== user.id)
      throw new DomainError(
        ErrorCode.NotFound,
        'This translation is no longer available (kept an hour). Translate the file again.',
      );
    const base = `${t.filename.replace(/\.pdf$/i, '')} (${t.language})`.replace(/[^\p{L}\p{N} ()._-]/gu, '_');
    const body =
      m[2] === 'pdf'
        ? await translationPdf(`${t.filename}: translation into ${t.language}`, t.pages)
        : Buffer.from(t.text + '\n', 'utf8');
    res
      .status(200)
      .set({
        'Content-Type': m[2] === 'pdf' ? 'application/pdf' : 'text/plain; charset=utf-8',
        'Content-Disposition': `attachment; filename="translation.${m[2]}"; filename*=UTF-8''${encodeURIComponent(`${base}.${m[2]}`)}`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(body);
  }

  /** The file a form names (hidden file_id), or a 404 page saying to upload it again. */
  private async chosen(req: WebRequest): Promise<AiFile> {
    const f = await this.file(field(req, 'file_id'));
    if (!f)
      throw new DomainError(
        ErrorCode.NotFound,
        'That file is no longer available (uploads are kept for a limited time). Upload it again on /pdf/ai.',
      );
    return f;
  }

  private async file(id: string): Promise<AiFile | undefined> {
    const found = await this.files.info(id.trim());
    return found.status === 'ok'
      ? { file_id: found.file.id, filename: found.file.filename, bytes: found.file.size }
      : undefined;
  }

  private async render(
    user: UserView,
    req: WebRequest,
    res: Response,
    status: number,
    s: Omit<PdfAiPageState, 'usage'>,
  ): Promise<void> {
    const configured = (await this.ai.provider(user.workspace_id)) !== null;
    const state: PdfAiPageState = {
      ...s,
      usage: await this.ai.today(user.id),
      notConfigured: configured ? undefined : notConfiguredMessage(),
    };
    // Answered to a form (upload, summary, question, translation): the address becomes the file's page.
    const address =
      req.method === 'POST' && !s.ocr
        ? `/pdf/ai${s.file ? `?file_id=${encodeURIComponent(s.file.file_id)}` : ''}`
        : undefined;
    sendPage(res, status, pdfAiPage(user, this.csrf.token(req, res), state, address));
  }
}
