import { errorForStatus, retryAfterMs } from './ai-provider-error';
import { cleanCitations, cleanQueries } from './citations';

const headers = (h: Record<string, string>): { get(name: string): string | null } => ({
  get: (n) => h[n.toLowerCase()] ?? null,
});

describe('Retry-After', () => {
  it('reads delta-seconds, an HTTP date and retry-after-ms; ignores garbage', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 26 Nov 2026 12:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 26 Nov 2026 11:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
  });

  it('maps statuses to codes; only 429, 5xx and timeouts are retryable', () => {
    expect(errorForStatus('openai', 401, undefined)).toMatchObject({ code: 'ai_unauthorized', retryable: false });
    expect(errorForStatus('openai', 403, undefined)).toMatchObject({ code: 'ai_unauthorized' });
    expect(errorForStatus('gemini', 429, headers({ 'retry-after': '2' }))).toMatchObject({
      code: 'ai_rate_limited',
      retryAfterMs: 2000,
      retryable: true,
    });
    expect(errorForStatus('anthropic', 529, undefined)).toMatchObject({ code: 'ai_unavailable', retryable: true });
    expect(errorForStatus('perplexity', 400, undefined, 'model not found')).toMatchObject({
      code: 'ai_bad_response',
      retryable: false,
    });
  });
});

describe('citations', () => {
  it('keeps absolute http(s) URLs once, first title wins, empty titles left out', () => {
    expect(
      cleanCitations([
        { url: 'https://a.example/x', title: '' },
        { url: 'https://a.example/x', title: 'A' },
        { url: 'https://a.example/x', title: 'A2' },
        { url: 'ftp://a.example/' },
        { url: '/relative' },
        { url: 'javascript:alert(1)' },
        { url: 42 },
        { url: ' http://b.example ' },
      ]),
    ).toEqual([{ url: 'https://a.example/x', title: 'A' }, { url: 'http://b.example/' }]);
  });

  it('search queries: strings, trimmed, each once', () => {
    expect(cleanQueries([' a ', 'a', '', null, 'b'])).toEqual(['a', 'b']);
  });
});
