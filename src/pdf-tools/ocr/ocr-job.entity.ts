import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An OCR job of the website (`/pdf/ocr/jobs/{id}`), kept PDF_RESULT_TTL_S like its files: its
 * state and progress for any instance to show, the prepared input, the results. No IP or device:
 * the quota ticket holds only the counters' keyed hashes, for the refund of a failed job.
 */
@Entity({ name: 'pdf_ocr_jobs' })
@Index('IDX_pdf_ocr_jobs_expires_at', ['expiresAt'])
export class OcrJob {
  /** 128 random bits, base64url: the capability to see the job. */
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_pdf_ocr_jobs' })
  id!: string;

  /** queued, running, done, failed */
  @Column({ type: 'varchar', length: 16 })
  status!: string;

  /** The languages asked for (`eng+deu`, or `auto`), then the ones used. */
  @Column({ type: 'varchar', length: 64 })
  languages!: string;

  @Column({ name: 'detected_language', type: 'varchar', length: 8, nullable: true })
  detectedLanguage!: string | null;

  @Column({ name: 'source_name', type: 'varchar', length: 255 })
  sourceName!: string;

  /** The prepared (decrypted, repaired) input, a stored file. */
  @Column({ name: 'input_file_id', type: 'varchar', length: 64 })
  inputFileId!: string;

  @Column({ type: 'integer' })
  pages!: number;

  @Column({ name: 'pages_done', type: 'integer', default: 0 })
  pagesDone!: number;

  @Column({ name: 'pdf_file_id', type: 'varchar', length: 64, nullable: true })
  pdfFileId!: string | null;

  @Column({ name: 'text_file_id', type: 'varchar', length: 64, nullable: true })
  textFileId!: string | null;

  /** The error code of a failed job (the tools' codes). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  error!: string | null;

  /** Whether a failed job's quota unit was given back. */
  @Column({ type: 'boolean', nullable: true })
  refunded!: boolean | null;

  /** The quota reservation (keyed hashes only), for the refund of a failure. */
  @Column({ type: 'jsonb' })
  ticket!: object;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
