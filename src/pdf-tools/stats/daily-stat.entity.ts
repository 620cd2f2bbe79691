import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Anonymous daily aggregate of successful tool runs: no IP, no user, nothing per caller. */
@Entity({ name: 'pdf_daily_stats' })
export class DailyStat {
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'PK_pdf_daily_stats' })
  day!: string;

  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_pdf_daily_stats' })
  tool!: string;

  @Column({ type: 'integer', default: 0 })
  success!: number;
}
