/**
 * Over 300 lines: the pure rules (decideReserve, decideSettle) sit beside their two implementations, PostgreSQL and a
 * Redis Lua script, so a reviewer can check that both technologies apply exactly the same lockout rules.
 */
import { DataSource, EntityManager } from 'typeorm';
import { RedisService } from '../common/redis/redis.service';

/** Limits of one kind of subject (an account and IP pair, an account, an IP). */
export interface ThrottleRule {
  /** Attempts counted in one window before the subject locks. */
  maxFailures: number;
  windowS: number;
  /** The first lock; each further lock of the subject doubles it (progressive delay)... */
  lockoutS: number;
  /** ...up to this. A subject quiet for this long starts again from `lockoutS`. */
  maxLockoutS: number;
}

/** One subject an attempt is counted on. */
export interface ThrottleEntry {
  subject: string;
  rule: ThrottleRule;
  /** A success forgets everything about this subject (the account and IP pair); otherwise it only gives its slot back. */
  clearOnSuccess: boolean;
}

/** A decision on the states of an attempt's subjects: refused until a time, or their next states (and the end of a lock). */
type ThrottleDecision = { until: number } | { next: Array<ThrottleState | null>; until?: number };

/** The answer to a reservation: go on and verify, or the time the caller may try again. */
export type Reservation = { ok: true } | { ok: false; until: Date };

/**
 * Sign-in attempts per subject, counted BEFORE the password is verified: `reserve` takes a slot on
 * every subject at once (all or none, atomically, refused while one is locked or has no slot left),
 * so a burst sent in parallel verifies at most `maxFailures` passwords; `settle` then gives the slot
 * back (success) or keeps it as a failure and locks a subject whose slots are spent. Each lock of a
 * subject lasts twice the one before (up to `maxLockoutS`).
 *
 * One class per technology, chosen in the accounts module factory (Redis when REDIS_URL is set,
 * PostgreSQL otherwise): both are shared by every instance, so the limits hold behind a load
 * balancer. Known devices (a browser where an account signed in) are kept here too.
 */
export abstract class LoginThrottleStore {
  abstract reserve(entries: ThrottleEntry[]): Promise<Reservation>;
  /** Settles a granted reservation; returns the latest lock end among the subjects (null when none is locked). */
  abstract settle(entries: ThrottleEntry[], success: boolean): Promise<Date | null>;
  /** Remembers a subject (a device that signed in to an account) for `ttlS`. */
  abstract remember(subject: string, ttlS: number): Promise<void>;
  abstract known(subject: string): Promise<boolean>;
}

/** The state of one subject, as both stores keep it (times in ms since the epoch). */
export interface ThrottleState {
  failures: number;
  /** Attempts reserved and not settled yet (a slot each). */
  pending: number;
  windowEnds: number;
  lockedUntil: number;
  strikes: number;
}

/** The lock a subject gets now, after `strikes` earlier locks: lockoutS, doubled each time, capped. */
export const lockMs = (rule: ThrottleRule, strikes: number): number =>
  Math.min(rule.lockoutS * 2 ** Math.min(strikes, 30), rule.maxLockoutS) * 1000;

/**
 * The reservation rule (the PostgreSQL store runs it on locked rows; RESERVE_LUA is the same for
 * Redis): refused while a subject is locked or has no slot left; otherwise one more slot on each.
 */
export function decideReserve(
  states: ThrottleState[],
  entries: ThrottleEntry[],
  now: number,
): { until: number } | { next: ThrottleState[] } {
  let until = 0;
  const next = states.map((s, i) => {
    const rule = entries[i].rule;
    const fresh = Math.max(s.windowEnds, s.lockedUntil) + rule.maxLockoutS * 1000 <= now;
    const st = fresh ? { failures: 0, pending: 0, windowEnds: 0, lockedUntil: 0, strikes: 0 } : { ...s };
    if (st.windowEnds <= now) {
      st.failures = 0;
      st.pending = 0;
      st.windowEnds = now + rule.windowS * 1000;
    }
    if (st.lockedUntil > now) until = Math.max(until, st.lockedUntil);
    else if (st.failures + st.pending >= rule.maxFailures) until = Math.max(until, now + lockMs(rule, st.strikes));
    st.pending += 1;
    return st;
  });
  return until ? { until } : { next };
}

/** The settling rule (RESULT_LUA is the same for Redis). */
export function decideSettle(
  states: ThrottleState[],
  entries: ThrottleEntry[],
  success: boolean,
  now: number,
): { next: Array<ThrottleState | null>; until: number } {
  let until = 0;
  const next = states.map((s, i) => {
    const e = entries[i];
    if (success) return e.clearOnSuccess ? null : { ...s, pending: Math.max(0, s.pending - 1) };
    const st = { ...s, pending: Math.max(0, s.pending - 1) };
    if (st.windowEnds <= now) {
      st.failures = 0;
      st.pending = 0;
      st.windowEnds = now + e.rule.windowS * 1000;
    }
    st.failures += 1;
    if (st.failures >= e.rule.maxFailures && st.lockedUntil <= now) {
      st.lockedUntil = now + lockMs(e.rule, st.strikes);
      st.strikes += 1;
      st.failures = 0;
      st.windowEnds = now;
    }
    if (st.lockedUntil > now) until = Math.max(until, st.lockedUntil);
    return st;
  });
  return { next, until };
}

interface Row {
  subject: string;
  failures: number;
  pending: number;
  window_ends_at: Date;
  locked_until: Date | null;
  strikes: number;
  now: Date;
}

export class PgLoginThrottleStore extends LoginThrottleStore {
  constructor(private readonly db: DataSource) {
    super();
  }

  /** Runs `fn` on the subjects' rows, locked (in subject order, so two calls never deadlock). */
  private async locked<T>(
    subjects: string[],
    fn: (m: EntityManager, rows: Map<string, ThrottleState>, now: number) => Promise<T>,
  ): Promise<T> {
    const sorted = [...new Set(subjects)].sort();
    return this.db.transaction(async (m) => {
      await m.query(
        `INSERT INTO web_login_throttle (subject, failures, pending, window_ends_at, locked_until, strikes)
         SELECT s, 0, 0, now(), NULL, 0 FROM unnest($1::varchar[]) AS s ORDER BY s ON CONFLICT (subject) DO NOTHING`,
        [sorted],
      );
      const rows = await m.query<Row[]>(
        'SELECT subject, failures, pending, window_ends_at, locked_until, strikes, now() AS now FROM web_login_throttle WHERE subject = ANY($1) ORDER BY subject FOR UPDATE',
        [sorted],
      );
      const map = new Map(
        rows.map((r) => [
          r.subject,
          {
            failures: r.failures,
            pending: r.pending,
            windowEnds: new Date(r.window_ends_at).getTime(),
            lockedUntil: r.locked_until ? new Date(r.locked_until).getTime() : 0,
            strikes: r.strikes,
          },
        ]),
      );
      return fn(m, map, new Date(rows[0].now).getTime());
    });
  }

  private async write(m: EntityManager, subject: string, s: ThrottleState | null): Promise<void> {
    if (!s) {
      await m.query('DELETE FROM web_login_throttle WHERE subject = $1', [subject]);
      return;
    }
    await m.query(
      'UPDATE web_login_throttle SET failures = $2, pending = $6, window_ends_at = $3, locked_until = $4, strikes = $5 WHERE subject = $1',
      [
        subject,
        s.failures,
        new Date(s.windowEnds),
        s.lockedUntil ? new Date(s.lockedUntil) : null,
        s.strikes,
        s.pending,
      ],
    );
  }

  /**
   * Locks the entries' rows, decides on their states (in the entries' order) and writes the states
   * the decision gives (`next`; none when it refuses).
   */
  private applied(
    entries: ThrottleEntry[],
    decide: (states: ThrottleState[], now: number) => ThrottleDecision,
  ): Promise<ThrottleDecision> {
    return this.locked(
      entries.map((e) => e.subject),
      async (m, rows, now) => {
        const d = decide(
          entries.map((e) => rows.get(e.subject)!),
          now,
        );
        if ('next' in d) for (const [i, e] of entries.entries()) await this.write(m, e.subject, d.next[i]);
        return d;
      },
    );
  }

  async reserve(entries: ThrottleEntry[]): Promise<Reservation> {
    const d = await this.applied(entries, (states, now) => decideReserve(states, entries, now));
    return 'next' in d ? { ok: true } : { ok: false, until: new Date(d.until) };
  }

  async settle(entries: ThrottleEntry[], success: boolean): Promise<Date | null> {
    const d = await this.applied(entries, (states, now) => decideSettle(states, entries, success, now));
    return d.until ? new Date(d.until) : null;
  }

  async remember(subject: string, ttlS: number): Promise<void> {
    // A row of its own kind: no failures, the window's end is the end of the memory.
    await this.db.query(
      `INSERT INTO web_login_throttle (subject, failures, pending, window_ends_at, locked_until, strikes) VALUES ($1, 0, 0, now() + make_interval(secs => $2), NULL, 0)
       ON CONFLICT (subject) DO UPDATE SET window_ends_at = EXCLUDED.window_ends_at`,
      [subject, ttlS],
    );
  }

  async known(subject: string): Promise<boolean> {
    const rows = await this.db.query<unknown[]>(
      'SELECT 1 FROM web_login_throttle WHERE subject = $1 AND window_ends_at > now()',
      [subject],
    );
    return rows.length > 0;
  }
}

/**
 * Redis versions of decideReserve / decideSettle, atomic as one script. Each subject is a hash
 * (f failures, p pending, w window end, l lock end, s strikes; ms) that expires when the subject is fresh again.
 * ARGV: 4 numbers per key (max, window s, lockout s, max lockout s), plus for RESULT_LUA a 5th
 * (1 = clear on success) and a first argument (1 = success).
 */
const READ_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function rule(i, width, base)
  local o = base + (i - 1) * width
  return tonumber(ARGV[o + 1]), tonumber(ARGV[o + 2]) * 1000, tonumber(ARGV[o + 3]) * 1000, tonumber(ARGV[o + 4]) * 1000, tonumber(ARGV[o + 5])
end
local function read(key)
  local h = redis.call('HMGET', key, 'f', 'p', 'w', 'l', 's')
  return tonumber(h[1]) or 0, tonumber(h[2]) or 0, tonumber(h[3]) or 0, tonumber(h[4]) or 0, tonumber(h[5]) or 0
end
local function lockms(base, cap, s)
  return math.min(base * (2 ^ math.min(s, 30)), cap)
end
local function write(key, f, p, w, l, s, cap)
  redis.call('HSET', key, 'f', f, 'p', p, 'w', w, 'l', l, 's', s)
  redis.call('PEXPIREAT', key, math.max(w, l) + cap)
end
`;

const RESERVE_LUA = `${READ_LUA}
local lockEnd = 0
local st = {}
for i = 1, #KEYS do
  local max, win, base, cap = rule(i, 4, 0)
  local f, p, w, l, s = read(KEYS[i])
  if math.max(w, l) + cap <= now then f, p, w, l, s = 0, 0, 0, 0, 0 end
  if w <= now then f = 0; p = 0; w = now + win end
  if l > now then lockEnd = math.max(lockEnd, l)
  elseif f + p >= max then lockEnd = math.max(lockEnd, now + lockms(base, cap, s)) end
  st[i] = { f, p + 1, w, l, s, cap }
end
if lockEnd > 0 then return lockEnd - now end
for i = 1, #KEYS do write(KEYS[i], st[i][1], st[i][2], st[i][3], st[i][4], st[i][5], st[i][6]) end
return -1`;

const SETTLE_LUA = `${READ_LUA}
local success = ARGV[1] == '1'
local lockEnd = 0
for i = 1, #KEYS do
  local max, win, base, cap, clear = rule(i, 5, 1)
  local f, p, w, l, s = read(KEYS[i])
  if success then
    if clear == 1 then redis.call('DEL', KEYS[i])
    elseif p > 0 then redis.call('HSET', KEYS[i], 'p', p - 1) end
  else
    p = math.max(0, p - 1)
    if w <= now then f = 0; p = 0; w = now + win end
    f = f + 1
    if f >= max and l <= now then
      l = now + lockms(base, cap, s); s = s + 1; f = 0; w = now
    end
    write(KEYS[i], f, p, w, l, s, cap)
    if l > now then lockEnd = math.max(lockEnd, l) end
  end
end
if lockEnd > 0 then return lockEnd - now end
return -1`;

export class RedisLoginThrottleStore extends LoginThrottleStore {
  constructor(private readonly redis: RedisService) {
    super();
  }

  private keys(entries: ThrottleEntry[]): string[] {
    return entries.map((e) => this.redis.key('login-throttle', e.subject));
  }

  private static rule(r: ThrottleRule): number[] {
    return [r.maxFailures, r.windowS, r.lockoutS, r.maxLockoutS];
  }

  async reserve(entries: ThrottleEntry[]): Promise<Reservation> {
    const args = entries.flatMap((e) => RedisLoginThrottleStore.rule(e.rule));
    const ms = (await this.redis
      .required()
      .eval(RESERVE_LUA, entries.length, ...this.keys(entries), ...args)) as number;
    return ms > 0 ? { ok: false, until: new Date(Date.now() + ms) } : { ok: true };
  }

  async settle(entries: ThrottleEntry[], success: boolean): Promise<Date | null> {
    const args = entries.flatMap((e) => [...RedisLoginThrottleStore.rule(e.rule), e.clearOnSuccess ? 1 : 0]);
    const ms = (await this.redis
      .required()
      .eval(SETTLE_LUA, entries.length, ...this.keys(entries), success ? '1' : '0', ...args)) as number;
    return ms > 0 ? new Date(Date.now() + ms) : null;
  }

  async remember(subject: string, ttlS: number): Promise<void> {
    await this.redis.required().set(this.redis.key('login-known', subject), '1', 'EX', ttlS);
  }

  async known(subject: string): Promise<boolean> {
    return (await this.redis.required().exists(this.redis.key('login-known', subject))) === 1;
  }
}
