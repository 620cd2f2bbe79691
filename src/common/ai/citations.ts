import type { AiAnswer, AiAskRequest, AiCitation, AiPlatform } from './ai.types';

/**
 * Citations as Beacon keeps them: absolute http(s) URLs only (anything else is dropped, not
 * guessed at), the first occurrence of each URL, a title only when the platform gave a non-empty one.
 */
export function cleanCitations(raw: Array<{ url?: unknown; title?: unknown }>): AiCitation[] {
  const seen = new Map<string, AiCitation>();
  for (const c of raw) {
    if (typeof c.url !== 'string') continue;
    let url: URL;
    try {
      url = new URL(c.url.trim());
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const key = url.toString();
    const title = typeof c.title === 'string' && c.title.trim() !== '' ? c.title.trim() : undefined;
    const known = seen.get(key);
    if (!known) seen.set(key, title ? { url: key, title } : { url: key });
    else if (!known.title && title) known.title = title;
  }
  return [...seen.values()];
}

/** Distinct, non-empty search queries in the order the platform ran them. */
export function cleanQueries(raw: unknown[]): string[] {
  const out: string[] = [];
  for (const q of raw) {
    if (typeof q !== 'string') continue;
    const t = q.trim();
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

/** A non-negative integer token count, 0 when the platform did not say. */
export function tokens(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0;
}

/**
 * The answer of a provider that searches when asked (OpenAI, Anthropic, Gemini): the model the
 * vendor reports (else the one requested), `api_search` when web search was asked for, the raw
 * citations and queries cleaned.
 */
export function searchedAnswer(
  platform: AiPlatform,
  req: Pick<AiAskRequest, 'webSearch'>,
  o: {
    /** The model the vendor reports (used when a non-empty string). */
    model: unknown;
    /** The model asked for. */
    requested: string;
    text: string;
    citations: Array<{ url?: unknown; title?: unknown }>;
    queries: unknown[];
    usage: AiAnswer['usage'];
  },
): AiAnswer {
  return {
    platform,
    model: typeof o.model === 'string' && o.model ? o.model : o.requested,
    surface: req.webSearch ? 'api_search' : 'api',
    text: o.text,
    citations: cleanCitations(o.citations),
    searchQueries: cleanQueries(o.queries),
    usage: o.usage,
  };
}
