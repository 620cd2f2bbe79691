/**
 * A bounded in-memory memo (least recently used out) for values that never change for their key:
 * everything the read side caches is keyed by a scan id or by the project's data version, which
 * every import increments, so entries never go stale and instances need no coordination.
 */
export class MemoCache<V> {
  private readonly map = new Map<string, V>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.map.size;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = await load();
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return value;
  }
}
