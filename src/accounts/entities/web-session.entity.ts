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
}
