import { DataSource } from 'typeorm';
import { RedisService } from '../common/redis/redis.service';

/** Limits of one kind of subject (an account, an IP). */
export interface ThrottleRule {
  maxFailures: number;
  windowS: number;
  lockoutS: number;
}

/**
 * Failed sign-ins per subject with a lockout. One class per technology, chosen in the accounts
 * module factory (Redis when REDIS_URL is set, PostgreSQL otherwise): both are shared by every
 * instance, so the limit holds behind a load balancer.
 */
export abstract class LoginThrottleStore {
  /** The latest lock end among the subjects, or null when none is locked. */
  abstract lockedUntil(subjects: string[]): Promise<Date | null>;
  /** Counts one failure; returns the lock end when this failure locked the subject. */
  abstract recordFailure(subject: string, rule: ThrottleRule): Promise<Date | null>;
  /** Forgets the failures of a subject (a successful sign-in of the account). */
  abstract clear(subject: string): Promise<void>;
}

export class PgLoginThrottleStore extends LoginThrottleStore {
  constructor(private readonly db: DataSource) {
    super();
  }

  async lockedUntil(subjects: string[]): Promise<Date | null> {
    const rows = await this.db.query<Array<{ until: Date | null }>>(
      'SELECT max(locked_until) AS until FROM web_login_throttle WHERE subject = ANY($1) AND locked_until > now()',
      [subjects],
    );
    return rows[0]?.until ? new Date(rows[0].until) : null;
  }

  async recordFailure(subject: string, rule: ThrottleRule): Promise<Date | null> {
    // One statement: a new window when the old one ended, a lock (and a fresh count) at the limit.
    const rows = await this.db.query<Array<{ locked_until: Date | null }>>(
      `INSERT INTO web_login_throttle AS t (subject, failures, window_ends_at, locked_until)
         VALUES ($1, 1, now() + make_interval(secs => $2), CASE WHEN 1 >= $3 THEN now() + make_interval(secs => $4) END)
       ON CONFLICT (subject) DO UPDATE SET
         failures = CASE WHEN t.window_ends_at <= now() THEN 1 ELSE t.failures + 1 END,
         window_ends_at = CASE WHEN t.window_ends_at <= now() THEN now() + make_interval(secs => $2) ELSE t.window_ends_at END,
         locked_until = CASE WHEN (CASE WHEN t.window_ends_at <= now() THEN 1 ELSE t.failures + 1 END) >= $3
                             THEN now() + make_interval(secs => $4) ELSE t.locked_until END
       RETURNING CASE WHEN failures >= $3 THEN locked_until END AS locked_until`,
      [subject, rule.windowS, rule.maxFailures, rule.lockoutS],
    );
    return rows[0]?.locked_until ? new Date(rows[0].locked_until) : null;
  }

  async clear(subject: string): Promise<void> {
    await this.db.query('DELETE FROM web_login_throttle WHERE subject = $1', [subject]);
  }
}

/** KEYS: failures, lock. ARGV: max, window s, lockout s. Returns the lock's remaining ms, or -1. */
const FAIL_LUA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if n >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
  redis.call('DEL', KEYS[1])
  return redis.call('PTTL', KEYS[2])
end
return -1`;

export class RedisLoginThrottleStore extends LoginThrottleStore {
  constructor(private readonly redis: RedisService) {
    super();
  }

  async lockedUntil(subjects: string[]): Promise<Date | null> {
    const client = this.redis.required();
    const ttls = await Promise.all(subjects.map((s) => client.pttl(this.redis.key('login-lock', s))));
    const ms = Math.max(...ttls);
    return ms > 0 ? new Date(Date.now() + ms) : null;
  }

  async recordFailure(subject: string, rule: ThrottleRule): Promise<Date | null> {
    const ms = (await this.redis
      .required()
      .eval(FAIL_LUA, 2, this.redis.key('login-fail', subject), this.redis.key('login-lock', subject), rule.maxFailures, rule.windowS, rule.lockoutS)) as number;
    return ms > 0 ? new Date(Date.now() + ms) : null;
  }

  async clear(subject: string): Promise<void> {
    await this.redis.required().del(this.redis.key('login-fail', subject));
  }
}
