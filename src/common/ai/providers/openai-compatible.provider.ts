import OpenAI from 'openai';
import type { AiAnswer, AiAskRequest, AiProvider } from '../ai.types';
import { cleanCitations } from '../citations';
import { fromSdkError } from '../sdk-errors';
import { openAiClient } from './openai-client';
import { readChatCompletion } from './chat-completion';

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
export class OpenAiCompatibleProvider implements AiProvider {
  readonly platform = 'openai_compatible' as const;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.client = openAiClient(options.apiKey || 'none', options.baseURL);
  }

  async ask(req: AiAskRequest): Promise<AiAnswer> {
    const model = req.model ?? this.options.model;
    let body: unknown;
    try {
      body = await this.client.chat.completions.create(
        { model, messages: [{ role: 'user', content: req.prompt }] },
        { signal: req.signal },
      );
    } catch (e) {
      throw fromSdkError(this.platform, e);
    }
    const read = readChatCompletion(this.platform, body, model);
    const citations = cleanCitations(read.citations);
    return {
      platform: this.platform,
      model: read.model,
      surface: citations.length > 0 ? 'api_search' : 'api',
      text: read.text,
      citations,
      searchQueries: [],
      usage: read.usage,
      ...(read.costUsd !== undefined ? { costUsd: read.costUsd } : {}),
    };
  }
}
