import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { AppConfig } from '../common/config/env';
import { SessionStore } from './session-store';

/** A new session: the id goes into the cookie, and nowhere else. */
export interface StartedSession {
  id: string;
  expiresAt: Date;
}

/** Cookie ids are 256 random bits in base64url (43 characters). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

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
}
