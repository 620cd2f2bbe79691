/** One file's bytes to write, under the id of its row in pdf_files. */
export interface BytesToWrite {
  id: string;
  bytes: Uint8Array;
}

/**
 * Where the bytes of stored PDF files live; their rows (name, size, expiry) are always in
 * pdf_files. One class per technology, chosen in the module (fileBytesProvider): PostgreSQL
 * (`pdf_files.content`, the default) or a directory shared by the instances (PDF_FILE_DIR).
 * FileStoreService holds the rules (rows first, bytes right after, memory cache, retries).
 */
export interface FileBytes {
  /** For logs and /readyz-style messages: "PostgreSQL" or the directory. */
  readonly where: string;
  /** Writes the bytes of rows already inserted; all or nothing for a batch only where the technology allows it. */
  write(files: BytesToWrite[]): Promise<void>;
  /** Whether the bytes of `id` are written (another instance may still be writing them). */
  has(id: string): Promise<boolean>;
  /** The whole file, or undefined when it is not (or no longer) there. */
  read(id: string): Promise<Buffer | undefined>;
  /** The file in slices of at most `chunk` bytes (a download holds one slice); throws if it disappears mid-way. */
  chunks(id: string, size: number, chunk: number): AsyncIterable<Buffer>;
  /** Removes the bytes of files whose rows are gone (deleted after a failed write, or expired). */
  remove(ids: string[]): Promise<void>;
  /** Removes bytes older than `ageMs` whatever their rows say (files a stopped instance left behind). */
  sweep(ageMs: number): Promise<number>;
}

export const FILE_BYTES = Symbol('FILE_BYTES');
