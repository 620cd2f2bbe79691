import type { AiAnswer, AiAskRequest, AiProvider } from '../ai.types';
import { cleanCitations } from '../citations';
import { OpenAiWireProvider } from './openai-client';
import { askChat, chatAnswer } from './chat-completion';

export interface OpenAiCompatibleOptions {
  baseURL: string;
  /** Self-hosted endpoints often need none. */
  apiKey?: string;
  model: string;
}

/**
 * Any endpoint that speaks OpenAI's Chat Completions (self-hosted models, gateways), through the
 * official `openai` SDK pointed at its base URL. It has no web search switch Beacon could turn on,
 * so the surface is `api`, unless the answer carries `url_citation` annotations (gateways that
 * search, OpenAI's search models), then `api_search`: the label says what happened, not what was asked.
 */
export class OpenAiCompatibleProvider extends OpenAiWireProvider implements AiProvider {
  readonly platform = 'openai_compatible' as const;

  constructor(options: OpenAiCompatibleOptions) {
    super({ ...options, apiKey: options.apiKey || 'none' });
  }

  async ask(req: AiAskRequest): Promise<AiAnswer> {
    const model = this.modelOf(req);
    const read = await askChat(
      this.client,
      this.platform,
      { model, messages: [{ role: 'user', content: req.prompt }] },
      req.signal,
    );
    const citations = cleanCitations(read.citations);
    return chatAnswer(this.platform, read, citations, citations.length > 0 ? 'api_search' : 'api');
  }
}
