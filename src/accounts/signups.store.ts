import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** A sign-up waiting for its link, as the link's transaction reads it (locked). */
export interface PendingSignup {
  email: string;
  password_hash: string;
  expired: boolean;
}

/**
 * Every query of sign-ups waiting for their link (web_signups) and of the account a link makes (a
 * personal workspace and its admin, in one transaction). Tokens arrive hashed; expiry is the
 * database's clock. The rules (throttles, link states, an address that got an account) stay in SignupService.
 */
@Injectable()
export class SignupsStore {
  constructor(private readonly db: DataSource) {}

  /** Whether an account has this address. */
  emailTaken(email: string): Promise<boolean> {
    return new SignupTx(this.db.manager).emailTaken(email);
  }

  /** Forgets the sign-ups whose link expired more than 7 days ago. */
  async purgeLongExpired(): Promise<void> {
    await this.db.query(`DELETE FROM web_signups WHERE expires_at < now() - interval '7 days'`);
  }

  /** Saves the address's sign-up (replacing an earlier one), its link valid for `ttlHours`. */
  async save(email: string, passwordHash: string, tokenHash: string, ttlHours: number): Promise<void> {
    await this.db.query(
      `INSERT INTO web_signups (email, password_hash, token_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(hours => $4))
           ON CONFLICT (email) DO UPDATE SET password_hash = EXCLUDED.password_hash, token_hash = EXCLUDED.token_hash, created_at = now(), expires_at = EXCLUDED.expires_at`,
      [email, passwordHash, tokenHash, ttlHours],
    );
  }

  /** Whether the link has expired; null when no sign-up has it. */
  async expired(tokenHash: string): Promise<boolean | null> {
    const rows = await this.db.query<{ expired: boolean }[]>(
      `SELECT expires_at < now() AS expired FROM web_signups WHERE token_hash = $1`,
      [tokenHash],
    );
    return rows.length === 0 ? null : rows[0].expired;
  }

  transaction<T>(work: (tx: SignupTx) => Promise<T>): Promise<T> {
    return this.db.transaction((m) => work(new SignupTx(m)));
  }
}

/** The queries of one transaction of {@link SignupsStore}. */
export class SignupTx {
  constructor(private readonly m: EntityManager) {}

  async emailTaken(email: string): Promise<boolean> {
    return (await this.m.query<unknown[]>(`SELECT 1 FROM web_users WHERE email = $1`, [email])).length > 0;
  }

  /** The sign-up of a link, locked until the transaction ends; null when there is none (any more). */
  async lockByToken(tokenHash: string): Promise<PendingSignup | null> {
    const rows = await this.m.query<PendingSignup[]>(
      `SELECT email, password_hash, expires_at < now() AS expired FROM web_signups WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  async forget(email: string): Promise<void> {
    await this.m.query(`DELETE FROM web_signups WHERE email = $1`, [email]);
  }

  /** Creates a workspace; its id. */
  async createWorkspace(slug: string, name: string): Promise<string> {
    const ws = await this.m.query<{ id: string }[]>(
      `INSERT INTO workspaces (slug, name) VALUES ($1, $2) RETURNING id`,
      [slug, name],
    );
    return ws[0].id;
  }

  /** Creates the workspace's admin with a password of its own choosing; the user's id. */
  async createAdmin(workspaceId: string, email: string, passwordHash: string): Promise<string> {
    const user = await this.m.query<{ id: string }[]>(
      `INSERT INTO web_users (workspace_id, email, role, password_hash, must_change_password, one_time_password_at) VALUES ($1, $2, 'admin', $3, false, NULL) RETURNING id`,
      [workspaceId, email, passwordHash],
    );
    return user[0].id;
  }
}
