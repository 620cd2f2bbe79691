import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BytesToWrite, FileBytes } from './file-bytes';

/** Ids are base64url (FileStoreService): nothing else may become a path. */
const SAFE_ID = /^[A-Za-z0-9_-]{16,64}$/;
/** Modes of what is stored: readable by this service's user only, whatever the umask. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Bytes as files in a directory (PDF_FILE_DIR): one file per id, in a sub-folder named by the id's
 * first two characters. Several instances share it when it is a shared volume. A file is written
 * under a temporary name and renamed, so a reader sees all of it or nothing. Not fsynced: the files
 * live for PDF_RESULT_TTL_S, and a machine that crashes loses at most the last moments' results,
 * which readers then report as not stored completely (as with a write cut off on PostgreSQL).
 * Folders are 0700 and files 0600 (set explicitly, not left to the umask); folders and files made
 * wider by an earlier version are narrowed at start-up.
 *
 * File work runs on the libuv thread pool, whose threads the PDF pool lowers to nice 10
 * (common/workers/native-threads.ts): on a busy machine each hop to it waits its turn, so a file is
 * read in one read, not in Node's 512 KiB slices (4 MB at nice 10 under load: 48 ms as slices, 8 ms
 * in one), and its folder is made once per process, not before every write.
 */
export class DirectoryFileBytes implements FileBytes {
  readonly where: string;
  private readonly root: string;
  /** Sub-folders known to exist (at most 4,096: two base64url characters); a write that finds one gone makes it again. */
  private readonly folders = new Set<string>();

  constructor(dir: string) {
    this.root = resolve(dir);
    this.where = `the directory ${this.root}`;
    // At start-up: folders (and files) left readable to others by an earlier version are narrowed.
    this.narrowing = this.narrowModes().catch(() => 0);
  }

  /** The start-up pass of {@link narrowModes} (tests wait for it). */
  readonly narrowing: Promise<number>;

  /** A folder, created (with its parents) 0700 whatever the umask. */
  private async folder(path: string): Promise<void> {
    const created = await mkdir(path, { recursive: true, mode: DIR_MODE });
    if (created === undefined) return;
    // mkdir's mode is cut by the umask, and only the first folder created is returned: the root may be new too.
    for (const dir of new Set([this.root, path])) if (dir.startsWith(created)) await chmod(dir, DIR_MODE);
  }

  /**
   * Narrows the root, every folder to 0700 and every file to 0600 where they are wider; returns how
   * many it changed. One stat per folder and file, as a sweep does.
   */
  async narrowModes(): Promise<number> {
    let changed = 0;
    const narrow = async (path: string, mode: number): Promise<void> => {
      const info = await stat(path).catch(() => undefined);
      if (info && (info.mode & 0o777 & ~mode) !== 0) {
        await chmod(path, mode).catch(() => undefined);
        changed++;
      }
    };
    await narrow(this.root, DIR_MODE);
    for (const folder of await readdir(this.root).catch(() => [] as string[])) {
      const dir = join(this.root, folder);
      await narrow(dir, DIR_MODE);
      for (const name of await readdir(dir).catch(() => [] as string[])) await narrow(join(dir, name), FILE_MODE);
    }
    return changed;
  }

  private path(id: string): string {
    if (!SAFE_ID.test(id)) throw new Error(`not a file id: ${JSON.stringify(id.slice(0, 70))}`);
    return join(this.root, id.slice(0, 2), id);
  }

  async write(files: BytesToWrite[]): Promise<void> {
    await Promise.all(
      files.map(async ({ id, bytes }) => {
        const path = this.path(id);
        const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
        const folder = join(this.root, id.slice(0, 2));
        if (!this.folders.has(folder)) await this.folder(folder);
        try {
          // Created 0600: the mode is cut by the umask, which can only narrow it.
          await writeFile(temporary, bytes, { mode: FILE_MODE }).catch(async (e: NodeJS.ErrnoException) => {
            if (e.code !== 'ENOENT') throw e;
            // The folder was removed since (by hand): made again, once.
            await this.folder(folder);
            await writeFile(temporary, bytes, { mode: FILE_MODE });
          });
          await rename(temporary, path);
          this.folders.add(folder);
        } catch (e) {
          await rm(temporary, { force: true });
          throw e;
        }
      }),
    );
  }

  async has(id: string): Promise<boolean> {
    return stat(this.path(id)).then(
      () => true,
      () => false,
    );
  }

  /** The whole file in one read (see the class): open, size, read, close. */
  async read(id: string): Promise<Buffer | undefined> {
    const file = await open(this.path(id), 'r').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (!file) return undefined;
    try {
      const { size } = await file.stat();
      const bytes = Buffer.allocUnsafe(size);
      let got = 0;
      // One read returns the whole file from a local disk; a short read (a network volume) goes on.
      while (got < size) {
        const { bytesRead } = await file.read(bytes, got, size - got, got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === size ? bytes : bytes.subarray(0, got);
    } finally {
      await file.close();
    }
  }

  async *chunks(id: string, size: number, chunk: number): AsyncGenerator<Buffer> {
    let sent = 0;
    for await (const slice of createReadStream(this.path(id), { highWaterMark: chunk })) {
      sent += (slice as Buffer).length;
      yield slice as Buffer;
    }
    if (sent !== size) throw new Error(`file ${id.slice(0, 6)}… has ${sent} of its ${size} bytes`);
  }

  async remove(ids: string[]): Promise<void> {
    await Promise.all(ids.filter((id) => SAFE_ID.test(id)).map((id) => rm(this.path(id), { force: true })));
  }

  /** Every file (and left-over temporary file) last written more than `ageMs` ago. */
  async sweep(ageMs: number): Promise<number> {
    const before = Date.now() - ageMs;
    let removed = 0;
    const folders = await readdir(this.root).catch(() => [] as string[]);
    for (const folder of folders) {
      const names = await readdir(join(this.root, folder)).catch(() => [] as string[]);
      for (const name of names) {
        const path = join(this.root, folder, name);
        const info = await stat(path).catch(() => undefined);
        if (
          info?.isFile() &&
          info.mtimeMs < before &&
          (await unlink(path).then(
            () => true,
            () => false,
          ))
        )
          removed++;
      }
    }
    return removed;
  }
}
