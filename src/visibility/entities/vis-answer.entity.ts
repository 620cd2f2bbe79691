import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { MentionStatus } from '../derive/classify';
import type { AnswerMention, CompetitorMention } from '../derive/metrics';
import { VisScan } from './vis-scan.entity';

/** One raw AI answer of a scan, with its detected mentions and normalised citations. */
@Entity({ name: 'vis_answers' })
export class VisAnswer {
  @PrimaryColumn({ name: 'scan_id', type: 'uuid', primaryKeyConstraintName: 'PK_vis_answers' })
  scanId!: string;

  @ManyToOne(() => VisScan, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'scan_id', foreignKeyConstraintName: 'FK_vis_answers_scan' })
  scan?: VisScan;

  /** Position of the answer in the import file (0-based): the stable sort key. */
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_vis_answers' })
  seq!: number;

  @Column({ name: 'prompt_key', type: 'varchar', length: 128 })
  promptKey!: string;

  @Column({ type: 'varchar', length: 40 })
  platform!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  model!: string | null;

  @Column({ type: 'varchar', length: 32 })
  status!: string;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'text', array: true })
  citations!: string[];

  @Column({ name: 'brand_mentioned', type: 'boolean' })
  brandMentioned!: boolean;

  @Column({ name: 'brand_position', type: 'integer', nullable: true })
  brandPosition!: number | null;

  @Column({ name: 'brand_status', type: 'varchar', length: 16, default: 'not_named' })
  brandStatus!: MentionStatus;

  /** Every tracked brand's classification with evidence (brand first). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  mentions!: AnswerMention[];

  @Column({ name: 'competitor_mentions', type: 'jsonb' })
  competitorMentions!: CompetitorMention[];

  @Column({ name: 'cites_owned', type: 'boolean' })
  citesOwned!: boolean;

  /** Its GET /answers JSON after the prompt, written at ingest (store/answer-json.ts); null for rows imported before. */
  @Column({ name: 'api_tail', type: 'text', nullable: true })
  apiTail!: string | null;
}
