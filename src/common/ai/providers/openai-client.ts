import OpenAI from 'openai';

/**
 * The official `openai` client as every provider on OpenAI's wire format uses it: key and base URL
 * always explicit (the SDK must not pick OPENAI_* up from the environment), no retries and a
 * generous time limit of its own: both are AiCallPolicy's.
 */
export function openAiClient(apiKey: string, baseURL: string): OpenAI {
  return new OpenAI({ apiKey, baseURL, organization: null, project: null, maxRetries: 0, timeout: 10 * 60_000 });
}
