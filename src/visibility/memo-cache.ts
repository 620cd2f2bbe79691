import { LRUCache } from 'lru-cache';

/**
 * A bounded in-memory memo (least recently used out, lru-cache) for values that never change for
 * their key: everything the read side caches is keyed by a scan id or by the project's data
 * version, which every import increments, so entries never go stale and instances need no
 * coordination.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- lru-cache's own bound: values are never null or undefined
export class MemoCache<V extends {}> {
  private readonly map: LRUCache<string, V>;

  constructor(max: number) {
    this.map = new LRUCache<string, V>({ max });
  }

  get size(): number {
    return this.map.size;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.map.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    this.map.set(key, value);
    return value;
  }
}
