import { AiCallPolicy } from './ai-call-policy';
import { AiProviderError } from './ai-provider-error';
import type { AiAnswer, AiAskRequest, AiProvider } from './ai.types';

const answer: AiAnswer = {
  platform: 'openai',
  model: 'm',
  surface: 'api',
  text: 't',
  citations: [],
  searchQueries: [],
  usage: { inputTokens: 1, outputTokens: 1 },
};

/** A provider answering from a script of outcomes, recording when each call started. */
function scripted(outcomes: Array<AiAnswer | AiProviderError>): AiProvider & { starts: number[] } {
  const starts: number[] = [];
  return {
    platform: 'openai',
    starts,
    ask: async (_req: AiAskRequest) => {
      starts.push(Date.now());
      const next = outcomes.shift() ?? answer;
      if (next instanceof AiProviderError) throw next;
      return next;
    },
  };
}

const policy = (o: Partial<ConstructorParameters<typeof AiCallPolicy>[0]> = {}): AiCallPolicy =>
  new AiCallPolicy({ concurrency: 2, maxRetries: 3, retryBaseMs: 5, retryMaxMs: 1000, timeoutMs: 1000, ...o });
const limited = (ms?: number): AiProviderError =>
  new AiProviderError('ai_rate_limited', 'slow down', { platform: 'openai', status: 429, retryAfterMs: ms });

describe('AiCallPolicy', () => {
  it("a Retry-After holds the platform's other calls too", async () => {
    const p = policy();
    const first = scripted([limited(200)]);
    const other = scripted([]);
    const started = Date.now();
    const a = p.run(first, { prompt: 'a', webSearch: false });
    await new Promise((r) => setTimeout(r, 20));
    const b = p.run(other, { prompt: 'b', webSearch: false });
    await Promise.all([a, b]);
    expect(first.starts[1] - started).toBeGreaterThanOrEqual(190);
    expect(other.starts[0] - started).toBeGreaterThanOrEqual(190);
  });

  it("the caller's signal ends the wait before a retry, without another attempt", async () => {
    const provider = scripted([limited(500), limited(500)]);
    const controller = new AbortController();
    const run = policy().run(provider, { prompt: 'p', webSearch: false, signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(run).rejects.toMatchObject({ code: 'ai_timeout' });
    expect(provider.starts).toHaveLength(1);
  });

  it('does not retry a bad key or a bad answer', async () => {
    const unauthorized = scripted([new AiProviderError('ai_unauthorized', 'no', { status: 401 })]);
    await expect(policy().run(unauthorized, { prompt: 'p', webSearch: false })).rejects.toMatchObject({
      code: 'ai_unauthorized',
    });
    expect(unauthorized.starts).toHaveLength(1);
    const bad = scripted([new AiProviderError('ai_bad_response', 'no text')]);
    await expect(policy().run(bad, { prompt: 'p', webSearch: false })).rejects.toMatchObject({
      code: 'ai_bad_response',
    });
    expect(bad.starts).toHaveLength(1);
  });
});
