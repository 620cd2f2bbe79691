import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Workspace } from '../../../common/api-keys/entities/workspace.entity';
import { WorkspaceOwner } from '../../../common/api-keys/entities/workspace-owner';
import { BrandSetupColumns } from '../../entities/vis-project.entity';
import { PromptDefinitionColumns } from '../../entities/vis-prompt.entity';

/** What a workspace tracks (set in the dashboard). SQL: tracking.store.ts. */
@Entity({ name: 'vis_tracking' })
export class VisTracking extends BrandSetupColumns {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid', primaryKeyConstraintName: 'PK_vis_tracking' })
  workspaceId!: string;

  @WorkspaceOwner('FK_vis_tracking_workspace')
  workspace?: Workspace;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  platforms!: string[];

  @Column({ type: 'integer', default: 1 })
  samples!: number;

  @Column({ type: 'varchar', length: 16, default: 'weekly' })
  schedule!: string;

  @Column({ name: 'budget_calls', type: 'integer', default: 1000 })
  budgetCalls!: number;

  @Column({ name: 'budget_usd', type: 'double precision', default: 10 })
  budgetUsd!: number;

  @Column({ name: 'next_prompt', type: 'integer', default: 1 })
  nextPrompt!: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A tracked prompt. */
@Entity({ name: 'vis_tracked_prompts' })
@Index('IDX_vis_tracked_prompts_position', ['workspaceId', 'position'])
export class VisTrackedPrompt extends PromptDefinitionColumns {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid', primaryKeyConstraintName: 'PK_vis_tracked_prompts' })
  workspaceId!: string;

  @ManyToOne(() => VisTracking, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'workspace_id',
    referencedColumnName: 'workspaceId',
    foreignKeyConstraintName: 'FK_vis_tracked_prompts_tracking',
  })
  tracking?: VisTracking;

  @PrimaryColumn({
    name: 'prompt_key',
    type: 'varchar',
    length: 128,
    primaryKeyConstraintName: 'PK_vis_tracked_prompts',
  })
  promptKey!: string;

  @Column({ type: 'integer' })
  position!: number;
}
