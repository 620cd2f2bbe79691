import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Workspace } from '../../api-keys/entities/workspace.entity';
import { WorkspaceOwner } from '../../api-keys/entities/workspace-owner';

/**
 * A workspace's own key for an AI platform (it wins over the instance's setting), sealed with the
 * SecretBox (purpose `ai-provider-keys`, context `<workspace id>/<platform>`). Never shown again.
 */
@Entity({ name: 'workspace_ai_keys' })
export class WorkspaceAiKey {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid', primaryKeyConstraintName: 'PK_workspace_ai_keys' })
  workspaceId!: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_workspace_ai_keys' })
  platform!: string;

  @WorkspaceOwner('FK_workspace_ai_keys_workspace')
  workspace?: Workspace;

  @Column({ type: 'text' })
  sealed!: string;

  /** Email of the admin who set it. */
  @Column({ name: 'updated_by', type: 'varchar', length: 254, nullable: true })
  updatedBy!: string | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
