import OpenAI from 'openai';
import type { AiAnswer, AiAskRequest, AiProvider } from '../ai.types';
import { cleanCitations } from '../citations';
import { OpenAiWireProvider } from './openai-client';
import { askChat, chatAnswer } from './chat-completion';

/**
 * Perplexity Sonar through its OpenAI-compatible Chat Completions (the official `openai` SDK at
 * Perplexity's base URL, as Perplexity documents). Sonar searches on every call; without web
 * search Beacon sends `disable_search: true` and labels the answer `api`. Citations come from
 * `search_results` (with titles) and `citations` (URLs); `usage.cost.total_cost` is the cost
 * Perplexity reports. Sonar does not publish the queries it ran.
 */
export class PerplexityProvider extends OpenAiWireProvider implements AiProvider {
  readonly platform = 'perplexity' as const;

  async ask(req: AiAskRequest): Promise<AiAnswer> {
    const model = this.modelOf(req);
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
