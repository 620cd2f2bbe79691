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

/** The key a platform has in the settings (undefined: none). */
export function settingsKey(config: AppConfig, platform: AiPlatform): string | undefined {
  switch (platform) {
    case 'openai':
      return config.OPENAI_API_KEY;
    case 'perplexity':
      return config.PERPLEXITY_API_KEY;
    case 'gemini':
      return config.GEMINI_API_KEY;
    case 'anthropic':
      return config.ANTHROPIC_API_KEY;
    case 'openai_compatible':
      return config.OPENAI_COMPATIBLE_API_KEY;
  }
}

/** The default model of a platform (undefined: the compatible endpoint without OPENAI_COMPATIBLE_MODEL). */
export function defaultModel(config: AppConfig, platform: AiPlatform): string | undefined {
  switch (platform) {
    case 'openai':
      return config.OPENAI_MODEL;
    case 'perplexity':
      return config.PERPLEXITY_MODEL;
    case 'gemini':
      return config.GEMINI_MODEL;
    case 'anthropic':
      return config.ANTHROPIC_MODEL;
    case 'openai_compatible':
      return config.OPENAI_COMPATIBLE_MODEL;
  }
}

/**
 * The provider of a platform with this key, or null when it cannot be built (no key; the compatible
 * endpoint needs a base URL and a model and may go without a key).
 */
export function createProvider(config: AppConfig, platform: AiPlatform, key: string | undefined): AiProvider | null {
  switch (platform) {
    case 'openai_compatible': {
      const baseURL = config.OPENAI_COMPATIBLE_BASE_URL;
      const model = config.OPENAI_COMPATIBLE_MODEL;
      return baseURL && model ? new OpenAiCompatibleProvider({ baseURL, model, apiKey: key }) : null;
    }
    case 'openai':
      return key
        ? new OpenAiProvider({ apiKey: key, baseURL: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL })
        : null;
    case 'perplexity':
      return key
        ? new PerplexityProvider({ apiKey: key, baseURL: config.PERPLEXITY_BASE_URL, model: config.PERPLEXITY_MODEL })
        : null;
    case 'gemini':
      return key
        ? new GeminiProvider({ apiKey: key, baseURL: config.GEMINI_BASE_URL, model: config.GEMINI_MODEL })
        : null;
    case 'anthropic':
      return key
        ? new AnthropicProvider({ apiKey: key, baseURL: config.ANTHROPIC_BASE_URL, model: config.ANTHROPIC_MODEL })
        : null;
  }
}
