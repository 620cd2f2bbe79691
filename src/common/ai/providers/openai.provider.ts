import OpenAI from 'openai';
import type { AiAnswer, AiAskRequest, AiProvider } from '../ai.types';
import { searchedAnswer, tokens } from '../citations';
import { noText, notAnAnswer, sdkCall } from '../sdk-errors';
import { OpenAiWireProvider } from './openai-client';

type Item = { type?: unknown; action?: { type?: unknown; query?: unknown; queries?: unknown }; content?: unknown };
type Part = { type?: unknown; text?: unknown; annotations?: unknown };

/**
 * OpenAI through the Responses API (official `openai` SDK). With web search, the `web_search`
 * tool: `web_search_call` output items carry the queries the model ran, the message's
 * `output_text` parts carry `url_citation` annotations (the pages the answer cites). The surface is
 * `api_search` when the tool was offered: the model decides whether to search, and an answer it
 * gave without searching still came from the search surface.
 */
export class OpenAiProvider extends OpenAiWireProvider implements AiProvider {
  readonly platform = 'openai' as const;

  async ask(req: AiAskRequest): Promise<AiAnswer> {
    const model = this.modelOf(req);
    const tools: OpenAI.Responses.Tool[] = req.webSearch
      ? [
          {
            type: 'web_search',
            ...(req.country ? { user_location: { type: 'approximate', country: req.country } } : {}),
          },
        ]
      : [];
    const body: unknown = await sdkCall(this.platform, () =>
      this.client.responses.create(
        { model, input: req.prompt, ...(tools.length ? { tools } : {}) },
        { signal: req.signal },
      ),
    );
    if (!body || typeof body !== 'object' || !Array.isArray((body as { output?: unknown }).output)) {
      throw notAnAnswer(this.platform, 'a response object');
    }
    const b = body as { model?: unknown; output: Item[]; usage?: { input_tokens?: unknown; output_tokens?: unknown } };
    const texts: string[] = [];
    const citations: Array<{ url?: unknown; title?: unknown }> = [];
    const queries: unknown[] = [];
    for (const item of b.output) {
      if (item?.type === 'web_search_call' && item.action?.type === 'search') {
        if (Array.isArray(item.action.queries) && item.action.queries.length > 0)
          queries.push(...(item.action.queries as unknown[]));
        else queries.push(item.action.query);
      }
      if (item?.type === 'message' && Array.isArray(item.content)) {
        for (const part of item.content as Part[]) {
          if (part?.type !== 'output_text' || typeof part.text !== 'string') continue;
          texts.push(part.text);
          if (!Array.isArray(part.annotations)) continue;
          for (const a of part.annotations as Array<{ type?: unknown; url?: unknown; title?: unknown }>) {
            if (a?.type === 'url_citation') citations.push(a);
          }
        }
      }
    }
    const text = texts.join('\n\n').trim();
    if (!text) throw noText(this.platform);
    const usage = { inputTokens: tokens(b.usage?.input_tokens), outputTokens: tokens(b.usage?.output_tokens) };
    return searchedAnswer(this.platform, req, { model: b.model, requested: model, text, citations, queries, usage });
  }
}
