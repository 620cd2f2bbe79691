import type { AiAnswer, AiPlatform } from './ai.types';

/**
 * The price table a scan's US$ budget is estimated with: US$ per million input and output tokens
 * for each platform's models, plus each platform's fee for searching where it charges one. A
 * platform that reports its own cost (Perplexity's `usage.cost.total_cost`) is taken at its word.
 *
 * Prices read on 2026-11-27 from these pages (several through the vendors' forums and third-party
 * copies of the pages, as this environment could not load the vendors' pages themselves: check
 * them before trusting a budget to the cent):
 * - OpenAI: https://platform.openai.com/docs/pricing (models; "Built-in tools": web search US$ 10
 *   per 1,000 calls, search content tokens billed as input tokens at the model's rate)
 * - Perplexity: https://docs.perplexity.ai/getting-started/pricing (token prices; request fee per
 *   1,000 requests by search context size, low: US$ 5 Sonar, US$ 6 Sonar Pro / Reasoning Pro)
 * - Google: https://ai.google.dev/gemini-api/docs/pricing (Gemini 2.5: grounding with Google Search
 *   US$ 35 per 1,000 grounded prompts after a free daily allowance; Gemini 3: US$ 14 per 1,000 search
 *   queries. Free allowances are not counted: the estimate errs high)
 * - Anthropic: https://docs.anthropic.com/en/docs/about-claude/pricing (models; web search tool
 *   US$ 10 per 1,000 searches)
 * Models are matched by the longest listed prefix (`gpt-5-mini-2025-08-07` is `gpt-5-mini`); a
 * model not listed costs the platform's default row, and the answer says its cost is a guess.
 */
export const AI_PRICES_READ_ON = '2026-11-27';

export interface ModelPrice {
  /** US$ per million input tokens. */
  input: number;
  /** US$ per million output tokens (thinking tokens are billed as output). */
  output: number;
  /** The search fee: US$ per search `query` the platform ran, or per `request` that searched. */
  search?: { usd: number; per: 'query' | 'request' };
}

interface PlatformPrices {
  /** What a model not listed costs (the platform's default model, or a mid-range guess). */
  default: ModelPrice;
  models: Record<string, ModelPrice>;
}

const OPENAI_SEARCH = { usd: 10 / 1000, per: 'query' } as const;
const GEMINI_25_GROUNDING = { usd: 35 / 1000, per: 'request' } as const;
const GEMINI_3_GROUNDING = { usd: 14 / 1000, per: 'query' } as const;
const ANTHROPIC_SEARCH = { usd: 10 / 1000, per: 'query' } as const;
const SONAR_FEE = { usd: 5 / 1000, per: 'request' } as const;
const SONAR_PRO_FEE = { usd: 6 / 1000, per: 'request' } as const;

export const AI_PRICES: Record<AiPlatform, PlatformPrices> = {
  openai: {
    default: { input: 0.25, output: 2, search: OPENAI_SEARCH }, // gpt-5-mini, the default model
    models: {
      'gpt-5': { input: 1.25, output: 10, search: OPENAI_SEARCH },
      'gpt-5-mini': { input: 0.25, output: 2, search: OPENAI_SEARCH },
      'gpt-5-nano': { input: 0.05, output: 0.4, search: OPENAI_SEARCH },
      'gpt-4.1': { input: 2, output: 8, search: OPENAI_SEARCH },
      'gpt-4.1-mini': { input: 0.4, output: 1.6, search: OPENAI_SEARCH },
      'gpt-4o': { input: 2.5, output: 10, search: OPENAI_SEARCH },
      'gpt-4o-mini': { input: 0.15, output: 0.6, search: OPENAI_SEARCH },
      o3: { input: 2, output: 8, search: OPENAI_SEARCH },
      'o4-mini': { input: 1.1, output: 4.4, search: OPENAI_SEARCH },
    },
  },
  perplexity: {
    default: { input: 1, output: 1, search: SONAR_FEE }, // sonar, the default model
    models: {
      sonar: { input: 1, output: 1, search: SONAR_FEE },
      'sonar-pro': { input: 3, output: 15, search: SONAR_PRO_FEE },
      'sonar-reasoning': { input: 1, output: 5, search: SONAR_FEE },
      'sonar-reasoning-pro': { input: 2, output: 8, search: SONAR_PRO_FEE },
    },
  },
  gemini: {
    default: { input: 0.3, output: 2.5, search: GEMINI_25_GROUNDING }, // gemini-2.5-flash, the default model
    models: {
      'gemini-2.5-pro': { input: 1.25, output: 10, search: GEMINI_25_GROUNDING },
      'gemini-2.5-flash': { input: 0.3, output: 2.5, search: GEMINI_25_GROUNDING },
      'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, search: GEMINI_25_GROUNDING },
      'gemini-3-pro': { input: 2, output: 12, search: GEMINI_3_GROUNDING },
      'gemini-3-flash': { input: 0.5, output: 3, search: GEMINI_3_GROUNDING },
    },
  },
  anthropic: {
    default: { input: 3, output: 15, search: ANTHROPIC_SEARCH }, // Sonnet, the default model's family
    models: {
      'claude-sonnet-4': { input: 3, output: 15, search: ANTHROPIC_SEARCH },
      'claude-haiku-4': { input: 1, output: 5, search: ANTHROPIC_SEARCH },
      'claude-opus-4': { input: 15, output: 75, search: ANTHROPIC_SEARCH }, // Opus 4 and 4.1
      'claude-opus-4-5': { input: 5, output: 25, search: ANTHROPIC_SEARCH },
    },
  },
  // An endpoint of the instance's choosing (a self-hosted model costs what its machine costs): a
  // mid-range hosted model's prices, and no search fee (Beacon cannot switch search on there).
  openai_compatible: { default: { input: 1.25, output: 10 }, models: {} },
};

/** The price row of a platform's model: the longest listed prefix of its id, else the platform's default. */
export function priceOf(platform: AiPlatform, model: string): { price: ModelPrice; listed: boolean } {
  const table = AI_PRICES[platform];
  const id = model.toLowerCase();
  let best: string | undefined;
  for (const k of Object.keys(table.models))
    if ((id === k || id.startsWith(`${k}-`)) && (!best || k.length > best.length)) best = k;
  return best ? { price: table.models[best], listed: true } : { price: table.default, listed: false };
}

/**
 * The cost of one answer in US$: the platform's own figure when it gave one, otherwise tokens at the
 * model's prices plus the search fee (per search query the platform reported, or once per request
 * asked with search on). `estimated`: not the platform's figure; `listed`:
 * the model is in the table (false: the platform's default row was used).
 */
export function answerCostUsd(
  a: Pick<AiAnswer, 'platform' | 'model' | 'surface' | 'searchQueries' | 'usage' | 'costUsd'>,
): { usd: number; estimated: boolean; listed: boolean } {
  if (a.costUsd !== undefined && Number.isFinite(a.costUsd) && a.costUsd >= 0)
    return { usd: a.costUsd, estimated: false, listed: true };
  const { price, listed } = priceOf(a.platform, a.model);
  let usd = (a.usage.inputTokens * price.input + a.usage.outputTokens * price.output) / 1e6;
  if (price.search && a.surface === 'api_search')
    usd += price.search.usd * (price.search.per === 'query' ? a.searchQueries.length : 1);
  return { usd, estimated: true, listed };
}
