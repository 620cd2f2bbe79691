/**
 * Over 300 lines: the in-memory copy of bytes being written, the write queue and the readers waiting for it share one
 * state (what is held, what is written), which stays consistent only with one class owning it.
 */
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../../common/config/env';
import type { StoredFileInfo } from '../tools/tool';
import { StoredFile } from './stored-file.entity';
import { StoredFileStore } from './stored-file.store';
import { safeFilename, type FileExt } from './safe-filename';
export { contentTypeOf, FILE_TYPES, safeFilename, type FileExt } from './safe-filename';
import { FILE_BYTES, type FileBytes } from './bytes/file-bytes';
import { plural } from '../../common/text/plural';
import { isShared, toShared } from '../../common/workers/shared-bytes';

/** A file to store; `Pages` is null for an upload encrypted with a password (pages not known yet). */
export interface NewFile<Pages extends number | null = number> {
  name: string;
  /** The kind of file (its name's extension, which GET /files/{id} serves it as); a PDF when absent. */
  ext?: FileExt;
  bytes: Uint8Array;
  pages: Pages;
  sha256: string;
}

/** A stored file as the APIs show it, with the page count it was saved with. */
export type SavedFile<Pages extends number | null = number> = Omit<StoredFileInfo, 'pages'> & { pages: Pages };

/** A stored file's row without its bytes (size, pages, expiry), or why not. */
export type FileInfoLookup = { status: 'ok'; file: StoredFile } | { status: 'expired' | 'missing' };

/**
 * Bytes read per query when streaming a file out of PostgreSQL (memory per download). 1 MB: a
 * 10 MB result is 10 queries (256 KB made it 40, a tenth of the round trip's time in bench/pdf).
 */
export const FILE_CHUNK_BYTES = 1024 * 1024;

/**
 * How long a reader waits for the bytes of a file whose row is stored but whose bytes are still
 * being written by the instance that made it; past this age a row without bytes is a file lost
 * (that instance stopped before its write ended).
 */
export const FILE_WRITE_WAIT_MS = 30_000;

/** Attempts at writing a file's bytes (after the first failure: 0.5 s, then 1 s later). */
const WRITE_ATTEMPTS = 3;

/** How often a reader looks again for bytes still being written (another instance's). */
const WRITE_POLL_MS = 20;

/** A file this instance holds in memory: its row and its bytes. */
interface Held {
  file: StoredFile;
  bytes: Buffer;
}

/**
 * The bytes of a held file in shared memory, for a tool: uploads already are; a tool's result is
 * copied there the first time a tool reads it (only chained results pay that copy; a result that
 * is only downloaded never does) and held so from then on.
 */
function inSharedMemory(held: Held): Buffer {
  if (!isShared(held.bytes)) held.bytes = toShared(held.bytes);
  return held.bytes;
}

/** Where a file's bytes are: stored, gone (unknown id, deleted) or lost (never written). */
export type BytesState = 'stored' | 'missing' | 'lost';

const ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Stored files (uploads and tool results): rows in pdf_files ({@link StoredFileStore}), bytes where {@link FileBytes} keeps
 * them (PostgreSQL, or the directory PDF_FILE_DIR; shared by every instance either way), ids of
 * 256 random bits, expiry after PDF_RESULT_TTL_S, and a cleanup job that deletes expired files
 * every minute.
 *
 * A save stores the row first (name, size, pages, hash: small, so every instance knows the file at
 * once) and writes the bytes right after, without the caller waiting for megabytes to be written:
 * meanwhile this instance serves them from memory, and a reader on another instance waits for
 * them ({@link whenStored}). Bytes being written are bounded by PDF_FILE_CACHE_BYTES
 * (beyond it a save waits for its write), retried on failure, and waited for at shutdown; only a
 * crash of this instance within those milliseconds loses a file, which readers then report.
 */
@Injectable()
export class FileStoreService implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('PdfFiles');
  private timer?: NodeJS.Timeout;
  /**
   * Recently saved or used files (row and bytes; least recently used first), at most
   * PDF_FILE_CACHE_BYTES in total: the download of a result or the next call by file_id usually
   * comes right after the save, and then skips PostgreSQL. PostgreSQL stays the record (other
   * instances, restarts); an entry never outlives its file's expiry.
   */
  private readonly recent = new Map<string, Held>();
  private recentBytes = 0;
  /** Files whose row is stored and whose bytes are being written: served from here until written. */
  private readonly writing = new Map<string, Held & { done: Promise<boolean> }>();
  private writingBytes = 0;

  constructor(
    private readonly files: StoredFileStore,
    @Inject(FILE_BYTES) private readonly bytes: FileBytes,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.logger.log(`The bytes of stored PDF files are kept in ${this.bytes.where}`);
    const every = Math.min(60, this.config.PDF_RESULT_TTL_S) * 1000;
    this.timer = setInterval(() => {
      this.cleanup().catch((e: Error) => this.logger.warn(`cleanup failed: ${e.message}`));
    }, every);
    this.timer.unref();
  }

  /** Before the database connection closes: every write in progress ends (written, or failed after its retries). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.writing.values()].map((w) => w.done));
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  downloadUrl(id: string): string {
    return `${this.config.publicBaseUrl()}/files/${id}`;
  }

  async save<Pages extends number | null>(file: NewFile<Pages>): Promise<SavedFile<Pages>> {
    return (await this.saveAll([file]))[0];
  }

  /** Saves the files of one call: their rows in one insert, then their bytes (see the class). */
  async saveAll<Pages extends number | null>(files: NewFile<Pages>[]): Promise<SavedFile<Pages>[]> {
    if (!files.length) return [];
    const expiresAt = new Date(Date.now() + this.config.PDF_RESULT_TTL_S * 1000);
    const rows = await this.files.insert(
      files.map((f) => ({
        id: randomBytes(32).toString('base64url'),
        filename: safeFilename(f.name, f.ext),
        size: f.bytes.length,
        pages: f.pages,
        sha256: f.sha256,
        createdAt: new Date(),
        expiresAt,
      })),
    );
    const written = this.write(
      rows.map((file, i) => ({
        file,
        bytes: Buffer.from(files[i].bytes.buffer, files[i].bytes.byteOffset, files[i].bytes.byteLength),
      })),
    );
    // Too many megabytes still being written already: this save waits for its own.
    if (this.writingBytes > this.config.PDF_FILE_CACHE_BYTES && !(await written))
      throw new Error('the bytes of the files could not be written');
    return rows.map((row, i) => ({
      file_id: row.id,
      download_url: this.downloadUrl(row.id),
      expires_at: row.expiresAt.toISOString(),
      filename: row.filename,
      bytes: row.size,
      pages: files[i].pages,
      sha256: row.sha256,
    }));
  }

  /**
   * Writes the bytes of stored rows (for PostgreSQL one statement, so one connection, however many files), retried;
   * they are served from memory until written (then kept in the recent-files cache). After the last
   * failed attempt the rows are deleted: the files are then unknown everywhere rather than waited for.
   */
  private write(batch: Held[]): Promise<boolean> {
    const ids = batch.map((h) => h.file.id);
    const size = batch.reduce((n, h) => n + h.bytes.length, 0);
    const name = `${plural(batch.length, 'file')} (${ids[0].slice(0, 6)}…)`;
    const done = (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await this.bytes.write(batch.map((h) => ({ id: h.file.id, bytes: h.bytes })));
          return true;
        } catch (e) {
          if (attempt >= WRITE_ATTEMPTS) {
            this.logger.error(`${name}: the bytes could not be written (${(e as Error).message}); dropped`);
            await this.files.delete(ids).catch(() => undefined);
            await this.bytes.remove(ids).catch(() => undefined);
            return false;
          }
          this.logger.warn(`${name}: writing the bytes failed (${(e as Error).message}); retrying`);
          await sleep(250 * 2 ** attempt);
        }
      }
    })().then((ok) => {
      for (const held of batch) {
        // The bytes as held meanwhile (a tool may have read them, and put them in shared memory).
        const bytes = this.writing.get(held.file.id)?.bytes ?? held.bytes;
        this.writing.delete(held.file.id);
        if (ok) this.remember({ file: held.file, bytes });
      }
      this.writingBytes -= size;
      return ok;
    });
    for (const held of batch) this.writing.set(held.file.id, { ...held, done });
    this.writingBytes += size;
    return done;
  }

  /**
   * Waits until the bytes of a stored file are written (another instance may still be writing
   * them): 'stored', 'missing' (its row is gone) or 'lost' (no bytes FILE_WRITE_WAIT_MS after the
   * row was made: the instance writing them stopped).
   */
  async whenStored(file: StoredFile): Promise<BytesState> {
    if (this.held(file.id)) return 'stored';
    for (;;) {
      if (await this.bytes.has(file.id)) return 'stored';
      if (!(await this.files.exists(file.id))) return 'missing';
      if (Date.now() - file.createdAt.getTime() > FILE_WRITE_WAIT_MS) return 'lost';
      await sleep(WRITE_POLL_MS);
    }
  }

  /** The file's row without its bytes: cheap, so limits and the quota are checked before any byte is read. */
  async info(id: string): Promise<FileInfoLookup> {
    if (!ID_PATTERN.test(id)) return { status: 'missing' };
    const file = this.held(id)?.file ?? (await this.files.find(id));
    if (!file) return { status: 'missing' };
    if (file.expiresAt.getTime() <= Date.now()) return { status: 'expired' };
    return { status: 'ok', file };
  }

  /**
   * The bytes of a file (undefined if it is gone or lost), waiting for them if another instance
   * is still writing them; kept in memory afterwards. Call with the row {@link info} found, after
   * the quota. The bytes are in shared memory and shared with this instance's memory of the file
   * (see common/workers/shared-bytes.ts): read them, hand them to a PDF worker, never write into them.
   */
  async content(file: StoredFile): Promise<Buffer | undefined> {
    const held = this.held(file.id);
    if (held) return inSharedMemory(held);
    if ((await this.whenStored(file)) !== 'stored') return undefined;
    const read = await this.bytes.read(file.id);
    if (!read) return undefined;
    // Read once from where the bytes are (made on another instance, or no longer in memory): the next call
    // chaining it finds it here.
    const bytes = toShared(read);
    this.remember({ file, bytes });
    return bytes;
  }

  /**
   * The bytes of a file, `FILE_CHUNK_BYTES` at a time, as an async iterable: a download holds one
   * chunk in memory, not the file. Ends early (throws) if the file disappears mid-way. Call once
   * {@link whenStored} said 'stored' (for a file not in this instance's memory).
   */
  chunks(id: string, size: number): AsyncIterable<Buffer> {
    return this.bytes.chunks(id, size, FILE_CHUNK_BYTES);
  }

  /** The bytes of a recently saved file still in this instance's memory (shared memory: never write into them). */
  cached(id: string): Buffer | undefined {
    return this.held(id)?.bytes;
  }

  /** A file this instance holds in memory (being written, or recent and not expired). */
  private held(id: string): Held | undefined {
    const writing = this.writing.get(id);
    if (writing) return writing;
    const entry = this.recent.get(id);
    if (!entry) return undefined;
    if (entry.file.expiresAt.getTime() <= Date.now()) {
      this.forget(id);
      return undefined;
    }
    // Used again: the newest entry now (an input chained into call after call stays in memory).
    this.recent.delete(id);
    this.recent.set(id, entry);
    return entry;
  }

  private remember(held: Held): void {
    const cap = this.config.PDF_FILE_CACHE_BYTES;
    if (held.bytes.length > cap) return;
    this.forget(held.file.id); // read twice at once: kept once
    this.recent.set(held.file.id, held);
    this.recentBytes += held.bytes.length;
    for (const oldest of this.recent.keys()) {
      if (this.recentBytes <= cap) break;
      this.forget(oldest);
    }
  }

  private forget(id: string): void {
    const entry = this.recent.get(id);
    if (!entry) return;
    this.recent.delete(id);
    this.recentBytes -= entry.bytes.length;
  }

  /**
   * Deletes expired files, rows and bytes; returns how many. Bytes older than a file's lifetime
   * (plus the wait for bytes being written) go too, whatever their rows say: a directory shared by
   * instances also holds what a stopped instance never got to delete.
   */
  async cleanup(): Promise<number> {
    const now = Date.now();
    for (const [id, entry] of this.recent) if (entry.file.expiresAt.getTime() <= now) this.forget(id);
    const ids = await this.files.expiredIds(new Date());
    if (ids.length) {
      await this.files.delete(ids);
      await this.bytes.remove(ids);
    }
    await this.bytes.sweep(this.config.PDF_RESULT_TTL_S * 1000 + FILE_WRITE_WAIT_MS);
    return ids.length;
  }
}
