import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Report } from './report.types';

/** A stored scan report (kept REPORT_RETENTION_DAYS). Schema: migrations/1763769800000-A11y.ts. */
@Entity('a11y_reports')
@Index('IDX_a11y_reports_cache', ['cacheKey', 'createdAt'])
@Index('IDX_a11y_reports_expires', ['expiresAt'])
export class A11yReport {
  /** 192 random bits, base64url (32 characters). */
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_a11y_reports' })
  id!: string;

  /** The normalised scanned address. */
  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'boolean' })
  crawl!: boolean;

  /** sha256 hex of crawl flag + normalised URL: the cache lookup key. */
  @Column({ name: 'cache_key', type: 'character', length: 64 })
  cacheKey!: string;

  @Column({ type: 'smallint' })
  score!: number;

  @Column({ type: 'jsonb' })
  report!: Report;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
