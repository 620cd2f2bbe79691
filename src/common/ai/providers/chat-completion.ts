import type OpenAI from 'openai';
import type { AiAnswer, AiPlatform } from '../ai.types';
import { tokens } from '../citations';
import { noText, notAnAnswer, sdkCall } from '../sdk-errors';

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
  if (!body || typeof body !== 'object' || !Array.isArray((body as { choices?: unknown }).choices)) {
    throw notAnAnswer(platform, 'a chat completion');
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
  if (!text) throw noText(platform);

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

/** One Chat Completions call through the `openai` SDK (Perplexity, OpenAI-compatible endpoints), read. */
export async function askChat(
  client: OpenAI,
  platform: AiPlatform,
  params: OpenAI.ChatCompletionCreateParamsNonStreaming,
  signal: AbortSignal | undefined,
): Promise<ChatCompletionReading> {
  const body: unknown = await sdkCall(platform, () => client.chat.completions.create(params, { signal }));
  return readChatCompletion(platform, body, params.model);
}

/** The answer of a Chat Completions reading, with its cleaned citations (no search queries: not published). */
export function chatAnswer(
  platform: AiPlatform,
  read: ChatCompletionReading,
  citations: AiAnswer['citations'],
  surface: AiAnswer['surface'],
): AiAnswer {
  return {
    platform,
    model: read.model,
    surface,
    text: read.text,
    citations,
    searchQueries: [],
    usage: read.usage,
    ...(read.costUsd !== undefined ? { costUsd: read.costUsd } : {}),
  };
}
