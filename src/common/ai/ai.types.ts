/**
 * The provider seam (docs/ai-providers.md): one prompt asked to one AI platform, one typed answer.
 * The names are the ones agreed in the round's interfaces; other modules code against them.
 */
export type AiPlatform = 'openai' | 'perplexity' | 'gemini' | 'anthropic' | 'openai_compatible';

/** Which surface answered: the plain API, or the API with web search / grounding switched on. */
export type AiSurface = 'api' | 'api_search';

export const AI_PLATFORMS: readonly AiPlatform[] = ['openai', 'perplexity', 'gemini', 'anthropic', 'openai_compatible'];

export interface AiAskRequest {
  prompt: string;
  /** The platform's model; default: the one configured for the platform. */
  model?: string;
  /** Ask with the platform's web search / grounding tool (where it has one). */
  webSearch: boolean;
  /** ISO 3166-1 alpha-2 country the search should answer for, where the platform takes one. */
  country?: string;
  signal?: AbortSignal;
}

export interface AiCitation {
  url: string;
  title?: string;
}

export interface AiAnswer {
  platform: AiPlatform;
  model: string;
  surface: AiSurface;
  text: string;
  citations: AiCitation[];
  searchQueries: string[];
  usage: { inputTokens: number; outputTokens: number };
  costUsd?: number;
}

export interface AiProvider {
  readonly platform: AiPlatform;
  ask(req: AiAskRequest): Promise<AiAnswer>;
}
