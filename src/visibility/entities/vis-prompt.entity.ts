import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../common/api-keys/entities/workspace.entity';
import { WorkspaceOwner } from '../../common/api-keys/entities/workspace-owner';

/** A prompt's definition: the same columns in vis_tracked_prompts (as set) and vis_prompts (as imported). */
export abstract class PromptDefinitionColumns {
  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'text', array: true })
  tags!: string[];

  @Column({ type: 'varchar', length: 64, nullable: true })
  intent!: string | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  country!: string | null;

  @Column({ type: 'boolean' })
  enabled!: boolean;
}

/** A tracked prompt (buyer question), with its figures in the latest scan. */
@Entity({ name: 'vis_prompts' })
export class VisPrompt extends PromptDefinitionColumns {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid', primaryKeyConstraintName: 'PK_vis_prompts' })
  workspaceId!: string;

  @WorkspaceOwner('FK_vis_prompts_workspace')
  workspace?: Workspace;

  @PrimaryColumn({ name: 'prompt_key', type: 'varchar', length: 128, primaryKeyConstraintName: 'PK_vis_prompts' })
  promptKey!: string;

  /** Successful answers to this prompt in the latest scan (null: not asked in it). */
  @Column({ name: 'latest_answers', type: 'integer', nullable: true })
  latestAnswers!: number | null;

  @Column({ name: 'latest_mentions', type: 'integer', nullable: true })
  latestMentions!: number | null;
}
