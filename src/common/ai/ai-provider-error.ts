import type { AiPlatform } from './ai.types';

export type AiProviderErrorCode =
  'ai_unauthorized' | 'ai_rate_limited' | 'ai_unavailable' | 'ai_timeout' | 'ai_bad_response' | 'ai_not_configured';

/**
 * Why a call to an AI platform failed, in words a dashboard can show. `retryAfterMs` is the
 * platform's own Retry-After (429/503) when it sent one; `status` the HTTP status when there was one.
 * The message never contains a key.
 */
export class AiProviderError extends Error {
  constructor(
    readonly code: AiProviderErrorCode,
    message: string,
    readonly details: { platform?: AiPlatform; status?: number; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'AiProviderError';
  }

  get status(): number | undefined {
    return this.details.status;
  }

  get retryAfterMs(): number | undefined {
    return this.details.retryAfterMs;
  }

  get platform(): AiPlatform | undefined {
    return this.details.platform;
  }

  /** 429, 5xx, timeouts and unreachable platforms are worth another try; a bad key or a bad answer is not. */
  get retryable(): boolean {
    return this.code === 'ai_rate_limited' || this.code === 'ai_unavailable' || this.code === 'ai_timeout';
  }
}

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); also the
 * `retry-after-ms` header some vendors send. Undefined when absent or unreadable.
 */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const v = headers.get('retry-after')?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An error for an HTTP status answered by a platform (the SDKs' APIError carries one). */
export function errorForStatus(
  platform: AiPlatform,
  status: number,
  headers: { get(name: string): string | null } | undefined,
  vendorMessage?: string,
): AiProviderError {
  const name = PLATFORM_NAMES[platform];
  const details = { platform, status, retryAfterMs: retryAfterMs(headers) };
  const said = vendorMessage ? ` It said: ${vendorMessage.slice(0, 200)}` : '';
  if (status === 401 || status === 403) {
    // The vendor's words are left out: some quote part of the key ("Incorrect API key provided: sk-...").
    return new AiProviderError(
      'ai_unauthorized',
      `${name} refused the API key (HTTP ${status}). Check the key in Settings > AI providers or the instance's settings.`,
      details,
    );
  }
  if (status === 429) {
    return new AiProviderError('ai_rate_limited', `${name} is limiting the rate of calls (HTTP 429).${said}`, details);
  }
  if (status === 408) return new AiProviderError('ai_timeout', `${name} timed out (HTTP 408).`, details);
  if (status >= 500) {
    return new AiProviderError('ai_unavailable', `${name} had an error on its side (HTTP ${status}).${said}`, details);
  }
  return new AiProviderError('ai_bad_response', `${name} refused the request (HTTP ${status}).${said}`, details);
}

export const PLATFORM_NAMES: Record<AiPlatform, string> = {
  openai: 'OpenAI',
  perplexity: 'Perplexity',
  gemini: 'Google Gemini',
  anthropic: 'Anthropic',
  openai_compatible: 'OpenAI-compatible endpoint',
};
