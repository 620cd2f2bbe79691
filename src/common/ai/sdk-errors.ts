import { AiProviderError, errorForStatus, PLATFORM_NAMES } from './ai-provider-error';
import type { AiPlatform } from './ai.types';

interface HeadersLike {
  get(name: string): string | null;
}

function vendorMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { message?: unknown; error?: unknown };
  if (typeof b.message === 'string') return b.message;
  if (typeof b.error === 'string') return b.error;
  return vendorMessage(b.error);
}

/**
 * Any error thrown by a vendor SDK (openai and @anthropic-ai/sdk share one error family,
 * @google/genai has its own) or by fetch, as an {@link AiProviderError}. An AiProviderError passes through.
 */
export function fromSdkError(platform: AiPlatform, e: unknown): AiProviderError {
  if (e instanceof AiProviderError) return e;
  const name = PLATFORM_NAMES[platform];
  const err = e as { name?: string; status?: unknown; headers?: unknown; error?: unknown; message?: string };
  const status = typeof err?.status === 'number' ? err.status : undefined;
  if (status !== undefined && status >= 400) {
    const headers =
      err.headers && typeof (err.headers as HeadersLike).get === 'function' ? (err.headers as HeadersLike) : undefined;
    const said = vendorMessage(err.error) ?? vendorMessage(parseJson(err.message));
    // Google answers a bad key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
    const badKey = status === 400 && /API_KEY_INVALID|API key not valid/.test(`${said ?? ''} ${err.message ?? ''}`);
    return errorForStatus(platform, badKey ? 401 : status, headers, said);
  }
  const errName = err?.name ?? '';
  if (/Timeout/i.test(errName))
    return new AiProviderError('ai_timeout', `${name} did not answer in time.`, { platform });
  if (/Abort/i.test(errName))
    return new AiProviderError('ai_timeout', `The call to ${name} was cancelled.`, { platform });
  if (e instanceof SyntaxError) {
    return new AiProviderError('ai_bad_response', `${name} answered with something that is not valid JSON.`, {
      platform,
    });
  }
  if (/Connection|FetchError/i.test(errName) || (errName === 'TypeError' && /fetch failed/i.test(err.message ?? ''))) {
    return new AiProviderError('ai_unavailable', `${name} could not be reached.`, { platform });
  }
  return new AiProviderError(
    'ai_bad_response',
    `${name} gave an answer Beacon cannot read (${String(err?.message ?? e).slice(0, 200)}).`,
    { platform },
  );
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
}

/** A vendor SDK call, its failure thrown as an {@link AiProviderError} (see fromSdkError). */
export async function sdkCall<T>(platform: AiPlatform, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw fromSdkError(platform, e);
  }
}

/** The vendor answered with something that is not `what` ("a message", "a chat completion"). */
export function notAnAnswer(platform: AiPlatform, what: string): AiProviderError {
  return new AiProviderError(
    'ai_bad_response',
    `${PLATFORM_NAMES[platform]} answered with something that is not ${what}.`,
    {
      platform,
    },
  );
}

/** The vendor's answer has no text. */
export function noText(platform: AiPlatform): AiProviderError {
  return new AiProviderError('ai_bad_response', `${PLATFORM_NAMES[platform]} gave an answer with no text.`, {
    platform,
  });
}
