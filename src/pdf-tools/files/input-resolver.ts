import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/env';
import { checkBase64Length, tooLarge } from '../core/base64';
import type { InputFile } from '../core/pdf-open';
import { ToolFailure } from '../core/tool-failure';
import { notExactlyOneSource } from '../tools/argument-errors';
import type { FileRef } from '../tools/tool';
import { decodeAll, type DecodeResult } from '../worker/decode.worker';
import { PdfPoolService } from '../worker/pdf-pool.service';
import { FileStoreService } from './file-store.service';
import type { StoredFile } from './stored-file.entity';
import type { CheckedUrl } from './url-fetcher';
import { UrlInputService } from './url-input.service';

/**
 * Base64 arguments of a call longer than this in total are decoded in a worker; shorter ones on the
 * event loop (well under a millisecond, and no wait for a free worker).
 */
export const WORKER_DECODE_MIN_CHARS = 64 * 1024;

/** One step of resolving a call's files, in the order their errors take precedence. */
type InputStep =
  | { kind: 'base64'; label: string; base64: string; keep: boolean; name: string }
  | { kind: 'file_id'; label: string; ref: FileRef }
  | { kind: 'url'; label: string; ref: FileRef }
  | { kind: 'error'; error: ToolFailure };

/**
 * An input after the checks: its bytes (base64 decoded), a stored file whose bytes are read after
 * the quota, or a checked address downloaded after the quota.
 */
export type PreparedInput =
  InputFile | { label: string; name: string; stored: StoredFile } | { label: string; name?: string; url: CheckedUrl };

/** Reports a step of the downloads (done of total, by bytes received). */
export type LoadProgress = (done: number, total: number, message: string) => void;

/**
 * Input resolution of a tool call, in two phases around the quota: {@link prepare} checks every
 * input without reading a stored byte or downloading (base64 decoded and size-checked, file_ids
 * looked up, urls' first hop checked), {@link load} then reads the stored bytes and downloads the
 * urls. Passwords travel with their file argument to the worker (pdf.worker.ts).
 */
@Injectable()
export class InputResolver {
  constructor(
    private readonly config: AppConfig,
    private readonly pool: PdfPoolService,
    private readonly store: FileStoreService,
    private readonly urls: UrlInputService,
  ) {}

  /**
   * Input bytes of every file argument, checked for size; labels name the argument in errors.
   * Checks come in argument order (`extraBase64`, e.g. image arguments, first), and the first
   * failing one is the error. Sizes are checked from the base64 length before any decoding; large
   * base64 is decoded in a worker, so megabytes of text never pass through a regex or decoder on
   * the event loop.
   */
  async prepare(
    extraBase64: readonly { label: string; base64: string }[],
    refs: readonly { label: string; ref: FileRef }[],
  ): Promise<PreparedInput[]> {
    const max = this.config.PDF_MAX_FILE_BYTES;
    const steps: InputStep[] = [];
    const base64 = (label: string, text: string, keep: boolean, name: string): InputStep => {
      try {
        checkBase64Length(text, label, max);
        return { kind: 'base64', label, base64: text, keep, name };
      } catch (e) {
        return { kind: 'error', error: e as ToolFailure };
      }
    };
    for (const extra of extraBase64) steps.push(base64(extra.label, extra.base64, false, ''));
    for (const { label, ref } of refs) {
      const given = [ref.file_id, ref.url, ref.base64].filter((v) => v !== undefined).length;
      if (given !== 1) steps.push({ kind: 'error', error: notExactlyOneSource(label) });
      else if (ref.file_id !== undefined) steps.push({ kind: 'file_id', label, ref });
      else if (ref.url !== undefined) steps.push({ kind: 'url', label, ref });
      else steps.push(base64(label, ref.base64!, true, ref.filename ?? 'document.pdf'));
    }
    // Nothing after the first refused argument can change the outcome: no work for it.
    const firstError = steps.findIndex((s) => s.kind === 'error');
    if (firstError >= 0) steps.length = firstError + 1;
    const decoded = await this.decodeBase64Inputs(
      steps.flatMap((s) => (s.kind === 'base64' ? [s] : [])),
      max,
    );
    const out: PreparedInput[] = [];
    let d = 0;
    for (const step of steps) {
      if (step.kind === 'error') throw step.error;
      if (step.kind === 'file_id') {
        out.push(await this.checkStored(step.label, step.ref, max));
        continue;
      }
      if (step.kind === 'url') {
        // Scheme and the first host's addresses: refused before the quota, and before any byte is asked for.
        out.push({ label: step.label, name: step.ref.filename, url: await this.urls.check(step.ref.url!, step.label) });
        continue;
      }
      const r = decoded[d++];
      if (!r.ok) throw new ToolFailure(r.code, r.message, r.details);
      if (step.keep) out.push({ label: step.label, name: step.name, bytes: r.bytes! });
    }
    return out;
  }

  /** Page counts of stored inputs, from their rows (undefined: not known, e.g. an encrypted upload or bytes not yet read). */
  pagesOf(prepared: readonly PreparedInput[]): (number | undefined)[] {
    return prepared.map((p) => ('stored' in p ? (p.stored.pages ?? undefined) : undefined));
  }

  /** How many inputs are downloaded by {@link load}. */
  downloadsOf(prepared: readonly PreparedInput[]): number {
    return prepared.filter((p) => 'url' in p).length;
  }

  /** Decodes base64 arguments: in a worker when large (on the event loop if the pool cannot). */
  private async decodeBase64Inputs(
    items: { label: string; base64: string; keep: boolean }[],
    max: number,
  ): Promise<DecodeResult> {
    if (!items.length) return [];
    const task = { items: items.map(({ label, base64, keep }) => ({ label, base64, keep })), maxBytes: max };
    const chars = items.reduce((n, i) => n + i.base64.length, 0);
    if (chars > WORKER_DECODE_MIN_CHARS) {
      const viaWorker = await this.pool.decode(task);
      if (viaWorker) return viaWorker;
    }
    return decodeAll(task);
  }

  /** A file_id input checked from its row (exists, not expired, size): no byte read yet. */
  private async checkStored(label: string, ref: FileRef, max: number): Promise<PreparedInput> {
    const found = await this.store.info(ref.file_id!);
    if (found.status !== 'ok') throw this.notFound(label, ref.file_id!, found.status);
    if (found.file.size > max) throw tooLarge(label, found.file.size, max);
    return { label, name: ref.filename ?? found.file.filename, stored: found.file };
  }

  private notFound(label: string, id: string, status: 'expired' | 'missing'): ToolFailure {
    return new ToolFailure(
      'file_not_found',
      `${label}: file_id "${id}" is ${status === 'expired' ? 'expired' : 'unknown'}. Results are kept for ${Math.round(this.config.PDF_RESULT_TTL_S / 60)} minutes; send the PDF as base64 or run the tool that made it again.`,
      { input: label },
    );
  }

  /**
   * Reads the bytes of stored inputs and downloads url inputs (after the quota), one after the
   * other; `progress` gets the downloads' share (each url an equal part, by bytes received).
   */
  async load(prepared: readonly PreparedInput[], progress: LoadProgress): Promise<InputFile[]> {
    const out: InputFile[] = [];
    const max = this.config.PDF_MAX_FILE_BYTES;
    const downloads = this.downloadsOf(prepared);
    let downloaded = 0;
    const readOnce = new Map<string, Uint8Array>();
    for (const p of prepared) {
      if ('url' in p) {
        const base = downloaded;
        const got = await this.urls.fetch(p.url, p.label, (received, total) =>
          progress(
            base + received / (total ?? max),
            downloads,
            `Downloading ${p.label}: ${received} bytes${total ? ` of ${total}` : ''}`,
          ),
        );
        downloaded++;
        progress(downloaded, downloads, `Downloaded ${p.label} (${got.bytes.length} bytes)`);
        out.push({ label: p.label, name: p.name ?? got.filename ?? 'document.pdf', bytes: got.bytes });
        continue;
      }
      if (!('stored' in p)) {
        out.push(p);
        continue;
      }
      // The same file given twice (e.g. merged with itself) is read once; the worker only reads input bytes.
      const id = p.stored.id;
      let bytes = readOnce.get(id);
      if (!bytes) {
        const read = await this.store.content(p.stored);
        if (!read) throw this.notFound(p.label, id, 'expired');
        bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
        readOnce.set(id, bytes);
      }
      out.push({ label: p.label, name: p.name, bytes });
    }
    return out;
  }
}
