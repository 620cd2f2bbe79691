import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface StoredAiKey {
  platform: string;
  sealed: string;
  updatedBy: string | null;
  updatedAt: Date;
}

/** The SQL of workspaces' own AI platform keys (PostgreSQL, embedded or not). Rows hold sealed values only. */
@Injectable()
export class WorkspaceAiKeysStore {
  constructor(private readonly dataSource: DataSource) {}

  async list(workspaceId: string): Promise<StoredAiKey[]> {
    const rows = await this.dataSource.query<
      Array<{ platform: string; sealed: string; updated_by: string | null; updated_at: Date | string }>
    >(
      'SELECT platform, sealed, updated_by, updated_at FROM workspace_ai_keys WHERE workspace_id = $1 ORDER BY platform',
      [workspaceId],
    );
    return rows.map((r) => ({
      platform: r.platform,
      sealed: r.sealed,
      updatedBy: r.updated_by,
      updatedAt: new Date(r.updated_at),
    }));
  }

  async upsert(workspaceId: string, platform: string, sealed: string, updatedBy: string | null): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO workspace_ai_keys (workspace_id, platform, sealed, updated_by, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (workspace_id, platform) DO UPDATE SET sealed = EXCLUDED.sealed, updated_by = EXCLUDED.updated_by, updated_at = now()`,
      [workspaceId, platform, sealed, updatedBy],
    );
  }

  /** True when a key was there. */
  async remove(workspaceId: string, platform: string): Promise<boolean> {
    const rows = await this.dataSource.query<Array<{ platform: string }>>(
      'DELETE FROM workspace_ai_keys WHERE workspace_id = $1 AND platform = $2 RETURNING platform',
      [workspaceId, platform],
    );
    return rows.length > 0;
  }
}
