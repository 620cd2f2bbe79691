import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Which address (cache key) a purged report was of: written when the retention job deletes the
 * report, so that the badge of an expired report can show the latest report of its address (a
 * badge in a README outlives the report it was made from). Kept ADDRESS_RECORD_DAYS. Schema: migrations/1763781400000-A11yReportAddresses.ts.
 */
@Entity('a11y_report_addresses')
@Index('IDX_a11y_report_addresses_created', ['createdAt'])
export class A11yReportAddress {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_a11y_report_addresses' })
  id!: string;

  /** The report's cache key (crawl flag + normalised address). */
  @Column({ name: 'cache_key', type: 'character', length: 64 })
  cacheKey!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
