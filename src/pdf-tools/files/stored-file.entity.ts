import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A tool result kept for PDF_RESULT_TTL_S: the bytes live in PostgreSQL, so any instance behind a
 * load balancer serves GET /files/{id} and accepts the id for chaining.
 */
@Entity({ name: 'pdf_files' })
@Index('IDX_pdf_files_expires_at', ['expiresAt'])
export class StoredFile {
  /** 256 random bits, base64url (43 characters). */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_pdf_files' })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  filename!: string;

  /** Null while the instance that stored the row is still writing the bytes (see FileStoreService). */
  @Column({ type: 'bytea', select: false, nullable: true })
  content!: Buffer | null;

  @Column({ type: 'integer' })
  size!: number;

  @Column({ type: 'integer' })
  pages!: number;

  @Column({ type: 'char', length: 64 })
  sha256!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
