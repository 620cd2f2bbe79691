import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Quota counters of one UTC day (PostgreSQL store; Redis holds the same counters when REDIS_URL is
 * set). `subject` is a keyed hash, never an address: `ip:<hmac>` (the IP's combined usage),
 * `mcp:<hmac>` (its MCP usage), `dev:<hmac>` (a website device), `refund:<hmac>` (refunds used;
 * tool "*").
 */
@Entity({ name: 'pdf_quota_usage' })
export class QuotaUsage {
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'PK_pdf_quota_usage' })
  day!: string;

  @PrimaryColumn({ type: 'varchar', length: 80, primaryKeyConstraintName: 'PK_pdf_quota_usage' })
  subject!: string;

  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_pdf_quota_usage' })
  tool!: string;

  @Column({ type: 'integer', default: 0 })
  used!: number;
}
