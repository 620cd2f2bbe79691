import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppConfig } from '../common/config/env';
import { SessionStore } from './session.store';

/** A new session: the id goes into the cookie, and nowhere else. */
export interface StartedSession {
  id: string;
  expiresAt: Date;
}

/** Cookie ids are 256 random bits in base64url (43 characters). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** How long a flash value waits for the page after the redirect. */
export const FLASH_TTL_MS = 2 * 60_000;

const flashKey = (id: string): Buffer => createHash('sha256').update(`flash\n${id}`).digest();

export const hashSessionId = (id: string): string => createHash('sha256').update(id).digest('hex');

/**
 * Server-side sessions: a random id in an HttpOnly cookie, its hash in the store (PostgreSQL or
 * Redis). Every sign-in starts a new id (the old one, if any, is ended), so a session id planted
 * before sign-in is worthless after it.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly store: SessionStore,
    private readonly config: AppConfig,
  ) {}

  get ttlMs(): number {
    return this.config.SESSION_TTL_H * 3600_000;
  }

  async start(userId: string, previousId?: string): Promise<StartedSession> {
    if (previousId) await this.end(previousId);
    const id = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.ttlMs);
    await this.store.create(hashSessionId(id), { userId, createdAt: now, expiresAt });
    return { id, expiresAt };
  }

  /** The user id of a live session; null for a malformed, unknown, expired or ended id. */
  async userOf(id: string | undefined): Promise<string | null> {
    if (!id || !SESSION_ID.test(id)) return null;
    const s = await this.store.get(hashSessionId(id));
    return s && s.expiresAt.getTime() > Date.now() ? s.userId : null;
  }

  async end(id: string): Promise<void> {
    if (SESSION_ID.test(id)) await this.store.delete(hashSessionId(id));
  }

  endAllFor(userId: string): Promise<void> {
    return this.store.deleteForUser(userId);
  }

  /**
   * Keeps a value for this session's next page only (post/redirect/get: a secret shown once after a
   * redirect, never in a URL), for FLASH_TTL_MS. It is sealed with a key derived from the session id,
   * which the store never sees: the stored bytes are useless without the cookie.
   */
  async flash(id: string, value: string): Promise<void> {
    if (!SESSION_ID.test(id)) return;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', flashKey(id), iv);
    const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    await this.store.setFlash(
      hashSessionId(id),
      Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64'),
      FLASH_TTL_MS,
    );
  }

  /** The flash value of this session, removed as it is read. */
  async takeFlash(id: string | undefined): Promise<string | null> {
    if (!id || !SESSION_ID.test(id)) return null;
    const raw = await this.store.takeFlash(hashSessionId(id));
    if (!raw) return null;
    try {
      const bytes = Buffer.from(raw, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', flashKey(id), bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
