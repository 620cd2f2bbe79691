import { LRUCache } from 'lru-cache';

/** Bytes of renderings (HTML pages, PDFs, badges) kept in memory per instance. */
export const RENDER_CACHE_BYTES = 32 * 1024 * 1024;
/** A rendering bigger than this is not cached (it would push out too many others). */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

interface Entry {
  body: Buffer;
  expiresAt: number;
}

/**
 * Renderings of stored reports, least recently used first out, bounded by total bytes (lru-cache).
 * Reports never change, so an entry is only dropped for space or when its report expires (checked
 * against the caller's clock). Per instance.
 */
export class RenderCache {
  private readonly entries: LRUCache<string, Entry>;

  constructor(maxBytes = RENDER_CACHE_BYTES) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      maxEntrySize: Math.min(MAX_ENTRY_BYTES, maxBytes),
      sizeCalculation: (e) => Math.max(1, e.body.length),
    });
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  /** The cached rendering, or the result of `render` (cached when small enough). */
  async get(key: string, expiresAt: number, now: number, render: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.body;
    if (hit) this.entries.delete(key);
    const body = await render();
    this.entries.set(key, { body, expiresAt });
    return body;
  }
}
