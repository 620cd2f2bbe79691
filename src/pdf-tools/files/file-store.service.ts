import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { LessThan, Repository } from 'typeorm';
import { AppConfig } from '../../common/config/env';
import type { StoredFileInfo } from '../tools/tool';
import { StoredFile } from './stored-file.entity';

export interface NewFile {
  name: string;
  bytes: Uint8Array;
  pages: number;
  sha256: string;
}

export type FileLookup =
  | { status: 'ok'; file: StoredFile; bytes: Buffer }
  | { status: 'expired' | 'missing' };

/** A stored file's row without its bytes (size, pages, expiry), or why not. */
export type FileInfoLookup = { status: 'ok'; file: StoredFile } | { status: 'expired' | 'missing' };

/**
 * Bytes read per query when streaming a file out of PostgreSQL (memory per download). 1 MB: a
 * 10 MB result is 10 queries (256 KB made it 40, a tenth of the round trip's time in bench/pdf).
 */
export const FILE_CHUNK_BYTES = 1024 * 1024;

const ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** File names as we hand them out: no paths or control characters, ending in .pdf. */
export function safeFilename(name: string): string {
  const base = name
    .replace(/[\\/]+/g, '_')
    .replace(/["\p{Cc}]/gu, '')
    .trim()
    .slice(0, 200);
  const withExt = /\.pdf$/i.test(base) ? base : `${base || 'document'}.pdf`;
  return withExt.startsWith('.') ? `document${withExt}` : withExt;
}

/**
 * Stored tool results: bytes in PostgreSQL (shared by every instance), ids of 256 random bits,
 * expiry after PDF_RESULT_TTL_S, and a cleanup job that deletes expired rows every minute.
 */
@Injectable()
export class FileStoreService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('PdfFiles');
  private timer?: NodeJS.Timeout;
  /**
   * Recently saved files' bytes (insertion order = age), at most PDF_FILE_CACHE_BYTES in total: the
   * download of a result or the next call by file_id usually comes right after the save, and then
   * skips reading megabytes back from PostgreSQL. PostgreSQL stays the record (other instances,
   * restarts); an entry never outlives its file's expiry.
   */
  private readonly recent = new Map<string, { bytes: Buffer; expiresAt: number }>();
  private recentBytes = 0;

  constructor(
    @InjectRepository(StoredFile) private readonly files: Repository<StoredFile>,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const every = Math.min(60, this.config.PDF_RESULT_TTL_S) * 1000;
    this.timer = setInterval(() => {
      this.cleanup().catch((e: Error) => this.logger.warn(`cleanup failed: ${e.message}`));
    }, every);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  downloadUrl(id: string): string {
    return `${this.config.publicBaseUrl()}/files/${id}`;
  }

  async save(file: NewFile): Promise<StoredFileInfo> {
    const id = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.config.PDF_RESULT_TTL_S * 1000);
    const filename = safeFilename(file.name);
    const content = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    await this.files.insert({ id, filename, content, size: file.bytes.length, pages: file.pages, sha256: file.sha256, expiresAt });
    this.remember(id, content, expiresAt.getTime());
    return {
      file_id: id,
      download_url: this.downloadUrl(id),
      expires_at: expiresAt.toISOString(),
      filename,
      bytes: file.bytes.length,
      pages: file.pages,
      sha256: file.sha256,
    };
  }

  /** The file's row without its bytes: cheap, so limits and the quota are checked before any byte is read. */
  async info(id: string): Promise<FileInfoLookup> {
    if (!ID_PATTERN.test(id)) return { status: 'missing' };
    const file = await this.files.findOne({ where: { id } });
    if (!file) return { status: 'missing' };
    if (file.expiresAt.getTime() <= Date.now()) return { status: 'expired' };
    return { status: 'ok', file };
  }

  /**
   * The bytes of a file (undefined if it is gone). Call after {@link info} and the quota. The
   * caller owns the buffer (it may move it to a worker): a cached file is handed out as a copy.
   */
  async content(id: string): Promise<Buffer | undefined> {
    const cached = this.cached(id);
    if (cached) return Buffer.from(cached);
    const rows: { content: Buffer }[] = await this.files.query('SELECT content FROM pdf_files WHERE id = $1', [id]);
    return rows[0]?.content;
  }

  /**
   * The bytes of a file, `FILE_CHUNK_BYTES` per query, as an async iterable: a download holds one
   * chunk in memory, not the file. Ends early (throws) if the row disappears mid-way.
   */
  async *chunks(id: string, size: number): AsyncGenerator<Buffer> {
    for (let offset = 0; offset < size; offset += FILE_CHUNK_BYTES) {
      const rows: { chunk: Buffer | null }[] = await this.files.query('SELECT substring(content FROM $2 FOR $3) AS chunk FROM pdf_files WHERE id = $1', [
        id,
        offset + 1,
        FILE_CHUNK_BYTES,
      ]);
      if (!rows[0]?.chunk) throw new Error(`file ${id.slice(0, 6)}… disappeared while streaming`);
      yield rows[0].chunk;
    }
  }

  /** The file with its bytes, or why not (unknown id, or past its expiry). */
  async lookup(id: string): Promise<FileLookup> {
    if (!ID_PATTERN.test(id)) return { status: 'missing' };
    const file = await this.files
      .createQueryBuilder('f')
      .addSelect('f.content')
      .where('f.id = :id', { id })
      .getOne();
    if (!file) return { status: 'missing' };
    if (file.expiresAt.getTime() <= Date.now()) return { status: 'expired' };
    return { status: 'ok', file, bytes: file.content };
  }

  /** The bytes of a recently saved file still in this instance's memory (do not modify or transfer them). */
  cached(id: string): Buffer | undefined {
    const entry = this.recent.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.forget(id);
      return undefined;
    }
    return entry.bytes;
  }

  private remember(id: string, bytes: Buffer, expiresAt: number): void {
    const cap = this.config.PDF_FILE_CACHE_BYTES;
    if (bytes.length > cap) return;
    this.recent.set(id, { bytes, expiresAt });
    this.recentBytes += bytes.length;
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

  /** Deletes expired results; returns how many. */
  async cleanup(): Promise<number> {
    const now = Date.now();
    for (const [id, entry] of this.recent) if (entry.expiresAt <= now) this.forget(id);
    const res = await this.files.delete({ expiresAt: LessThan(new Date()) });
    return res.affected ?? 0;
  }
}
