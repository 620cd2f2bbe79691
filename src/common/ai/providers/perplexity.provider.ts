import OpenAI from 'openai';
import type { AiAnswer, AiAskRequest, AiProvider } from '../ai.types';
import { cleanCitations } from '../citations';
import { openAiClient } from './openai-client';
import { askChat, chatAnswer } from './chat-completion';

export interface PerplexityOptions {
  apiKey: string;
  baseURL: string;
  model: string;
}

/**
 * Perplexity Sonar through its OpenAI-compatible Chat Completions (the official `openai` SDK at
 * Perplexity's base URL, as Perplexity documents). Sonar searches on every call; without web
 * search Beacon sends `disable_search: true` and labels the answer `api`. Citations come from
 * `search_results` (with titles) and `citations` (URLs); `usage.cost.total_cost` is the cost
 * Perplexity reports. Sonar does not publish the queries it ran.
 */
export class PerplexityProvider implements AiProvider {
  readonly platform = 'perplexity' as const;
  private readonly client: OpenAI;

  constructor(private readonly options: PerplexityOptions) {
    this.client = openAiClient(options.apiKey, options.baseURL);
  }

  async ask(req: AiAskRequest): Promise<AiAnswer> {
    const model = req.model ?? this.options.model;
    const extra = req.webSearch
      ? req.country
        ? { web_search_options: { user_location: { country: req.country } } }
        : {}
      : { disable_search: true };
    const read = await askChat(
      this.client,
      this.platform,
      {
        model,
        messages: [{ role: 'user', content: req.prompt }],
        ...extra,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming,
      req.signal,
    );
    return chatAnswer(this.platform, read, cleanCitations(read.citations), req.webSearch ? 'api_search' : 'api');
  }
}
