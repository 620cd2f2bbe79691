import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { SecretBoxService } from '../secrets/secret-box';
import { AI_PLATFORMS, AiPlatform } from './ai.types';
import { WorkspaceAiKeysStore } from './workspace-ai-keys.store';

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
    if (k.length > 1000) throw DomainError.badRequest('That is longer than any AI platform key (1,000 characters at most).', 'key');
    // eslint-disable-next-line no-control-regex
    if (/[\s\u0000-\u001f\u007f]/.test(k)) throw DomainError.badRequest('A key has no spaces or line breaks: paste it alone.', 'key');
    const box = await this.boxes.box(PURPOSE);
    await this.store.upsert(workspaceId, platform, box.seal(k, context(workspaceId, platform)), updatedBy);
  }

  remove(workspaceId: string, platform: AiPlatform): Promise<boolean> {
    return this.store.remove(workspaceId, platform);
  }

  /** The stored keys that open, by platform (none for an id that is not a workspace's UUID). */
  async keys(workspaceId: string): Promise<Map<AiPlatform, string>> {
    const out = new Map<AiPlatform, string>();
    const rows = UUID.test(workspaceId) ? await this.store.list(workspaceId) : [];
    if (rows.length === 0) return out;
    const box = await this.boxes.box(PURPOSE);
    for (const r of rows) {
      if (!(AI_PLATFORMS as readonly string[]).includes(r.platform)) continue;
      const platform = r.platform as AiPlatform;
      try {
        out.set(platform, box.open(r.sealed, context(workspaceId, platform)));
      } catch {
        this.log.warn(`The stored ${platform} key of workspace ${workspaceId} does not open (instance secret changed?); the settings' key applies.`);
      }
    }
    return out;
  }

  async info(workspaceId: string): Promise<Map<AiPlatform, StoredKeyInfo>> {
    const out = new Map<AiPlatform, StoredKeyInfo>();
    const rows = UUID.test(workspaceId) ? await this.store.list(workspaceId) : [];
    if (rows.length === 0) return out;
    const box = await this.boxes.box(PURPOSE);
    for (const r of rows) {
      if (!(AI_PLATFORMS as readonly string[]).includes(r.platform)) continue;
      const platform = r.platform as AiPlatform;
      let readable = true;
      try {
        box.open(r.sealed, context(workspaceId, platform));
      } catch {
        readable = false;
      }
      out.set(platform, { updatedAt: r.updatedAt, updatedBy: r.updatedBy, readable });
    }
    return out;
  }
}
