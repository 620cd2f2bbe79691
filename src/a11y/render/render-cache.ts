/** Bytes of renderings (HTML pages, PDFs, badges) kept in memory per instance. */
export const RENDER_CACHE_BYTES = 32 * 1024 * 1024;
/** A rendering bigger than this is not cached (it would push out too many others). */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

interface Entry {
  body: Buffer;
  expiresAt: number;
}

/**
 * Renderings of stored reports, least recently used first out, bounded by total bytes. Reports
 * never change, so an entry is only dropped for space or when its report expires. Per instance.
 */
export class RenderCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes = RENDER_CACHE_BYTES) {}

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The cached rendering, or the result of `render` (cached when small enough). */
  async get(key: string, expiresAt: number, now: number, render: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) {
      this.entries.delete(key);
      this.entries.set(key, hit); // most recently used
      return hit.body;
    }
    if (hit) this.drop(key, hit);
    const body = await render();
    if (body.length <= Math.min(MAX_ENTRY_BYTES, this.maxBytes)) {
      const old = this.entries.get(key);
      if (old) this.drop(key, old);
      this.entries.set(key, { body, expiresAt });
      this.bytes += body.length;
      for (const [k, e] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        this.drop(k, e);
      }
    }
    return body;
  }

  private drop(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.body.length;
  }
}
