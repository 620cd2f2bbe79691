import type { AppConfig } from '../config/env';
import type { AiPlatform, AiProvider } from './ai.types';
import { AnthropicProvider } from './providers/anthropic.provider';
import { GeminiProvider } from './providers/gemini.provider';
import { OpenAiCompatibleProvider } from './providers/openai-compatible.provider';
import { OpenAiProvider } from './providers/openai.provider';
import { PerplexityProvider } from './providers/perplexity.provider';

/** The setting(s) that enable each platform, as the dashboard names them. */
export const PLATFORM_SETTINGS: Record<AiPlatform, string> = {
  openai: 'OPENAI_API_KEY',
  perplexity: 'PERPLEXITY_API_KEY',
  gemini: 'GEMINI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  openai_compatible: 'OPENAI_COMPATIBLE_BASE_URL + OPENAI_COMPATIBLE_MODEL (+ OPENAI_COMPATIBLE_API_KEY)',
};

/** The settings of each platform: its key and its default model (and, but for the compatible endpoint, its base URL). */
const SETTINGS = {
  openai: { key: 'OPENAI_API_KEY', model: 'OPENAI_MODEL', baseURL: 'OPENAI_BASE_URL' },
  perplexity: { key: 'PERPLEXITY_API_KEY', model: 'PERPLEXITY_MODEL', baseURL: 'PERPLEXITY_BASE_URL' },
  gemini: { key: 'GEMINI_API_KEY', model: 'GEMINI_MODEL', baseURL: 'GEMINI_BASE_URL' },
  anthropic: { key: 'ANTHROPIC_API_KEY', model: 'ANTHROPIC_MODEL', baseURL: 'ANTHROPIC_BASE_URL' },
  openai_compatible: { key: 'OPENAI_COMPATIBLE_API_KEY', model: 'OPENAI_COMPATIBLE_MODEL' },
} as const satisfies Record<AiPlatform, { key: keyof AppConfig; model: keyof AppConfig; baseURL?: keyof AppConfig }>;

/** The provider class of each platform that takes a key, a base URL and a model. */
const PROVIDERS: Record<
  Exclude<AiPlatform, 'openai_compatible'>,
  new (o: { apiKey: string; baseURL: string; model: string }) => AiProvider
> = {
  openai: OpenAiProvider,
  perplexity: PerplexityProvider,
  gemini: GeminiProvider,
  anthropic: AnthropicProvider,
};

/** The key a platform has in the settings (undefined: none). */
export function settingsKey(config: AppConfig, platform: AiPlatform): string | undefined {
  return config[SETTINGS[platform].key];
}

/** The default model of a platform (undefined: the compatible endpoint without OPENAI_COMPATIBLE_MODEL). */
export function defaultModel(config: AppConfig, platform: AiPlatform): string | undefined {
  return config[SETTINGS[platform].model];
}

/**
 * The provider of a platform with this key, or null when it cannot be built (no key; the compatible
 * endpoint needs a base URL and a model and may go without a key).
 */
export function createProvider(config: AppConfig, platform: AiPlatform, key: string | undefined): AiProvider | null {
  if (platform === 'openai_compatible') {
    const baseURL = config.OPENAI_COMPATIBLE_BASE_URL;
    const model = config.OPENAI_COMPATIBLE_MODEL;
    return baseURL && model ? new OpenAiCompatibleProvider({ baseURL, model, apiKey: key }) : null;
  }
  const s = SETTINGS[platform];
  return key ? new PROVIDERS[platform]({ apiKey: key, baseURL: config[s.baseURL], model: config[s.model] }) : null;
}
