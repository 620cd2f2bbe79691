import { GoogleGenAI } from '@google/genai';
import { AiProviderError, retryAfterMs } from '../ai-provider-error';
import type { AiAnswer, AiAskRequest, AiProvider } from '../ai.types';
import { searchedAnswer, tokens } from '../citations';
import { fromSdkError } from '../sdk-errors';

export interface GeminiOptions {
  apiKey: string;
  baseURL: string;
  model: string;
  /** Time allowed to read where one grounding redirect link points. */
  redirectTimeoutMs?: number;
}

type Candidate = {
  content?: { parts?: Array<{ text?: unknown; thought?: unknown }> };
  finishReason?: unknown;
  groundingMetadata?: {
    webSearchQueries?: unknown;
    groundingChunks?: Array<{ web?: { uri?: unknown; title?: unknown } }>;
  };
};

/** The host of the grounding redirect links Google puts in `groundingChunks[].web.uri`. */
const REDIRECT_HOST = 'vertexaisearch.cloud.google.com';

/** Google's RetryInfo in an error body (`"retryDelay": "37s"`), as milliseconds. */
function retryDelayInBody(message: string): number | undefined {
  const m = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message);
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

/**
 * Google Gemini through `generateContent` (official `@google/genai`) with the Google Search
 * grounding tool: `groundingMetadata.webSearchQueries` are the queries, `groundingChunks[].web` the
 * sources. A chunk's `uri` is a Google redirect link (`.../grounding-api-redirect/...`), not the
 * cited page, and its `title` is usually the page's domain: Beacon reads where each redirect points
 * (without fetching the page) and keeps the redirect link when it cannot. Gemini's search takes no
 * country; `country` is not sent.
 */
export class GeminiProvider implements AiProvider {
  readonly platform = 'gemini' as const;

  constructor(private readonly options: GeminiOptions) {}

  async ask(req: AiAskRequest): Promise<AiAnswer> {
    const model = req.model ?? this.options.model;
    // One client per call, so the Retry-After of this call's failed response is this call's.
    let failedRetryAfter: number | undefined;
    const ai = new GoogleGenAI({
      vertexai: false,
      apiKey: this.options.apiKey,
      httpOptions: {
        baseUrl: this.options.baseURL,
        retryOptions: { attempts: 1 },
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          if (!res.ok) failedRetryAfter = retryAfterMs(res.headers);
          return res;
        },
      },
    });
    let body: unknown;
    try {
      body = await ai.models.generateContent({
        model,
        contents: req.prompt,
        config: { ...(req.webSearch ? { tools: [{ googleSearch: {} }] } : {}), abortSignal: req.signal },
      });
    } catch (e) {
      const err = fromSdkError(this.platform, e);
      const wait = failedRetryAfter ?? retryDelayInBody(String((e as Error)?.message ?? ''));
      if (wait !== undefined && err.retryAfterMs === undefined) {
        throw new AiProviderError(err.code, err.message, { ...err.details, retryAfterMs: wait });
      }
      throw err;
    }
    const b = body as {
      candidates?: Candidate[];
      modelVersion?: unknown;
      usageMetadata?: Record<string, unknown>;
    } | null;
    if (!b || typeof b !== 'object' || !Array.isArray(b.candidates)) {
      throw new AiProviderError('ai_bad_response', 'Google Gemini gave no answer (no candidates).', {
        platform: this.platform,
      });
    }
    const cand = b.candidates[0];
    const text = (cand?.content?.parts ?? [])
      .filter((p) => typeof p?.text === 'string' && p.thought !== true)
      .map((p) => p.text as string)
      .join('')
      .trim();
    if (!text) {
      const why = typeof cand?.finishReason === 'string' ? ` (finish reason ${cand.finishReason})` : '';
      throw new AiProviderError('ai_bad_response', `Google Gemini gave an answer with no text${why}.`, {
        platform: this.platform,
      });
    }
    const meta = cand.groundingMetadata;
    const chunks = (meta?.groundingChunks ?? [])
      .map((c) => c?.web)
      .filter((w): w is { uri?: unknown; title?: unknown } => !!w);
    const resolved = await Promise.all(
      chunks.map(async (w) => ({ url: await this.resolve(w.uri, req.signal), title: w.title })),
    );
    const usage = b.usageMetadata ?? {};
    return searchedAnswer(this.platform, req, {
      model: b.modelVersion,
      requested: model,
      text,
      citations: resolved,
      queries: Array.isArray(meta?.webSearchQueries) ? (meta.webSearchQueries as unknown[]) : [],
      // Thinking tokens are billed as output.
      usage: {
        inputTokens: tokens(usage.promptTokenCount),
        outputTokens: tokens(usage.candidatesTokenCount) + tokens(usage.thoughtsTokenCount),
      },
    });
  }

  /**
   * Where a grounding redirect link points (its Location), without following it; other values as
   * given. Only links on Google's redirect host (or the configured Gemini address, e.g. a test's)
   * are read: an answer cannot make Beacon request an arbitrary address.
   */
  private async resolve(uri: unknown, signal?: AbortSignal): Promise<unknown> {
    if (typeof uri !== 'string' || !uri.includes('/grounding-api-redirect/')) return uri;
    let host: string;
    try {
      const u = new URL(uri);
      host = u.host;
      if (u.protocol !== 'https:' && u.protocol !== 'http:') return uri;
    } catch {
      return uri;
    }
    if (host !== REDIRECT_HOST && host !== new URL(this.options.baseURL).host) return uri;
    try {
      const timeout = AbortSignal.timeout(this.options.redirectTimeoutMs ?? 5000);
      const res = await fetch(uri, {
        method: 'GET',
        redirect: 'manual',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      await res.body?.cancel();
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      return location ? new URL(location, uri).toString() : uri;
    } catch {
      return uri;
    }
  }
}
