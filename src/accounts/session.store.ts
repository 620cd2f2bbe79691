import { DataSource } from 'typeorm';
import { RedisService } from '../common/redis/redis.service';

/** What a session store keeps per session (the user is looked up on every request). */
export interface StoredSession {
  userId: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Server-side sessions keyed by the SHA-256 of the cookie's id. One class per technology,
 * chosen in the accounts module factory: Redis when REDIS_URL is set, PostgreSQL otherwise.
 */
export abstract class SessionStore {
  abstract create(idHash: string, session: StoredSession): Promise<void>;
  abstract get(idHash: string): Promise<StoredSession | null>;
  abstract delete(idHash: string): Promise<void>;
  /** Ends every session of a user (password change, disabled account). */
  abstract deleteForUser(userId: string): Promise<void>;
  /** Keeps one short-lived value for the session's next page (post/redirect/get), replacing any earlier one. */
  abstract setFlash(idHash: string, value: string, ttlMs: number): Promise<void>;
  /** The flash value, removed as it is read (null when none or expired). */
  abstract takeFlash(idHash: string): Promise<string | null>;
}

export class PgSessionStore extends SessionStore {
  constructor(private readonly db: DataSource) {
    super();
  }

  async create(idHash: string, s: StoredSession): Promise<void> {
    // Expired rows go when new ones come: no timer, and the index keeps it one range delete.
    await this.db.query('DELETE FROM web_sessions WHERE expires_at < now()');
    await this.db.query('INSERT INTO web_sessions (id_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      idHash,
      s.userId,
      s.createdAt.toISOString(),
      s.expiresAt.toISOString(),
    ]);
  }

  async get(idHash: string): Promise<StoredSession | null> {
    const rows = await this.db.query<Array<{ user_id: string; created_at: Date; expires_at: Date }>>(
      'SELECT user_id, created_at, expires_at FROM web_sessions WHERE id_hash = $1 AND expires_at > now()',
      [idHash],
    );
    const r = rows[0];
    return r ? { userId: r.user_id, createdAt: new Date(r.created_at), expiresAt: new Date(r.expires_at) } : null;
  }

  async delete(idHash: string): Promise<void> {
    await this.db.query('DELETE FROM web_sessions WHERE id_hash = $1', [idHash]);
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.db.query('DELETE FROM web_sessions WHERE user_id = $1', [userId]);
  }

  async setFlash(idHash: string, value: string, ttlMs: number): Promise<void> {
    await this.db.query(
      'UPDATE web_sessions SET flash = $2, flash_expires_at = now() + make_interval(secs => $3) WHERE id_hash = $1',
      [idHash, value, ttlMs / 1000],
    );
  }

  async takeFlash(idHash: string): Promise<string | null> {
    const rows = await this.db.query<
      Array<[Array<{ flash: string | null }>, number]> | Array<{ flash: string | null }>
    >(
      `WITH old AS (SELECT flash, flash_expires_at FROM web_sessions WHERE id_hash = $1 AND flash IS NOT NULL FOR UPDATE)
       UPDATE web_sessions s SET flash = NULL, flash_expires_at = NULL FROM old WHERE s.id_hash = $1
       RETURNING CASE WHEN old.flash_expires_at > now() THEN old.flash END AS flash`,
      [idHash],
    );
    // TypeORM's pg driver answers an UPDATE ... RETURNING with [rows, count].
    const list = (Array.isArray(rows[0]) ? rows[0] : rows) as Array<{ flash: string | null }>;
    return list[0]?.flash ?? null;
  }
}

export class RedisSessionStore extends SessionStore {
  constructor(private readonly redis: RedisService) {
    super();
  }

  private sessionKey(idHash: string): string {
    return this.redis.key('sess', idHash);
  }

  private userKey(userId: string): string {
    return this.redis.key('sessu', userId);
  }

  async create(idHash: string, s: StoredSession): Promise<void> {
    const ttlMs = Math.max(1, s.expiresAt.getTime() - Date.now());
    const value = JSON.stringify({ u: s.userId, c: s.createdAt.getTime(), e: s.expiresAt.getTime() });
    await this.redis
      .required()
      .multi()
      .set(this.sessionKey(idHash), value, 'PX', ttlMs)
      .sadd(this.userKey(s.userId), idHash)
      .pexpire(this.userKey(s.userId), ttlMs, 'GT')
      .pexpire(this.userKey(s.userId), ttlMs, 'NX')
      .exec();
  }

  async get(idHash: string): Promise<StoredSession | null> {
    const raw = await this.redis.required().get(this.sessionKey(idHash));
    if (!raw) return null;
    const v = JSON.parse(raw) as { u: string; c: number; e: number };
    if (v.e <= Date.now()) return null;
    return { userId: v.u, createdAt: new Date(v.c), expiresAt: new Date(v.e) };
  }

  async delete(idHash: string): Promise<void> {
    await this.redis.required().del(this.sessionKey(idHash), this.redis.key('sessf', idHash));
  }

  async deleteForUser(userId: string): Promise<void> {
    const client = this.redis.required();
    const ids = await client.smembers(this.userKey(userId));
    await client.del(this.userKey(userId), ...ids.flatMap((id) => [this.sessionKey(id), this.redis.key('sessf', id)]));
  }

  async setFlash(idHash: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.required().set(this.redis.key('sessf', idHash), value, 'PX', Math.max(1, Math.round(ttlMs)));
  }

  takeFlash(idHash: string): Promise<string | null> {
    return this.redis.required().getdel(this.redis.key('sessf', idHash));
  }
}
