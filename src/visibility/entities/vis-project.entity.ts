import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Workspace } from '../../common/api-keys/entities/workspace.entity';

export interface StoredBrand {
  name: string;
  aliases: string[];
  domains: string[];
}

/** What a workspace's answers are classified with: its business, brand and competitors. */
export interface BrandSetup {
  business: string;
  brand: StoredBrand;
  competitors: StoredBrand[];
}

/** The brand set-up a workspace tracks: the same columns in vis_tracking (as set) and vis_projects (as imported). */
export abstract class BrandSetupColumns implements BrandSetup {
  @Column({ type: 'varchar', length: 200 })
  business!: string;

  /** json, not jsonb: keeps the key order of the API. */
  @Column({ type: 'json' })
  brand!: StoredBrand;

  @Column({ type: 'json' })
  competitors!: StoredBrand[];
}

/** A workspace's tracked project: set-up of its latest import, and the pointers reads start from. */
@Entity({ name: 'vis_projects' })
export class VisProject extends BrandSetupColumns {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid', primaryKeyConstraintName: 'PK_vis_projects' })
  workspaceId!: string;

  @OneToOne(() => Workspace, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_vis_projects_workspace' })
  workspace?: Workspace;

  /** The scan with the latest date (ties: the greater scan id). */
  @Column({ name: 'latest_scan_id', type: 'uuid', nullable: true })
  latestScanId!: string | null;

  @Column({ name: 'scans_total', type: 'integer', default: 0 })
  scansTotal!: number;

  /** Incremented by every import: part of every ETag. */
  @Column({ type: 'integer', default: 0 })
  version!: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
