import OpenAI from 'openai';
import type { AiAskRequest } from '../ai.types';

/**
 * The official `openai` client as every provider on OpenAI's wire format uses it: key and base URL
 * always explicit (the SDK must not pick OPENAI_* up from the environment), no retries and a
 * generous time limit of its own: both are AiCallPolicy's.
 */
export function openAiClient(apiKey: string, baseURL: string): OpenAI {
  return new OpenAI({ apiKey, baseURL, organization: null, project: null, maxRetries: 0, timeout: 10 * 60_000 });
}

/** The settings of a provider on OpenAI's wire format: its key, base URL and default model. */
export interface OpenAiWireOptions {
  apiKey: string;
  baseURL: string;
  model: string;
}

/** What the providers on OpenAI's wire format share: the client their settings make, and the model a call asks. */
export abstract class OpenAiWireProvider {
  protected readonly client: OpenAI;

  constructor(private readonly options: OpenAiWireOptions) {
    this.client = openAiClient(options.apiKey, options.baseURL);
  }

  /** The model the request names, else the provider's default. */
  protected modelOf(req: AiAskRequest): string {
    return req.model ?? this.options.model;
  }
}
