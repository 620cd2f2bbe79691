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

type SearchFee = NonNullable<ModelPrice['search']>;

/** A model's US$ per million input and output tokens, and its search fee when not the platform's. */
type PriceRow = readonly [input: number, output: number, search?: SearchFee];

/** A platform's prices: its default row and its listed models, each with the platform's search fee (null: none) unless the row names its own. */
function platformPrices(fee: SearchFee | null, fallback: PriceRow, models: Record<string, PriceRow>): PlatformPrices {
  const price = ([input, output, search]: PriceRow): ModelPrice => {
    const s = search ?? fee;
    return { input, output, ...(s ? { search: s } : {}) };
  };
  return {
    default: price(fallback),
    models: Object.fromEntries(Object.entries(models).map(([id, row]) => [id, price(row)])),
  };
}

export const AI_PRICES: Record<AiPlatform, PlatformPrices> = {
  // gpt-5-mini, the default model
  openai: platformPrices(OPENAI_SEARCH, [0.25, 2], {
    'gpt-5': [1.25, 10],
    'gpt-5-mini': [0.25, 2],
    'gpt-5-nano': [0.05, 0.4],
    'gpt-4.1': [2, 8],
    'gpt-4.1-mini': [0.4, 1.6],
    'gpt-4o': [2.5, 10],
    'gpt-4o-mini': [0.15, 0.6],
    o3: [2, 8],
    'o4-mini': [1.1, 4.4],
  }),
  // sonar, the default model
  perplexity: platformPrices(SONAR_FEE, [1, 1], {
    sonar: [1, 1],
    'sonar-pro': [3, 15, SONAR_PRO_FEE],
    'sonar-reasoning': [1, 5],
    'sonar-reasoning-pro': [2, 8, SONAR_PRO_FEE],
  }),
  // gemini-2.5-flash, the default model
  gemini: platformPrices(GEMINI_25_GROUNDING, [0.3, 2.5], {
    'gemini-2.5-pro': [1.25, 10],
    'gemini-2.5-flash': [0.3, 2.5],
    'gemini-2.5-flash-lite': [0.1, 0.4],
    'gemini-3-pro': [2, 12, GEMINI_3_GROUNDING],
    'gemini-3-flash': [0.5, 3, GEMINI_3_GROUNDING],
  }),
  // Sonnet, the default model's family
  anthropic: platformPrices(ANTHROPIC_SEARCH, [3, 15], {
    'claude-sonnet-4': [3, 15],
    'claude-haiku-4': [1, 5],
    'claude-opus-4': [15, 75], // Opus 4 and 4.1
    'claude-opus-4-5': [5, 25],
  }),
  // An endpoint of the instance's choosing (a self-hosted model costs what its machine costs): a
  // mid-range hosted model's prices, and no search fee (Beacon cannot switch search on there).
  openai_compatible: platformPrices(null, [1.25, 10], {}),
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
