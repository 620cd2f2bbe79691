import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../../common/config/env';
import { JobQueues } from '../../common/jobs/job-queues';
import { ToolFailure } from '../core/tool-failure';
import { FileStoreService } from '../files/file-store.service';
import type { QuotaState } from '../quota/quota.service';
import { ConversionInput, MeteredRun, WebCaller } from '../render/metered-run';
import { POPPLER_MAX_MEMORY_KB, runCapped } from '../render/poppler';
import { preparePdf } from '../render/prepare';
import { extractPageTexts } from '../ai/pdf-text';
import { OcrJobStore } from './ocr-job.store';
import { detectLanguage, isOcrLanguage, OcrLanguage } from './ocr-languages';
import { ocrText, skipsPages } from './sidecar';

/** The quota's and the public stats' name of OCR. */
export const PDF_OCR = 'ocr';
export const OCR_QUEUE = 'pdf-ocr';
/** Time limit of one OCR job (ocrmypdf reads ~1-3 s a page on one core; 200 pages fit). */
export const OCR_TIMEOUT_MS = 15 * 60_000;
/** Jobs queued or running at once (every instance together); beyond, `busy`. */
export const OCR_MAX_UNFINISHED = 20;
/** Jobs one process runs at once (each is one ocrmypdf with one tesseract thread). */
const OCR_CONCURRENCY = 1;

/** What a started job answers: its id, or why it did not start. */
export type OcrStart =
  | { ok: true; jobId: string; quota: QuotaState }
  | { ok: false; failure: ToolFailure; quota: QuotaState; refunded?: boolean };

/**
 * OCR on the website (issue 23 item 2): a scanned PDF becomes a searchable PDF (its text layer read
 * by `pdftotext`) plus its plain text, with Debian's `ocrmypdf` (tesseract 5) as a queued job on
 * the shared {@link JobQueues} (BullMQ with REDIS_URL, so any instance may run it; in-process
 * otherwise). The request checks, reserves the quota, opens the file (decrypted with the password
 * there, which never reaches the queue; repaired; page limits) and stores the prepared input; the
 * job reads it, reports its progress per page in {@link OcrJobStore} and stores the results (kept
 * PDF_RESULT_TTL_S). A failed job is refunded by its ticket.
 */
@Injectable()
export class OcrService implements OnModuleInit {
  private readonly logger = new Logger('PdfOcr');

  constructor(
    private readonly config: AppConfig,
    private readonly metered: MeteredRun,
    private readonly files: FileStoreService,
    private readonly jobs: JobQueues,
    @Inject(OcrJobStore) private readonly store: OcrJobStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register<{ id: string }>(OCR_QUEUE, (data) => this.run(data.id), { concurrency: OCR_CONCURRENCY });
  }

  status(caller: WebCaller): Promise<QuotaState> {
    return this.metered.status(PDF_OCR, caller);
  }

  job(id: string): ReturnType<OcrJobStore['get']> {
    return /^[A-Za-z0-9_-]{22}$/.test(id) ? this.store.get(id) : Promise.resolve(undefined);
  }

  /** Checks, reserves one run, prepares the input and queues the job. `languages`: codes, or ['auto']. */
  async start(input: ConversionInput, languages: string[], caller: WebCaller): Promise<OcrStart> {
    const quotaNow = (): Promise<QuotaState> => this.metered.status(PDF_OCR, caller);
    let checked;
    try {
      if (!languages.length || (languages.join() !== 'auto' && !languages.every(isOcrLanguage)))
        throw new ToolFailure('invalid_arguments', 'language', { field: 'languages' });
      checked = await this.metered.check(input);
      if ((await this.store.unfinished()) >= OCR_MAX_UNFINISHED) throw new ToolFailure('busy', 'queue full');
    } catch (e) {
      if (!(e instanceof ToolFailure)) throw e;
      return { ok: false, failure: e, quota: await quotaNow() };
    }
    const reserved = await this.metered.reserve(PDF_OCR, caller);
    if ('failure' in reserved) return { ok: false, failure: reserved.failure, quota: reserved.quota };
    const dir = await mkdtemp(join(tmpdir(), 'beacon-ocr-in-'));
    try {
      const loaded = await this.metered.load(checked);
      const pdf = await preparePdf(dir, loaded, this.config.PDF_MAX_PAGES, 60_000);
      const bytes = pdf.opened === 'as_is' ? loaded.bytes : new Uint8Array(await readFile(pdf.path));
      const prepared = await this.files.save({
        name: loaded.name,
        bytes,
        pages: pdf.pages,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      const id = randomBytes(16).toString('base64url');
      await this.store.cleanup().catch(() => 0);
      await this.store.create({
        id,
        languages,
        sourceName: loaded.name,
        inputFileId: prepared.file_id,
        pages: pdf.pages,
        ticket: reserved.ticket,
        expiresAt: new Date(prepared.expires_at),
      });
      await this.jobs.add(OCR_QUEUE, { id }, { jobId: `ocr-${id}` });
      return { ok: true, jobId: id, quota: reserved.quota };
    } catch (e) {
      const failure = e instanceof ToolFailure ? e : new ToolFailure('internal_error', 'unexpected');
      if (!(e instanceof ToolFailure)) this.logger.error(e);
      const refunded = await this.metered.refundTicket(reserved.ticket);
      return { ok: false, failure, quota: await quotaNow(), refunded };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The job: OCR of the prepared input, progress per page, results stored; a failure refunded. */
  private async run(id: string): Promise<void> {
    if (!(await this.store.start(id))) return;
    const job = await this.store.get(id);
    if (!job) return;
    const dir = await mkdtemp(join(tmpdir(), 'beacon-ocr-'));
    try {
      const found = await this.files.info(job.inputFileId);
      const bytes = found.status === 'ok' ? await this.files.content(found.file) : undefined;
      if (!bytes) throw new ToolFailure('file_not_found', 'input gone');
      const input = join(dir, 'in.pdf');
      await writeFile(input, bytes, { mode: 0o600 });
      const deadline = Date.now() + OCR_TIMEOUT_MS;
      let languages = job.languages as OcrLanguage[];
      if (job.languages.join() === 'auto') {
        const lang = await this.detect(input, dir, deadline);
        languages = [lang];
        await this.store.progress(id, 0, lang);
      }
      await this.ocrmypdf(
        input,
        dir,
        languages,
        deadline,
        (done) => void this.store.progress(id, done).catch(() => undefined),
      );
      const base = job.sourceName.replace(/\.pdf$/i, '') || 'document';
      const pdf = new Uint8Array(await readFile(join(dir, 'out.pdf')));
      const sidecar = await readFile(join(dir, 'out.txt'), 'utf8');
      const read = skipsPages(sidecar) ? await extractPageTexts(pdf) : undefined;
      const text = ocrText(sidecar, (n) => (read?.ok ? (read.pages[n - 1] ?? '') : ''));
      const textBytes = new TextEncoder().encode(text);
      const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
      const [p, t] = await this.files.saveAll([
        { name: `${base}-ocr.pdf`, bytes: pdf, pages: job.pages, sha256: sha(pdf) },
        { name: `${base}-ocr.txt`, ext: 'txt', bytes: textBytes, pages: job.pages, sha256: sha(textBytes) },
      ]);
      await this.store.finish(id, p.file_id, t.file_id);
      await this.metered.counted(PDF_OCR);
    } catch (e) {
      const failure = e instanceof ToolFailure ? e : new ToolFailure('internal_error', 'unexpected');
      if (!(e instanceof ToolFailure)) this.logger.error(e);
      const refunded = await this.metered.refundTicket(job.ticket).catch(() => false);
      await this.store.fail(id, failure.code, refunded);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The first page's language: drawn at 150 dpi in grey, read with English, told by its words. */
  private async detect(input: string, dir: string, deadline: number): Promise<OcrLanguage> {
    const png = join(dir, 'first');
    const drawn = await runCapped(
      'pdftoppm',
      ['-r', '150', '-gray', '-png', '-f', '1', '-l', '1', '-singlefile', input, png],
      Math.max(1, deadline - Date.now()),
    );
    if (drawn.code !== 0) return 'eng';
    const read = await runCapped(
      'tesseract',
      [`${png}.png`, '-', '-l', 'eng'],
      Math.max(1, deadline - Date.now()),
      POPPLER_MAX_MEMORY_KB,
    );
    return read.code === 0 ? detectLanguage(read.stdout) : 'eng';
  }

  /**
   * `ocrmypdf` on `input` into `dir/out.pdf` and `dir/out.txt`: pages that already have text are
   * kept as they are (`--skip-text`), no PDF/A conversion or optimisation (speed), one job and one
   * tesseract thread (the host's cores are shared). Progress: its verbose log names each page as
   * it is grafted into the output.
   */
  private ocrmypdf(
    input: string,
    dir: string,
    languages: OcrLanguage[],
    deadline: number,
    progress: (pagesDone: number) => void,
  ): Promise<void> {
    const args = [
      '-v',
      '1',
      '-l',
      languages.join('+'),
      '--jobs',
      '1',
      '--output-type',
      'pdf',
      '--optimize',
      '0',
      '--skip-text',
      '--sidecar',
      join(dir, 'out.txt'),
      input,
      join(dir, 'out.pdf'),
    ];
    return new Promise((resolve, reject) => {
      const child = spawn(
        '/bin/sh',
        ['-c', `ulimit -v ${POPPLER_MAX_MEMORY_KB * 2}; exec nice -n 10 ocrmypdf "$@"`, 'ocrmypdf', ...args],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
          env: { ...process.env, OMP_THREAD_LIMIT: '1', TMPDIR: dir },
        },
      );
      const grafted = new Set<number>();
      let tail = '';
      let log = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        log = (log + chunk).slice(-4000);
        const lines = (tail + chunk).split('\n');
        tail = lines.pop() ?? '';
        for (const line of lines) {
          const m = /^\s*(\d+) (?:Grafting|page already has text)/.exec(line);
          if (m && !grafted.has(Number(m[1]))) {
            grafted.add(Number(m[1]));
            progress(grafted.size);
          }
        }
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), Math.max(1, deadline - Date.now()));
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) return resolve();
        if (signal === 'SIGKILL') return reject(new ToolFailure('timeout', 'ocr deadline'));
        this.logger.warn(`ocrmypdf exited ${code}: ${log.split('\n').filter(Boolean).slice(-3).join(' | ')}`);
        // 2: bad input, 4: the input could not be read (damaged), 8: encrypted (prepared inputs never are).
        reject(
          new ToolFailure(
            code === 2 || code === 4 || code === 8 ? 'corrupt_pdf' : 'internal_error',
            `ocrmypdf ${code}`,
          ),
        );
      });
    });
  }
}
