import { Injectable } from '@nestjs/common';
import busboy from 'busboy';
import type { Request } from 'express';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { concatShared, sharedBytes } from '../../common/workers/shared-bytes';
import { PdfPoolService } from '../worker/pdf-pool.service';
import { findPdfHeader } from '../core/pdf-open';
import type { StoredFileInfo } from '../tools/tool';
import { FileStoreService } from './file-store.service';

/** An upload's body as read: its bytes (in shared memory) and their sha256. */
interface ReadBody {
  bytes: Buffer;
  sha256: string;
}

/**
 * What POST /files answers (201). An upload encrypted with a password (needed to open it) is stored
 * as sent: `encrypted: true`, `pages: null` (unknown until opened), and the tools open it with the
 * `password` given next to its file_id. The password never reaches the upload.
 */
export type UploadResult = Pick<StoredFileInfo, 'file_id' | 'expires_at' | 'bytes' | 'sha256'> & {
  download_url: string;
  filename: string;
  pages: number | null;
  encrypted?: true;
  note?: string;
};

/**
 * Uploads outside MCP: the PDF as the raw body (`application/pdf`) or as the multipart field
 * `file`. Read as a stream and cut off at PDF_MAX_FILE_BYTES (never buffered beyond it), with an
 * idle and a total deadline; checked to be a PDF within the page limit in a PDF worker; stored
 * only when everything passed (one insert), so nothing is half-stored. No tool quota is spent.
 */
@Injectable()
export class UploadService {
  constructor(
    private readonly config: AppConfig,
    private readonly store: FileStoreService,
    private readonly pool: PdfPoolService,
  ) {}

  async upload(req: Request): Promise<UploadResult> {
    const max = this.config.PDF_MAX_FILE_BYTES;
    const declared = Number(req.headers['content-length']);
    if (req.is('application/pdf')) {
      if (declared > max) throw this.tooLarge(declared);
      return this.accept(await this.read(req, req, declared), rawUploadName(req));
    }
    if (req.is('multipart/form-data')) return this.multipart(req);
    throw new DomainError(
      ErrorCode.UnsupportedMediaType,
      'Send the PDF as the raw body with Content-Type: application/pdf, or as the multipart/form-data field "file".',
    );
  }

  private multipart(req: Request): Promise<UploadResult> {
    return new Promise<UploadResult>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: req.headers,
          defParamCharset: 'utf8',
          limits: { files: 1, fields: 10, fileSize: this.config.PDF_MAX_FILE_BYTES + 1, parts: 12 },
        });
      } catch (e) {
        return reject(new DomainError(ErrorCode.BadRequest, `Malformed multipart body: ${(e as Error).message}.`));
      }
      let seen = false;
      parser.on('file', (field, stream, info) => {
        if (field !== 'file' || seen) {
          stream.resume();
          return;
        }
        seen = true;
        // The file is shorter than the whole body: its Content-Length bounds it (copied into place as it comes).
        this.read(stream, req, Number(req.headers['content-length']))
          .then((bytes) => this.accept(bytes, info.filename || 'upload.pdf'))
          .then(resolve, reject);
      });
      parser.on('error', (e: Error) =>
        reject(new DomainError(ErrorCode.BadRequest, `Malformed multipart body: ${e.message}.`)),
      );
      // More parts or fields than a file upload has: 413, like a form over the field limit.
      const tooMany = (): void => {
        req.unpipe(parser);
        req.pause(); // nothing more is read: the connection is closed once the answer is out
        reject(
          new DomainError(
            ErrorCode.PayloadTooLarge,
            'The upload has too many parts: send the PDF alone in the field "file".',
          ),
        );
      };
      parser.on('partsLimit', tooMany);
      parser.on('fieldsLimit', tooMany);
      parser.on('close', () => {
        if (!seen)
          reject(
            new DomainError(ErrorCode.BadRequest, 'No file in the multipart body: send the PDF in the field "file".'),
          );
      });
      req.pipe(parser);
    });
  }

  /**
   * The bytes of `stream` (in shared memory, see shared-bytes.ts) and their sha256, cut off past
   * the file limit and on the idle and total deadlines. The hash is updated, and with a known
   * length (`expected`: a raw body's Content-Length, or a multipart body's, which bounds its file)
   * the bytes copied into place, chunk by chunk as they arrive: no single multi-millisecond block on
   * the event loop at the end of a large upload (nor a copy of every chunk into one at the end).
   */
  private read(stream: Readable, req: Request, expected?: number): Promise<ReadBody> {
    const max = this.config.PDF_MAX_FILE_BYTES;
    return new Promise<ReadBody>((resolve, reject) => {
      const into =
        expected !== undefined && Number.isSafeInteger(expected) && expected > 0 && expected <= max
          ? sharedBytes(expected)
          : undefined;
      const chunks: Buffer[] = [];
      const hash = createHash('sha256');
      let size = 0;
      let done = false;
      const finish = (e?: Error) => {
        if (done) return;
        done = true;
        clearTimeout(total);
        clearTimeout(idle);
        stream.removeAllListeners('data');
        if (e) {
          chunks.length = 0;
          // Nothing more is read: the connection is closed once the error answer is out.
          req.unpipe();
          req.pause();
          reject(e);
        } else {
          const bytes = into ? into.subarray(0, size) : concatShared(chunks, size);
          resolve({ bytes, sha256: hash.digest('hex') });
        }
      };
      const timeout = (what: string) =>
        finish(
          new DomainError(ErrorCode.RequestTimeout, `The upload was too slow (${what}). Send the whole file at once.`),
        );
      const total = setTimeout(
        () => timeout(`not complete after ${this.config.PDF_UPLOAD_TIMEOUT_MS} ms`),
        this.config.PDF_UPLOAD_TIMEOUT_MS,
      );
      const idle = setTimeout(
        () => timeout(`no data for ${this.config.PDF_UPLOAD_IDLE_TIMEOUT_MS} ms`),
        this.config.PDF_UPLOAD_IDLE_TIMEOUT_MS,
      );
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > max) return finish(this.tooLarge());
        if (into && size <= into.length) into.set(chunk, size - chunk.length);
        else if (into)
          return finish(
            new DomainError(
              ErrorCode.BadRequest,
              `The upload is longer than its Content-Length (${into.length} bytes).`,
            ),
          );
        else chunks.push(chunk);
        hash.update(chunk);
        // The same timer, started again (no new timer per chunk: a 4 MB upload arrives in ~64 of them).
        idle.refresh();
      });
      stream.on('end', () => finish());
      stream.on('error', (e: Error) =>
        finish(new DomainError(ErrorCode.BadRequest, `The upload failed: ${e.message}.`)),
      );
      req.on('aborted', () => finish(new DomainError(ErrorCode.BadRequest, 'The upload was aborted by the client.')));
    });
  }

  /**
   * Checks the bytes in a PDF worker (a PDF, page limit) and stores them. Not overlapped with the
   * write of the bytes to a directory: on 2 shared cores that write took CPU from the check, and the
   * answer came later (docs/benchmarks.md, issue #25 item 3, second pass).
   */
  private async accept({ bytes, sha256 }: ReadBody, name: string): Promise<UploadResult> {
    if (bytes.length === 0) throw new DomainError(ErrorCode.BadRequest, 'The upload is empty (0 bytes).');
    if (findPdfHeader(bytes) < 0) {
      throw new DomainError(ErrorCode.UnsupportedMediaType, 'The upload is not a PDF (no %PDF- header).', {
        error_detail: 'not_a_pdf',
      });
    }
    const pages = await this.check(bytes, name);
    const saved = await this.store.save({ name, bytes, pages, sha256 });
    // Encrypted: its pages are not known until a tool opens it with its password.
    const encrypted = saved.pages === null;
    return {
      file_id: saved.file_id,
      expires_at: saved.expires_at,
      bytes: saved.bytes,
      pages: saved.pages,
      sha256: saved.sha256,
      download_url: saved.download_url,
      filename: saved.filename,
      ...(encrypted
        ? {
            encrypted: true as const,
            note: `The file is encrypted with a password (needed to open it). It is stored as sent: pass its password next to the file_id in each tool call, e.g. {"file_id": "${saved.file_id}", "password": "..."}. Its pages are counted and checked when a tool opens it.`,
          }
        : {}),
    };
  }

  /**
   * The upload's page count from a PDF worker, or null when it is encrypted with a password it does
   * not carry (stored as is, opened by the tools with `password`); throws when it is refused.
   */
  private async check(bytes: Buffer, name: string): Promise<number | null> {
    // In shared memory: the worker reads the bytes we store, no copy on the event loop.
    const checked = await this.pool.run({
      tool: 'pdf_metadata',
      args: { file: {} },
      inputs: [{ label: 'the upload', name, bytes }],
      limits: { maxBytes: this.config.PDF_MAX_FILE_BYTES, maxPages: this.config.PDF_MAX_PAGES },
    });
    if (checked.ok) return Number((checked.data as { pages: number }).pages);
    if (checked.code === 'encrypted' && checked.details.password_given === false) return null;
    const status =
      checked.code === 'busy' || checked.code === 'timeout' ? ErrorCode.ServiceUnavailable : ErrorCode.BadRequest;
    throw new DomainError(status, sentence(checked.message), { error_detail: checked.code });
  }

  private tooLarge(declared?: number): DomainError {
    const max = this.config.PDF_MAX_FILE_BYTES;
    return new DomainError(
      ErrorCode.PayloadTooLarge,
      `The upload is ${declared ? `${declared} bytes` : 'larger than the limit'}; the limit is ${max} bytes per file.`,
      {
        limit: max,
      },
    );
  }
}

/** A message that starts with an input's label ("the upload is ...") as a sentence: capitalised. */
function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/**
 * The name of a raw-body upload: `?filename=` or `Content-Disposition: attachment; filename=...`
 * (`filename*=UTF-8''...` preferred), else "upload.pdf". The store makes it a safe file name.
 */
export function rawUploadName(req: Pick<Request, 'query' | 'headers'>): string {
  const query = req.query?.filename;
  if (typeof query === 'string' && query.trim()) return query.trim();
  const header = req.headers['content-disposition'];
  if (typeof header === 'string') {
    const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
    if (extended) {
      try {
        const name = decodeURIComponent(extended[1].trim());
        if (name) return name;
      } catch {
        // A bad percent-encoding: the plain filename (if any) instead.
      }
    }
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(header);
    const name = (plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2])?.trim();
    if (name) return name;
  }
  return 'upload.pdf';
}
