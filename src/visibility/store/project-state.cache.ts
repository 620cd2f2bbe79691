import { Injectable } from '@nestjs/common';

/** How long a workspace's project pointers are reused without a database read. */
export const PROJECT_STATE_TTL_MS = 1000;

/** What every read starts from: one primary-key lookup (also the input of the ETag). */
export interface ProjectState {
  workspaceId: string;
  latestScanId: string;
  version: number;
}

/**
 * Project pointers by workspace, kept PROJECT_STATE_TTL_MS. Writers in this process (import,
 * re-derivation) drop a workspace's entry after their commit, so reads see it at once; another
 * process's writes are seen within the TTL.
 */
@Injectable()
export class ProjectStateCache {
  private readonly entries = new Map<string, { state: ProjectState; until: number }>();

  async get(workspaceId: string, load: () => Promise<ProjectState>): Promise<ProjectState> {
    const now = Date.now();
    const hit = this.entries.get(workspaceId);
    if (hit && hit.until > now) return hit.state;
    const state = await load();
    if (this.entries.size >= 10_000) this.entries.clear();
    this.entries.set(workspaceId, { state, until: now + PROJECT_STATE_TTL_MS });
    return state;
  }

  forget(workspaceId: string): void {
    this.entries.delete(workspaceId);
  }
}
