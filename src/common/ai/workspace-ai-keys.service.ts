import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { SecretBoxService } from '../secrets/secret-box';
import { AI_PLATFORMS, AiPlatform } from './ai.types';
import { StoredAiKey, WorkspaceAiKeysStore } from './workspace-ai-keys.store';

const PURPOSE = 'ai-provider-keys';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const context = (workspaceId: string, platform: AiPlatform): string => `${workspaceId}/${platform}`;

/** What the dashboard may know of a stored key: never the key. */
export interface StoredKeyInfo {
  updatedAt: Date;
  updatedBy: string | null;
  /** False when it no longer opens (the instance secret changed): the settings' key applies until it is set again. */
  readable: boolean;
}

export function parsePlatform(v: string): AiPlatform {
  if ((AI_PLATFORMS as readonly string[]).includes(v)) return v as AiPlatform;
  throw DomainError.badRequest('Choose one of the AI platforms listed.', 'platform');
}

/**
 * A workspace's own AI platform keys: sealed with the SecretBox before they reach the database,
 * opened only to build a provider, never returned to a page, never logged.
 */
@Injectable()
export class WorkspaceAiKeysService {
  private readonly log = new Logger('WorkspaceAiKeys');

  constructor(
    private readonly store: WorkspaceAiKeysStore,
    private readonly boxes: SecretBoxService,
  ) {}

  async set(workspaceId: string, platform: AiPlatform, key: string, updatedBy: string | null): Promise<void> {
    const k = key.trim();
    if (!k) throw DomainError.badRequest('Paste the key: the field is empty.', 'key');
    if (k.length > 1000)
      throw DomainError.badRequest('That is longer than any AI platform key (1,000 characters at most).', 'key');
    // eslint-disable-next-line no-control-regex
    if (/[\s\u0000-\u001f\u007f]/.test(k))
      throw DomainError.badRequest('A key has no spaces or line breaks: paste it alone.', 'key');
    const box = await this.boxes.box(PURPOSE);
    await this.store.upsert(workspaceId, platform, box.seal(k, context(workspaceId, platform)), updatedBy);
  }

  remove(workspaceId: string, platform: AiPlatform): Promise<boolean> {
    return this.store.remove(workspaceId, platform);
  }

  /** The stored keys that open, by platform (none for an id that is not a workspace's UUID). */
  async keys(workspaceId: string): Promise<Map<AiPlatform, string>> {
    const out = new Map<AiPlatform, string>();
    for (const { platform, key } of await this.opened(workspaceId)) {
      if (key !== undefined) out.set(platform, key);
      else
        this.log.warn(
          `The stored ${platform} key of workspace ${workspaceId} does not open (instance secret changed?); the settings' key applies.`,
        );
    }
    return out;
  }

  async info(workspaceId: string): Promise<Map<AiPlatform, StoredKeyInfo>> {
    const out = new Map<AiPlatform, StoredKeyInfo>();
    for (const { platform, row, key } of await this.opened(workspaceId)) {
      out.set(platform, { updatedAt: row.updatedAt, updatedBy: row.updatedBy, readable: key !== undefined });
    }
    return out;
  }

  /** The workspace's stored keys of known platforms, each opened (`key` undefined when it does not open). */
  private async opened(
    workspaceId: string,
  ): Promise<Array<{ platform: AiPlatform; row: StoredAiKey; key: string | undefined }>> {
    const rows = UUID.test(workspaceId) ? await this.store.list(workspaceId) : [];
    if (rows.length === 0) return [];
    const box = await this.boxes.box(PURPOSE);
    const out: Array<{ platform: AiPlatform; row: StoredAiKey; key: string | undefined }> = [];
    for (const row of rows) {
      if (!(AI_PLATFORMS as readonly string[]).includes(row.platform)) continue;
      const platform = row.platform as AiPlatform;
      let key: string | undefined;
      try {
        key = box.open(row.sealed, context(workspaceId, platform));
      } catch {
        key = undefined;
      }
      out.push({ platform, row, key });
    }
    return out;
  }
}
