import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A signed-in session (PostgreSQL store). The cookie holds a random id; only its SHA-256 is kept
 * here, so a copy of the table signs nobody in.
 */
@Entity({ name: 'web_sessions' })
export class WebSession {
  @PrimaryColumn({ name: 'id_hash', type: 'char', length: 64 })
  idHash!: string;

  @Index('IDX_web_sessions_user')
  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Index('IDX_web_sessions_expires')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** A value for the session's next page only (sealed with a key from the session id; see SessionsService.flash). */
  @Column({ type: 'text', nullable: true })
  flash!: string | null;

  @Column({ name: 'flash_expires_at', type: 'timestamptz', nullable: true })
  flashExpiresAt!: Date | null;
}
