import { AI_PLATFORMS } from './ai.types';
import { AI_PRICES, answerCostUsd, priceOf } from './prices';

const answer = (o: Partial<Parameters<typeof answerCostUsd>[0]> = {}): Parameters<typeof answerCostUsd>[0] => ({
  platform: 'openai',
  model: 'gpt-5-mini',
  surface: 'api',
  searchQueries: [],
  usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 },
  ...o,
});

describe('AI prices', () => {
  it('every platform has a default row with finite, non-negative prices', () => {
    for (const p of AI_PLATFORMS) {
      for (const row of [AI_PRICES[p].default, ...Object.values(AI_PRICES[p].models)]) {
        expect(row.input).toBeGreaterThanOrEqual(0);
        expect(row.output).toBeGreaterThanOrEqual(0);
        expect(Number.isFinite(row.input + row.output + (row.search?.usd ?? 0))).toBe(true);
      }
    }
  });

  it('matches a model by its longest listed prefix, dated ids included; an unknown model gets the default row', () => {
    expect(priceOf('openai', 'gpt-5-mini-2025-08-07')).toEqual({
      price: AI_PRICES.openai.models['gpt-5-mini'],
      listed: true,
    });
    expect(priceOf('openai', 'gpt-5')).toEqual({ price: AI_PRICES.openai.models['gpt-5'], listed: true });
    expect(priceOf('openai', 'GPT-4o-mini').price).toBe(AI_PRICES.openai.models['gpt-4o-mini']);
    expect(priceOf('anthropic', 'claude-opus-4-1-20250805').price).toBe(AI_PRICES.anthropic.models['claude-opus-4']);
    expect(priceOf('anthropic', 'claude-opus-4-5-20251101').price).toBe(AI_PRICES.anthropic.models['claude-opus-4-5']);
    expect(priceOf('anthropic', 'claude-sonnet-4-6').price).toBe(AI_PRICES.anthropic.models['claude-sonnet-4']);
    // a prefix must end at a dash: "gpt-50" is not "gpt-5"
    expect(priceOf('openai', 'gpt-50')).toEqual({ price: AI_PRICES.openai.default, listed: false });
    expect(priceOf('openai_compatible', 'llama-3.3-70b')).toEqual({
      price: AI_PRICES.openai_compatible.default,
      listed: false,
    });
  });

  it('tokens at the model prices (a million in, a million out)', () => {
    expect(answerCostUsd(answer())).toEqual({ usd: 2.25, estimated: true, listed: true });
    expect(answerCostUsd(answer({ platform: 'gemini', model: 'gemini-2.5-pro' })).usd).toBeCloseTo(11.25, 10);
  });

  it('search fees: per query (OpenAI, Anthropic, Gemini 3), per request (Gemini 2.5, Perplexity), none without search', () => {
    const small = { usage: { inputTokens: 0, outputTokens: 0 } };
    const q = (n: number) => Array.from({ length: n }, (_, i) => `q${i}`);
    expect(answerCostUsd(answer({ ...small, surface: 'api_search', searchQueries: q(3) })).usd).toBeCloseTo(0.03, 10);
    // OpenAI offered the tool but the model did not search: no fee
    expect(answerCostUsd(answer({ ...small, surface: 'api_search' })).usd).toBe(0);
    const claude = {
      ...small,
      platform: 'anthropic' as const,
      model: 'claude-sonnet-4-6',
      surface: 'api_search' as const,
    };
    expect(answerCostUsd(answer({ ...claude, searchQueries: q(2) })).usd).toBeCloseTo(0.02, 10);
    const gemini = { ...small, platform: 'gemini' as const, surface: 'api_search' as const, searchQueries: q(4) };
    expect(answerCostUsd(answer({ ...gemini, model: 'gemini-2.5-flash' })).usd).toBeCloseTo(0.035, 10);
    expect(answerCostUsd(answer({ ...gemini, model: 'gemini-3-pro-preview' })).usd).toBeCloseTo(0.056, 10);
    expect(answerCostUsd(answer({ ...gemini, model: 'gemini-2.5-flash', surface: 'api' })).usd).toBe(0);
    const sonar = { ...small, platform: 'perplexity' as const, surface: 'api_search' as const };
    expect(answerCostUsd(answer({ ...sonar, model: 'sonar' })).usd).toBeCloseTo(0.005, 10);
    expect(answerCostUsd(answer({ ...sonar, model: 'sonar-pro' })).usd).toBeCloseTo(0.006, 10);
  });

  it("takes the platform's own cost when it reports one, and marks a default-row cost as not listed", () => {
    expect(answerCostUsd(answer({ platform: 'perplexity', model: 'sonar', costUsd: 0.0123 }))).toEqual({
      usd: 0.0123,
      estimated: false,
      listed: true,
    });
    expect(answerCostUsd(answer({ model: 'gpt-9-turbo' }))).toEqual({ usd: 2.25, estimated: true, listed: false });
    // a nonsense reported cost falls back to the table
    expect(answerCostUsd(answer({ costUsd: Number.NaN })).estimated).toBe(true);
  });
});
