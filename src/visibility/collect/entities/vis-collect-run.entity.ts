import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Workspace } from '../../../common/api-keys/entities/workspace.entity';
import { WorkspaceOwner } from '../../../common/api-keys/entities/workspace-owner';
import type { RunSetup } from '../collect.types';

/** A collection scan. SQL: collect.store.ts. The partial unique index (one active run per workspace) is the migration's. */
@Entity({ name: 'vis_collect_runs' })
@Index('UQ_vis_collect_runs_active', { synchronize: false })
@Index('IDX_vis_collect_runs_workspace', ['workspaceId', 'createdAt'])
export class VisCollectRun {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_vis_collect_runs' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @WorkspaceOwner('FK_vis_collect_runs_workspace')
  workspace?: Workspace;

  @Column({ type: 'varchar', length: 16 })
  trigger!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ name: 'scan_key', type: 'varchar', length: 128 })
  scanKey!: string;

  @Column({ type: 'date' })
  date!: string;

  @Column({ type: 'json' })
  setup!: RunSetup;

  @Column({ type: 'integer' })
  planned!: number;

  @Column({ type: 'integer', default: 0 })
  asked!: number;

  @Column({ type: 'integer', default: 0 })
  failed!: number;

  @Column({ name: 'cost_usd', type: 'double precision', default: 0 })
  costUsd!: number;

  @Column({ name: 'budget_calls', type: 'integer' })
  budgetCalls!: number;

  @Column({ name: 'budget_usd', type: 'double precision' })
  budgetUsd!: number;

  @Column({ name: 'stop_reason', type: 'text', nullable: true })
  stopReason!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'json', nullable: true })
  result!: object | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ name: 'heartbeat_at', type: 'timestamptz', nullable: true })
  heartbeatAt!: Date | null;
}

/** One answer (or failed call) a run collected. */
@Entity({ name: 'vis_collect_answers' })
export class VisCollectAnswer {
  @PrimaryColumn({ name: 'run_id', type: 'uuid', primaryKeyConstraintName: 'PK_vis_collect_answers' })
  runId!: string;

  @ManyToOne(() => VisCollectRun, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'FK_vis_collect_answers_run' })
  run?: VisCollectRun;

  @PrimaryColumn({
    name: 'prompt_key',
    type: 'varchar',
    length: 128,
    primaryKeyConstraintName: 'PK_vis_collect_answers',
  })
  promptKey!: string;

  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_vis_collect_answers' })
  platform!: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_vis_collect_answers' })
  sample!: number;

  @Column({ type: 'varchar', length: 32 })
  status!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  model!: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  surface!: string | null;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'json' })
  citations!: Array<{ url: string; title?: string }>;

  @Column({ name: 'search_queries', type: 'text', array: true })
  searchQueries!: string[];

  @Column({ name: 'input_tokens', type: 'integer', default: 0 })
  inputTokens!: number;

  @Column({ name: 'output_tokens', type: 'integer', default: 0 })
  outputTokens!: number;

  @Column({ name: 'cost_usd', type: 'double precision', default: 0 })
  costUsd!: number;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @CreateDateColumn({ name: 'asked_at', type: 'timestamptz' })
  askedAt!: Date;
}
