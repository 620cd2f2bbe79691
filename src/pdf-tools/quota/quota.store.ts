/**
 * Storage of the daily quota counters, one class per technology (PostgreSQL, Redis), chosen in
 * PdfToolsModule's factory. The policy (caps, refunds, hashing, the clock) stays in QuotaService;
 * a store only counts, atomically: whatever the number of instances and connections, a reserve
 * never takes a counter past its cap and a refund never exceeds its allowance.
 */
export interface QuotaStore {
  /**
   * Increments every counter by one if each is below its cap, or none of them. Returns whether it
   * did, and each counter's value after (unchanged values when refused), in the order given.
   */
  reserve(
    scope: QuotaScope,
    tool: string,
    counters: readonly QuotaCounter[],
    ttlSeconds: number,
  ): Promise<QuotaReservation>;

  /**
   * Gives one reservation back: increments `allowance` (tool {@link REFUNDS_TOOL}) if it is below
   * its cap, and then decrements each of `subjects` (never below 0). False when the allowance is
   * used up (nothing changed then).
   */
  refund(
    scope: QuotaScope,
    tool: string,
    subjects: readonly string[],
    allowance: QuotaCounter,
    ttlSeconds: number,
  ): Promise<boolean>;

  /** Current values of the counters (0 for a counter never used), in the order given. */
  read(scope: QuotaScope, tool: string, subjects: readonly string[]): Promise<number[]>;
}

/** Injection token of the QuotaStore chosen at start-up. */
export const QUOTA_STORE = Symbol('QuotaStore');

/**
 * The day the counters belong to ("YYYY-MM-DD", UTC), and the caller's group: every counter of one
 * call shares it (the IP pool's subject), so a Redis Cluster keeps them in one slot.
 */
export interface QuotaScope {
  day: string;
  group: string;
}

export interface QuotaCounter {
  subject: string;
  cap: number;
}

export interface QuotaReservation {
  allowed: boolean;
  used: number[];
}

/** The "tool" of refund allowance counters (one allowance per IP and day, across tools). */
export const REFUNDS_TOOL = '*';
