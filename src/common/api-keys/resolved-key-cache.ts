import { LRUCache } from 'lru-cache';
import type { AuthContext } from '../decorators/auth-context.decorator';

/**
 * Resolved API keys by key hash, in this instance's memory: bounded (least recently used dropped
 * first) and with a maximum age. It only serves while revocations can reach it: it starts disabled,
 * is enabled when the revocation listener is up, and is emptied and disabled when the listener is
 * lost. Misses (unknown or revoked keys) are never cached, so a new key works at once.
 *
 * A lookup that raced with an invalidation must not put back what was just dropped: every
 * invalidation advances `generation`, and {@link set} takes the generation read before the
 * database was asked, storing nothing when it changed since.
 */
export class ResolvedKeyCache {
  private readonly entries: LRUCache<string, AuthContext> | null;
  private enabled = false;
  private gen = 0;

  constructor(maxEntries: number, ttlMs: number) {
    this.entries =
      maxEntries > 0 ? new LRUCache<string, AuthContext>({ max: maxEntries, ttl: ttlMs, ttlAutopurge: false }) : null;
  }

  /** Whether entries are served (configured, and the listener is up). */
  get active(): boolean {
    return this.enabled && this.entries !== null;
  }

  get generation(): number {
    return this.gen;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  get(hash: string): AuthContext | undefined {
    return this.enabled ? this.entries?.get(hash) : undefined;
  }

  /** Stores a key resolved from the database, unless an invalidation happened since `generation`. */
  set(hash: string, auth: AuthContext, generation: number): void {
    if (!this.enabled || generation !== this.gen) return;
    this.entries?.set(hash, auth);
  }

  /** One key revoked. */
  drop(hash: string): void {
    this.gen++;
    this.entries?.delete(hash);
  }

  /** The listener is up: start empty and serve. */
  enable(): void {
    this.gen++;
    this.entries?.clear();
    this.enabled = true;
  }

  /** The listener is lost: forget everything and stop serving until it is back. */
  disable(): void {
    this.gen++;
    this.entries?.clear();
    this.enabled = false;
  }
}
