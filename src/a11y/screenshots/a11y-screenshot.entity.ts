import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One PNG of a scan (an element crop or an annotated full page). Schema: migrations/1763780800000-A11yScreenshots.ts. */
@Entity('a11y_screenshots')
@Index('IDX_a11y_screenshots_expires', ['expiresAt'])
export class A11yScreenshot {
  /** 96 random bits, base64url (16 characters); the URL names it. */
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_a11y_screenshots' })
  id!: string;

  @Column({ type: 'bytea', select: false })
  png!: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** The retention of the report the screenshot belongs to. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
