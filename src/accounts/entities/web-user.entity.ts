import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Workspace } from '../../common/api-keys/entities/workspace.entity';
import { WorkspaceOwner } from '../../common/api-keys/entities/workspace-owner';

export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/**
 * A person who signs in to the website. Belongs to exactly one workspace. The email is unique
 * across the service (sign-in asks for the email only) and kept in lower case.
 */
@Entity({ name: 'web_users' })
export class WebUser {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('IDX_web_users_workspace')
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @WorkspaceOwner('FK_web_users_workspace')
  workspace?: Workspace;

  @Index('UQ_web_users_email', { unique: true })
  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  /** argon2id PHC string (parameters and salt included). */
  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash!: string;

  /** A one-time password (user:create, an invitation): it must be changed at the next sign-in. */
  @Column({ name: 'must_change_password', type: 'boolean', default: true })
  mustChangePassword!: boolean;

  /** When the current one-time password was issued (it expires after ONE_TIME_PASSWORD_TTL_DAYS); null once replaced. */
  @Column({ name: 'one_time_password_at', type: 'timestamptz', nullable: true })
  oneTimePasswordAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt!: Date | null;

  @Column({ name: 'last_sign_in_at', type: 'timestamptz', nullable: true })
  lastSignInAt!: Date | null;
}
