import Anthropic from '@anthropic-ai/sdk';
import type { AiAnswer, AiAskRequest, AiProvider } from '../ai.types';
import { searchedAnswer, tokens } from '../citations';
import { noText, notAnAnswer, sdkCall } from '../sdk-errors';

export interface AnthropicOptions {
  apiKey: string;
  baseURL: string;
  model: string;
  /** Most web searches Claude may run for one answer. */
  maxSearches?: number;
  maxTokens?: number;
}

type Block = { type?: unknown; text?: unknown; citations?: unknown; name?: unknown; input?: { query?: unknown } };

/**
 * Anthropic through the Messages API (official `@anthropic-ai/sdk`) with the web search server
 * tool: `server_tool_use` blocks carry the queries Claude ran, text blocks carry
 * `web_search_result_location` citations (URL, title, cited text). Search results Claude read but
 * did not cite (`web_search_tool_result`) are not citations.
 */
export class AnthropicProvider implements AiProvider {
  readonly platform = 'anthropic' as const;
  private readonly client: Anthropic;

  constructor(private readonly options: AnthropicOptions) {
    this.client = new Anthropic({
      apiKey: options.apiKey,
      authToken: null,
      baseURL: options.baseURL,
      maxRetries: 0,
      timeout: 10 * 60_000,
    });
  }

  async ask(req: AiAskRequest): Promise<AiAnswer> {
    const model = req.model ?? this.options.model;
    const tools: Anthropic.Messages.ToolUnion[] = req.webSearch
      ? [
          {
            type: 'web_search_20250305',
            name: 'web_search',
            max_uses: this.options.maxSearches ?? 5,
            ...(req.country ? { user_location: { type: 'approximate' as const, country: req.country } } : {}),
          },
        ]
      : [];
    const body: unknown = await sdkCall(this.platform, () =>
      this.client.messages.create(
        {
          model,
          max_tokens: this.options.maxTokens ?? 4096,
          messages: [{ role: 'user', content: req.prompt }],
          ...(tools.length ? { tools } : {}),
        },
        { signal: req.signal },
      ),
    );
    if (!body || typeof body !== 'object' || !Array.isArray((body as { content?: unknown }).content)) {
      throw notAnAnswer(this.platform, 'a message');
    }
    const b = body as {
      model?: unknown;
      content: Block[];
      usage?: {
        input_tokens?: unknown;
        output_tokens?: unknown;
        cache_creation_input_tokens?: unknown;
        cache_read_input_tokens?: unknown;
      };
    };
    const texts: string[] = [];
    const citations: Array<{ url?: unknown; title?: unknown }> = [];
    const queries: unknown[] = [];
    // Text before Claude's last search is its preamble ("I'll search for..."), not the answer.
    let lastSearch = -1;
    b.content.forEach((block, i) => {
      if (block?.type === 'server_tool_use' || block?.type === 'web_search_tool_result') lastSearch = i;
    });
    const answerStart = b.content.slice(lastSearch + 1).some((x) => x?.type === 'text') ? lastSearch + 1 : 0;
    b.content.forEach((block, i) => {
      if (block?.type === 'text' && typeof block.text === 'string') {
        if (i >= answerStart) texts.push(block.text);
        if (Array.isArray(block.citations)) {
          for (const c of block.citations as Array<{ type?: unknown; url?: unknown; title?: unknown }>) {
            if (c?.type === 'web_search_result_location') citations.push(c);
          }
        }
      }
      if (block?.type === 'server_tool_use' && block.name === 'web_search') queries.push(block.input?.query);
    });
    // Claude interleaves text blocks around citations: joined as written, they are the answer.
    const text = texts.join('').trim();
    if (!text) throw noText(this.platform);
    const u = b.usage;
    const usage = {
      inputTokens:
        tokens(u?.input_tokens) + tokens(u?.cache_creation_input_tokens) + tokens(u?.cache_read_input_tokens),
      outputTokens: tokens(u?.output_tokens),
    };
    return searchedAnswer(this.platform, req, { model: b.model, requested: model, text, citations, queries, usage });
  }
}
