import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Workspace } from '../../common/api-keys/entities/workspace.entity';
import { WorkspaceOwner } from '../../common/api-keys/entities/workspace-owner';
import type { ScanChanges } from '../derive/changes';
import type { ScanSummary } from '../derive/metrics';

/** One imported scan and every figure derived from it at ingest. */
@Entity({ name: 'vis_scans' })
@Unique('UQ_vis_scans_workspace_key', ['workspaceId', 'scanKey'])
@Index('IDX_vis_scans_workspace_date', ['workspaceId', 'date', 'scanKey'])
export class VisScan {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_vis_scans' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @WorkspaceOwner('FK_vis_scans_workspace')
  workspace?: Workspace;

  /** The scan id of the import file (`scan.id`). */
  @Column({ name: 'scan_key', type: 'varchar', length: 128 })
  scanKey!: string;

  @Column({ type: 'date' })
  date!: string;

  @Column({ type: 'text', array: true })
  platforms!: string[];

  /** SHA-256 of the canonical import: re-importing identical content is a no-op, different content a conflict. */
  @Column({ name: 'content_hash', type: 'char', length: 64 })
  contentHash!: string;

  /** json, not jsonb: keeps the key order of the API. */
  @Column({ type: 'json' })
  summary!: ScanSummary;

  /** Against the scan before it by date; null for the first scan. */
  @Column({ type: 'json', nullable: true })
  changes!: ScanChanges | null;

  @CreateDateColumn({ name: 'imported_at', type: 'timestamptz' })
  importedAt!: Date;
}
