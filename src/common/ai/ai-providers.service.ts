import { Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '../config/env';
import { AiCallPolicy } from './ai-call-policy';
import { AiProviderError, PLATFORM_NAMES } from './ai-provider-error';
import { AI_PLATFORMS, AiPlatform, AiProvider } from './ai.types';
import { createProvider, defaultModel, PLATFORM_SETTINGS, settingsKey } from './provider-factory';
import { StoredKeyInfo, WorkspaceAiKeysService } from './workspace-ai-keys.service';

/** Where a platform's configuration comes from, for the dashboard. */
export interface AiPlatformStatus {
  platform: AiPlatform;
  /** The platform's name for people ("Google Gemini"). */
  name: string;
  configured: boolean;
  /** Whose key is used: the workspace's stored one, the instance's settings, or none. */
  keySource: 'workspace' | 'settings' | null;
  /** The setting(s) that enable the platform on this instance. */
  setting: string;
  /** The model asked when a caller names none. */
  model: string | null;
  /** The workspace's stored key, if any (when and by whom; never the key). */
  workspaceKey: StoredKeyInfo | null;
}

/**
 * The AI platforms a workspace can ask: keys from the settings, overridden by the workspace's own
 * stored key. Each call builds providers afresh, so a key replaced or removed in the dashboard
 * takes effect at the next scan without a restart. Every provider it returns runs its calls
 * through {@link AiCallPolicy} (concurrency per platform, time limit, retries honouring Retry-After).
 */
@Injectable()
export class AiProvidersService {
  /** One policy per instance: its concurrency counts every workspace's calls to a platform. */
  readonly policy: AiCallPolicy;

  constructor(
    private readonly config: AppConfig,
    /** Absent (e.g. a unit test without a database): the settings' keys only. */
    @Optional() private readonly workspaceKeyStore?: WorkspaceAiKeysService,
  ) {
    this.policy = new AiCallPolicy({
      concurrency: config.AI_CONCURRENCY,
      maxRetries: config.AI_MAX_RETRIES,
      retryBaseMs: config.AI_RETRY_BASE_MS,
      retryMaxMs: config.AI_RETRY_MAX_MS,
      timeoutMs: config.AI_TIMEOUT_MS,
    });
  }

  private async workspaceKeys(workspaceId: string): Promise<Map<AiPlatform, string>> {
    return this.workspaceKeyStore ? this.workspaceKeyStore.keys(workspaceId) : new Map();
  }

  async forWorkspace(workspaceId: string): Promise<Map<AiPlatform, AiProvider>> {
    const own = await this.workspaceKeys(workspaceId);
    const out = new Map<AiPlatform, AiProvider>();
    for (const platform of AI_PLATFORMS) {
      const provider = createProvider(this.config, platform, own.get(platform) ?? settingsKey(this.config, platform));
      if (provider) out.set(platform, this.policy.wrap(provider));
    }
    return out;
  }

  /**
   * One platform's provider, or `ai_not_configured` saying which setting (or workspace key) would
   * enable it: what a "Run now" shows when it cannot ask a platform.
   */
  async provider(workspaceId: string, platform: AiPlatform): Promise<AiProvider> {
    const p = (await this.forWorkspace(workspaceId)).get(platform);
    if (p) return p;
    const how =
      platform === 'openai_compatible'
        ? 'the instance needs OPENAI_COMPATIBLE_BASE_URL and OPENAI_COMPATIBLE_MODEL'
        : `set ${PLATFORM_SETTINGS[platform]} on the instance, or a key for this workspace in Settings > AI providers`;
    throw new AiProviderError('ai_not_configured', `${PLATFORM_NAMES[platform]} is not configured: ${how}.`, {
      platform,
    });
  }

  /** Whether the instance's own setting (no workspace key) gives a working provider for `platform`. */
  instanceConfigured(platform: AiPlatform): boolean {
    return createProvider(this.config, platform, settingsKey(this.config, platform)) !== null;
  }

  async status(workspaceId: string): Promise<AiPlatformStatus[]> {
    const own = await this.workspaceKeys(workspaceId);
    const info = this.workspaceKeyStore
      ? await this.workspaceKeyStore.info(workspaceId)
      : new Map<AiPlatform, StoredKeyInfo>();
    return AI_PLATFORMS.map((platform) => {
      const key = own.get(platform) ?? settingsKey(this.config, platform);
      const configured = createProvider(this.config, platform, key) !== null;
      const keySource = own.has(platform) ? 'workspace' : settingsKey(this.config, platform) ? 'settings' : null;
      return {
        platform,
        name: PLATFORM_NAMES[platform],
        configured,
        keySource,
        setting: PLATFORM_SETTINGS[platform],
        model: defaultModel(this.config, platform) ?? null,
        workspaceKey: info.get(platform) ?? null,
      };
    });
  }
}
