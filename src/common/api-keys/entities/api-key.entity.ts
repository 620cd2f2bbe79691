import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Workspace } from './workspace.entity';
import { WorkspaceOwner } from './workspace-owner';

/** An API key. The key itself is never stored: only its SHA-256 (hex) and a display prefix. */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('IDX_api_keys_workspace')
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @WorkspaceOwner('FK_api_keys_workspace')
  workspace?: Workspace;

  @Column({ type: 'varchar', length: 200, nullable: true })
  label!: string | null;

  /** The first characters of the key, shown in listings to tell keys apart. */
  @Column({ type: 'varchar', length: 16 })
  prefix!: string;

  @Column({ name: 'key_hash', type: 'char', length: 64, unique: true })
  keyHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
