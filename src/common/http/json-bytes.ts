import { Readable } from 'node:stream';

/** Size of each buffer: a malloc'd block, well below the size that a whole 650 KB body would need. */
const CHUNK = 64 * 1024;
const EMPTY = Buffer.alloc(0);
/** Chunks of bodies already sent, reused by the next ones instead of new allocations (see {@link JsonBytes.release}). */
const free: Buffer[] = [];
/** At most this many free chunks are kept (8 MB). */
const FREE_CHUNKS_MAX = 128;

/**
 * JSON text written as UTF-8 straight into buffers of 64 KB: for a large body built from many
 * strings (e.g. 500 answers as the database sends them), instead of joining them into one string,
 * encoding that string again, and allocating buffers the size of the whole body (each of those a
 * large allocation for the garbage collector). The chunks are sent as they are ({@link stream}).
 * The caller writes valid JSON; this only encodes it.
 */
export class JsonBytes {
  private readonly done: Buffer[] = [];
  /** The chunks of CHUNK bytes this holds (its own and those appended), given back by release(). */
  private readonly owned: Buffer[] = [];
  /** The chunk being written (allocated when the first string needs it). */
  private buf: Buffer = EMPTY;
  private at = 0;
  private total = 0;

  /** Appends `s` as UTF-8. */
  write(s: string): this {
    // At most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units).
    if (this.buf.length - this.at < s.length * 3) this.next(s.length * 3);
    this.at += this.buf.write(s, this.at);
    return this;
  }

  /** Appends the bytes of `other`, as they are (its chunks, not copied). */
  append(other: JsonBytes): this {
    this.next(0);
    for (const c of other.chunks()) {
      this.done.push(c);
      this.total += c.length;
    }
    this.owned.push(...other.owned);
    other.owned.length = 0;
    return this;
  }

  /** The number of bytes written. */
  get length(): number {
    return this.total + this.at;
  }

  /** The bytes written, in order. */
  chunks(): Buffer[] {
    return this.at === 0 ? this.done : [...this.done, this.buf.subarray(0, this.at)];
  }

  /** The bytes as one readable stream (not in object mode), chunk by chunk. */
  stream(): Readable {
    return Readable.from(this.chunks(), { objectMode: false });
  }

  /** The JSON text (for the rare reader of the value itself, e.g. a test or JSON.stringify). */
  toString(): string {
    return Buffer.concat(this.chunks(), this.length).toString('utf8');
  }

  /** Closes the current chunk; the next one holds at least `need` bytes (none when 0: allocated on a write). */
  private next(need: number): void {
    if (this.at > 0) {
      this.done.push(this.buf.subarray(0, this.at));
      this.total += this.at;
    }
    if (need === 0) this.buf = EMPTY;
    else if (need > CHUNK) this.buf = Buffer.allocUnsafe(need);
    else {
      this.buf = free.pop() ?? Buffer.allocUnsafe(CHUNK);
      this.owned.push(this.buf);
    }
    this.at = 0;
  }

  /**
   * Gives this body's chunks back for the next bodies to write into: call it only once nothing
   * reads them any more (the response that sent them has closed), and use this JsonBytes no more.
   */
  release(): void {
    for (const c of this.owned) if (free.length < FREE_CHUNKS_MAX) free.push(c);
    this.owned.length = 0;
    this.done.length = 0;
    this.buf = EMPTY;
    this.at = 0;
    this.total = 0;
  }
}
