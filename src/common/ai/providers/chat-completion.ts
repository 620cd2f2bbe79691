import { AiProviderError, PLATFORM_NAMES } from '../ai-provider-error';
import type { AiPlatform } from '../ai.types';
import { tokens } from '../citations';

/** What a Chat Completions body (OpenAI's wire format, spoken by Perplexity and most gateways) says. */
export interface ChatCompletionReading {
  model: string;
  text: string;
  /** Raw citations, not yet cleaned: message annotations (`url_citation`), Perplexity's `search_results` then `citations`. */
  citations: Array<{ url?: unknown; title?: unknown }>;
  usage: { inputTokens: number; outputTokens: number };
  costUsd?: number;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  // Some gateways answer with content parts ([{type: 'text', text}]).
  if (Array.isArray(content)) {
    return content
      .map((p) => (p && typeof p === 'object' && typeof p.text === 'string' ? (p.text as string) : ''))
      .join('');
  }
  return '';
}

/**
 * Reads a non-streamed Chat Completions response. Throws `ai_bad_response` for a body that is
 * not one (a gateway's HTML page, no choices) or whose answer has no text.
 */
export function readChatCompletion(platform: AiPlatform, body: unknown, requestedModel: string): ChatCompletionReading {
  const name = PLATFORM_NAMES[platform];
  if (!body || typeof body !== 'object' || !Array.isArray((body as { choices?: unknown }).choices)) {
    throw new AiProviderError('ai_bad_response', `${name} answered with something that is not a chat completion.`, {
      platform,
    });
  }
  const b = body as {
    model?: unknown;
    choices: Array<{ message?: { content?: unknown; refusal?: unknown; annotations?: unknown } }>;
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; cost?: { total_cost?: unknown } };
    citations?: unknown;
    search_results?: unknown;
  };
  const message = b.choices[0]?.message;
  const refusal = typeof message?.refusal === 'string' ? message.refusal : '';
  // Reasoning models (Sonar reasoning, R1-style models behind gateways) put their reasoning in
  // <think>...</think> before the answer: it is not the answer.
  const text = (textOf(message?.content) || refusal).replace(/<think>[\s\S]*?(<\/think>|$)/g, '').trim();
  if (!text) throw new AiProviderError('ai_bad_response', `${name} gave an answer with no text.`, { platform });

  const citations: Array<{ url?: unknown; title?: unknown }> = [];
  if (Array.isArray(message?.annotations)) {
    for (const a of message.annotations as Array<{
      type?: unknown;
      url_citation?: { url?: unknown; title?: unknown };
    }>) {
      if (a?.type === 'url_citation' && a.url_citation) citations.push(a.url_citation);
    }
  }
  if (Array.isArray(b.search_results)) {
    for (const r of b.search_results as Array<{ url?: unknown; title?: unknown }>)
      if (r && typeof r === 'object') citations.push(r);
  }
  if (Array.isArray(b.citations)) for (const url of b.citations) citations.push({ url });

  const cost = b.usage?.cost?.total_cost;
  return {
    model: typeof b.model === 'string' && b.model ? b.model : requestedModel,
    text,
    citations,
    usage: { inputTokens: tokens(b.usage?.prompt_tokens), outputTokens: tokens(b.usage?.completion_tokens) },
    ...(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { costUsd: cost } : {}),
  };
}
