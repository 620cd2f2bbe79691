import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/env';
import { AiCallPolicy } from './ai-call-policy';
import { PLATFORM_NAMES } from './ai-provider-error';
import { AI_PLATFORMS, AiPlatform, AiProvider } from './ai.types';
import { createProvider, defaultModel, PLATFORM_SETTINGS, settingsKey } from './provider-factory';

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

  constructor(private readonly config: AppConfig) {
    this.policy = new AiCallPolicy({
      concurrency: config.AI_CONCURRENCY,
      maxRetries: config.AI_MAX_RETRIES,
      retryBaseMs: config.AI_RETRY_BASE_MS,
      retryMaxMs: config.AI_RETRY_MAX_MS,
      timeoutMs: config.AI_TIMEOUT_MS,
    });
  }

  /** The workspace's stored key of a platform (none yet: the settings' keys apply). */
  protected async workspaceKeys(_workspaceId: string): Promise<Map<AiPlatform, string>> {
    return new Map();
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

  async status(workspaceId: string): Promise<AiPlatformStatus[]> {
    const own = await this.workspaceKeys(workspaceId);
    const built = await this.forWorkspace(workspaceId);
    return AI_PLATFORMS.map((platform) => {
      const configured = built.has(platform);
      const keySource = own.has(platform) ? 'workspace' : settingsKey(this.config, platform) ? 'settings' : null;
      return {
        platform,
        name: PLATFORM_NAMES[platform],
        configured,
        keySource,
        setting: PLATFORM_SETTINGS[platform],
        model: defaultModel(this.config, platform) ?? null,
      };
    });
  }
}
