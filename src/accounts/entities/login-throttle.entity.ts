import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Failed sign-ins of one subject (an account or an IP, hashed) in the current window (PostgreSQL store). */
@Entity({ name: 'web_login_throttle' })
export class LoginThrottle {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  subject!: string;

  @Column({ type: 'integer' })
  failures!: number;

  @Column({ name: 'window_ends_at', type: 'timestamptz' })
  windowEndsAt!: Date;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;
}
