import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Sign-in attempts of one subject (an account and IP pair, an account, an IP; hashed) in the current
 * window (PostgreSQL store); also the devices known to an account (`dev:` subjects, window = memory).
 */
@Entity({ name: 'web_login_throttle' })
export class LoginThrottle {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  subject!: string;

  @Column({ type: 'integer' })
  failures!: number;

  /** Attempts reserved before their verification and not settled yet. */
  @Column({ type: 'integer', default: 0 })
  pending!: number;

  @Column({ name: 'window_ends_at', type: 'timestamptz' })
  windowEndsAt!: Date;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;

  /** Locks so far: each one lasts twice the one before (reset when the subject has been quiet for LOGIN_LOCKOUT_MAX_S). */
  @Column({ type: 'integer', default: 0 })
  strikes!: number;
}
