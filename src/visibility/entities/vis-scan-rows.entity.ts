import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { SourceCategory } from '../derive/domains';
import { VisScan } from './vis-scan.entity';

/** A cited registrable domain of a scan. */
@Entity({ name: 'vis_sources' })
export class VisSource {
  @PrimaryColumn({ name: 'scan_id', type: 'uuid', primaryKeyConstraintName: 'PK_vis_sources' })
  scanId!: string;

  @ManyToOne(() => VisScan, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'scan_id', foreignKeyConstraintName: 'FK_vis_sources_scan' })
  scan?: VisScan;

  @PrimaryColumn({ type: 'varchar', length: 253, primaryKeyConstraintName: 'PK_vis_sources' })
  domain!: string;

  @Column({ type: 'varchar', length: 16 })
  category!: SourceCategory;

  @Column({ type: 'integer' })
  citations!: number;

  @Column({ type: 'integer' })
  answers!: number;

  @Column({ type: 'integer' })
  prompts!: number;

  @Column({ type: 'integer' })
  urls!: number;

  @Column({ type: 'text', array: true })
  platforms!: string[];
}

/** A cited (normalised) URL of a scan. */
@Entity({ name: 'vis_urls' })
export class VisUrl {
  @PrimaryColumn({ name: 'scan_id', type: 'uuid', primaryKeyConstraintName: 'PK_vis_urls' })
  scanId!: string;

  @ManyToOne(() => VisScan, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'scan_id', foreignKeyConstraintName: 'FK_vis_urls_scan' })
  scan?: VisScan;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_vis_urls' })
  url!: string;

  @Column({ type: 'varchar', length: 253 })
  domain!: string;

  @Column({ type: 'varchar', length: 16 })
  category!: SourceCategory;

  @Column({ type: 'integer' })
  citations!: number;

  @Column({ type: 'integer' })
  answers!: number;

  @Column({ type: 'integer' })
  prompts!: number;

  @Column({ type: 'text', array: true })
  platforms!: string[];
}

/** A citation gap of a scan: a URL cited where competitors are mentioned and the brand never is. */
@Entity({ name: 'vis_gaps' })
export class VisGap {
  @PrimaryColumn({ name: 'scan_id', type: 'uuid', primaryKeyConstraintName: 'PK_vis_gaps' })
  scanId!: string;

  @ManyToOne(() => VisScan, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'scan_id', foreignKeyConstraintName: 'FK_vis_gaps_scan' })
  scan?: VisScan;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_vis_gaps' })
  url!: string;

  @Column({ type: 'varchar', length: 253 })
  domain!: string;

  @Column({ type: 'varchar', length: 16 })
  category!: SourceCategory;

  @Column({ type: 'integer' })
  answers!: number;

  @Column({ type: 'text', array: true })
  competitors!: string[];

  @Column({ type: 'text', array: true })
  prompts!: string[];

  @Column({ type: 'text', array: true })
  platforms!: string[];
}
