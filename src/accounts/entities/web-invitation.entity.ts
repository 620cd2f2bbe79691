import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Workspace } from '../../common/api-keys/entities/workspace.entity';
import { WorkspaceOwner } from '../../common/api-keys/entities/workspace-owner';

/**
 * An admin's invitation of an email address to a workspace, not claimed yet. No account exists
 * until the invited person signs in with the one-time password (only its SHA-256 is kept: it is 119
 * random bits); so an invitation never reveals, blocks or touches an account of another workspace.
 */
@Entity({ name: 'web_invitations' })
@Index('UQ_web_invitations_workspace_email', ['workspaceId', 'email'], { unique: true })
export class WebInvitation {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_web_invitations' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @WorkspaceOwner('FK_web_invitations_workspace')
  workspace?: Workspace;

  @Index('IDX_web_invitations_email')
  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: string;

  @Column({ name: 'otp_hash', type: 'char', length: 64 })
  otpHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
