/**
 * The per-client scan lock: one scan that needs the browser at a time per client (IP subject).
 * One class per technology, chosen in A11yModule's factory (scanLockStoreProvider), as quotas and
 * sessions are: MemoryScanLockStore (this instance) without REDIS_URL, RedisScanLockStore (this
 * instance and, through Redis, every other) with it.
 */
export interface ScanLockStore {
  /**
   * Takes the lock of `client`, held at most `ttlMs` (so it outlives a crashed instance by no
   * more); returns its release, or undefined when the client holds it already.
   */
  acquire(client: string, ttlMs: number): Promise<ScanLockRelease | undefined>;
}

/** Gives a lock back; never throws. */
export type ScanLockRelease = () => Promise<void>;

/** Injection token of the ScanLockStore chosen at start-up. */
export const SCAN_LOCK_STORE = Symbol('ScanLockStore');
