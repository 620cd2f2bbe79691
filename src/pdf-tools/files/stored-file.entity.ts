import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A stored file (upload or tool result) kept for PDF_RESULT_TTL_S: the row is in PostgreSQL and the
 * bytes in PostgreSQL or a shared directory (FileBytes), so any instance behind a load balancer
 * serves GET /files/{id} and accepts the id for chaining.
 */
@Entity({ name: 'pdf_files' })
@Index('IDX_pdf_files_expires_at', ['expiresAt'])
export class StoredFile {
  /** 256 random bits, base64url (43 characters). */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_pdf_files' })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  filename!: string;

  /**
   * The bytes when they are kept in PostgreSQL (PostgresFileBytes); null while the instance that
   * stored the row is still writing them, and always null when they are kept in PDF_FILE_DIR.
   */
  @Column({ type: 'bytea', select: false, nullable: true })
  content!: Buffer | null;

  @Column({ type: 'integer' })
  size!: number;

  /** Null while not known: an upload encrypted with a password is counted when a tool opens it. */
  @Column({ type: 'integer', nullable: true })
  pages!: number | null;

  @Column({ type: 'char', length: 64 })
  sha256!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
