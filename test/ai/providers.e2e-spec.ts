import { AiProviderError } from '../../src/common/ai/ai-provider-error';
import { AiProvidersService } from '../../src/common/ai/ai-providers.service';
import type { AiAnswer, AiPlatform, AiProvider } from '../../src/common/ai/ai.types';
import { loadConfig } from '../../src/common/config/env';
import * as anthropic from './fixtures/anthropic';
import * as gemini from './fixtures/gemini';
import * as compat from './fixtures/openai-compatible';
import * as openai from './fixtures/openai';
import * as perplexity from './fixtures/perplexity';
import { platformEnv, ProviderServer } from './provider-servers';

/**
 * Each provider through its vendor's real SDK against a loopback server answering in the vendor's
 * documented wire format (test/ai/fixtures): answer, citations, search queries, usage, surface;
 * then the faults, through the call policy every provider returned by AiProvidersService runs in.
 * Tiny backoffs and time limits keep it fast.
 */
describe('AI providers against local vendor servers', () => {
  let server: ProviderServer;

  beforeAll(async () => {
    server = await ProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => server.reset());

  const env = (): Record<string, string> => ({
    LOG_LEVEL: 'silent',
    ...platformEnv(server.url),
    GEMINI_API_KEY: 'gemini-test-key',
    GEMINI_BASE_URL: `${server.url}/gemini`,
    OPENAI_COMPATIBLE_BASE_URL: `${server.url}/v1`,
    OPENAI_COMPATIBLE_MODEL: 'llama-3.3-70b-instruct',
    OPENAI_COMPATIBLE_API_KEY: 'sk-local-test',
    AI_RETRY_BASE_MS: '5',
    AI_RETRY_MAX_MS: '1500',
    AI_MAX_RETRIES: '2',
    AI_TIMEOUT_MS: '400',
  });
  const provider = async (platform: AiPlatform, extra: Record<string, string> = {}): Promise<AiProvider> =>
    (await new AiProvidersService(loadConfig({ ...env(), ...extra })).forWorkspace('w')).get(platform)!;
  /** The question 'p' to `platform`, with or without web search. */
  const ask = async (platform: AiPlatform, webSearch: boolean, extra: Record<string, string> = {}): Promise<AiAnswer> =>
    (await provider(platform, extra)).ask({ prompt: 'p', webSearch });
  /** A question without web search answered by `body`: surface api, no citations or queries, no tools asked for. */
  const expectPlain = async (platform: AiPlatform, body: unknown, usage: AiAnswer['usage']): Promise<void> => {
    server.next({ json: body });
    expect(await ask(platform, false)).toMatchObject({ surface: 'api', citations: [], searchQueries: [], usage });
    expect(server.last.body.tools).toBeUndefined();
  };
  const failure = async (p: Promise<AiAnswer | AiProvider>): Promise<AiProviderError> => {
    const e = await p.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(AiProviderError);
    return e as AiProviderError;
  };

  describe('OpenAI (Responses API, web_search tool)', () => {
    it('returns the text, url_citation annotations (each URL once), the queries it ran and usage on api_search', async () => {
      server.next({ json: openai.responseWithWebSearch });
      const answer = await (
        await provider('openai')
      ).ask({ prompt: 'Best project tracker for a startup?', webSearch: true, country: 'US' });
      expect(answer).toEqual({
        platform: 'openai',
        model: 'gpt-5-mini-2025-08-07',
        surface: 'api_search',
        text: openai.responseWithWebSearch.output[2].content![0].text,
        citations: [
          { url: 'https://linear.app/?utm_source=openai', title: 'Linear – Plan and build products' },
          {
            url: 'https://www.atlassian.com/software/jira?utm_source=openai',
            title: 'Jira | Issue & Project Tracking Software',
          },
        ],
        searchQueries: ['best project tracking tool for startups', 'linear vs jira 2025'],
        usage: { inputTokens: 328, outputTokens: 356 },
      });
      expect(server.last.path).toBe('/openai/v1/responses');
      expect(server.last.headers.authorization).toBe('Bearer sk-test-openai');
      expect(server.last.body).toMatchObject({
        model: 'gpt-5-mini',
        input: 'Best project tracker for a startup?',
        tools: [{ type: 'web_search', user_location: { type: 'approximate', country: 'US' } }],
      });
    });

    it('asks without tools on the plain surface', () =>
      expectPlain('openai', openai.responsePlain, { inputTokens: 36, outputTokens: 87 }));

    it('401: ai_unauthorized, not retried, the key not in the message', async () => {
      server.next({ status: 401, json: openai.invalidApiKey });
      const e = await failure(ask('openai', true));
      expect(e).toMatchObject({ code: 'ai_unauthorized', status: 401 });
      expect(e.message).not.toContain('sk-test-openai');
      expect(e.message).not.toContain('sk-bad'); // OpenAI quotes part of the key it refused: left out
      expect(server.requests).toHaveLength(1);
    });

    it('429 with Retry-After: waits that long, then answers', async () => {
      server.next(
        { status: 429, headers: { 'retry-after': '1' }, json: openai.rateLimited },
        { json: openai.responsePlain },
      );
      const started = Date.now();
      const answer = await ask('openai', false);
      expect(answer.text).toBe('Linear, Jira and Asana are common choices.');
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(server.requests).toHaveLength(2);
    });

    it('429 without Retry-After: backs off and tries again', async () => {
      server.next(
        { status: 429, json: openai.rateLimited },
        { status: 429, json: openai.rateLimited },
        { json: openai.responsePlain },
      );
      const answer = await ask('openai', false);
      expect(answer.surface).toBe('api');
      expect(server.requests).toHaveLength(3);
    });

    it('429 asking to wait longer than AI_RETRY_MAX_MS: fails at once with the wait in the message', async () => {
      server.next({ status: 429, headers: { 'retry-after': '3600' }, json: openai.rateLimited });
      const e = await failure(ask('openai', false));
      expect(e).toMatchObject({ code: 'ai_rate_limited', retryAfterMs: 3_600_000 });
      expect(e.message).toContain('3600 s');
      expect(server.requests).toHaveLength(1);
    });

    it('500 on every attempt: ai_unavailable after AI_MAX_RETRIES further attempts', async () => {
      server.next(...[1, 2, 3, 4].map(() => ({ status: 500, json: openai.serverError })));
      const e = await failure(ask('openai', true));
      expect(e).toMatchObject({ code: 'ai_unavailable', status: 500 });
      expect(server.requests).toHaveLength(3);
    });

    it('a platform slower than AI_TIMEOUT_MS: ai_timeout', async () => {
      server.next({ hangMs: 5000, json: openai.responsePlain });
      const e = await failure(ask('openai', false, { AI_MAX_RETRIES: '0' }));
      expect(e.code).toBe('ai_timeout');
      expect(e.message).toContain('0.4 s');
    });

    it('malformed JSON: ai_bad_response, not retried', async () => {
      server.next({ raw: '{"id": "resp_1", "output": [' });
      const e = await failure(ask('openai', false));
      expect(e.code).toBe('ai_bad_response');
      expect(server.requests).toHaveLength(1);
    });

    it('an answer with no text: ai_bad_response', async () => {
      server.next({ json: openai.responseNoText });
      const e = await failure(ask('openai', true));
      expect(e).toMatchObject({ code: 'ai_bad_response', message: 'OpenAI gave an answer with no text.' });
    });

    it('a handler answers by path when nothing is queued (as a scan test or a benchmark would use it)', async () => {
      server.handler = (req) =>
        req.path.startsWith('/openai/') ? { json: openai.responsePlain, hangMs: 20 } : undefined;
      const answers = await Promise.all([1, 2, 3].map(async () => ask('openai', false)));
      expect(answers.map((a) => a.platform)).toEqual(['openai', 'openai', 'openai']);
    });

    it('AI_CONCURRENCY=1: a second call waits for the first', async () => {
      server.next({ hangMs: 150, json: openai.responsePlain }, { json: openai.responsePlain });
      const p = await provider('openai', { AI_CONCURRENCY: '1' });
      const first = p.ask({ prompt: 'one', webSearch: false });
      const second = p.ask({ prompt: 'two', webSearch: false });
      await new Promise((r) => setTimeout(r, 60));
      expect(server.requests).toHaveLength(1);
      await Promise.all([first, second]);
      expect(server.requests.map((r) => r.body.input)).toEqual(['one', 'two']);
    });
  });

  describe('Perplexity (Sonar chat completions)', () => {
    it('returns search_results with titles and citations (URLs only, a non-URL dropped), usage and its cost', async () => {
      server.next({ json: perplexity.sonarAnswer });
      const answer = await (
        await provider('perplexity')
      ).ask({ prompt: 'Best project tracker?', webSearch: true, country: 'DE' });
      expect(answer).toEqual({
        platform: 'perplexity',
        model: 'sonar',
        surface: 'api_search',
        text: perplexity.sonarAnswer.choices[0].message.content,
        citations: [
          { url: 'https://linear.app/', title: 'Linear – Plan and build products' },
          { url: 'https://www.atlassian.com/software/jira', title: 'Jira | Issue & Project Tracking Software' },
          { url: 'https://www.notion.com/product/projects' },
        ],
        searchQueries: [],
        usage: { inputTokens: 8, outputTokens: 218 },
        costUsd: 0.005226,
      });
      expect(server.last.path).toBe('/perplexity/chat/completions');
      expect(server.last.headers.authorization).toBe('Bearer pplx-test');
      expect(server.last.body).toMatchObject({
        model: 'sonar',
        web_search_options: { user_location: { country: 'DE' } },
      });
      expect(server.last.body.disable_search).toBeUndefined();
    });

    it('without web search: disable_search, surface api, empty citation lists', async () => {
      server.next({ json: perplexity.sonarWithoutSearch });
      const answer = await ask('perplexity', false);
      expect(answer).toMatchObject({ surface: 'api', citations: [], costUsd: 0.000048 });
      expect(server.last.body.disable_search).toBe(true);
    });

    it('leaves out the <think> reasoning of Sonar reasoning models', async () => {
      server.next({ json: perplexity.sonarReasoningAnswer });
      const answer = await (
        await provider('perplexity')
      ).ask({ prompt: 'p', webSearch: true, model: 'sonar-reasoning-pro' });
      expect(answer).toMatchObject({
        model: 'sonar-reasoning-pro',
        text: 'Linear suits startups [1]; Jira suits large companies [2].',
      });
    });

    it('401 and 429 in its error format', async () => {
      server.next({ status: 401, json: perplexity.invalidApiKey });
      expect(await failure(ask('perplexity', true))).toMatchObject({
        code: 'ai_unauthorized',
      });
      server.next(...[1, 2, 3].map(() => ({ status: 429, json: perplexity.rateLimited })));
      const e = await failure(ask('perplexity', true));
      expect(e).toMatchObject({ code: 'ai_rate_limited', status: 429 });
      expect(e.message).toContain('Rate limit exceeded');
    });
  });

  describe('Google Gemini (generateContent, Google Search grounding)', () => {
    it("only reads redirect links on Google's redirect host or the configured Gemini address", async () => {
      const elsewhere = await ProviderServer.start();
      try {
        server.next({ json: gemini.groundedAnswer(elsewhere.url) });
        const answer = await ask('gemini', true);
        expect(answer.citations.map((c) => c.url)).toEqual(
          Object.values(gemini.REDIRECTS).map((p) => `${elsewhere.url}${p}`),
        );
        expect(elsewhere.requests).toEqual([]);
      } finally {
        await elsewhere.close();
      }
    });

    it('returns the text, the web search queries and grounding chunks resolved past their redirect links', async () => {
      server.redirects.set(gemini.REDIRECTS.linear, 'https://linear.app/');
      server.redirects.set(gemini.REDIRECTS.jira, 'https://www.atlassian.com/software/jira');
      server.next({ json: gemini.groundedAnswer(server.url) });
      const answer = await (
        await provider('gemini')
      ).ask({ prompt: 'Best project tracker?', webSearch: true, country: 'US' });
      expect(answer).toEqual({
        platform: 'gemini',
        model: 'gemini-2.5-flash',
        surface: 'api_search',
        text: 'Startups often pick Linear for its speed, while larger companies standardise on Jira.',
        citations: [
          { url: 'https://linear.app/', title: 'linear.app' },
          { url: 'https://www.atlassian.com/software/jira', title: 'atlassian.com' },
          // A redirect that does not resolve is kept as given, with the domain Google put in its title.
          { url: `${server.url}${gemini.REDIRECTS.broken}`, title: 'example.org' },
        ],
        searchQueries: ['best project tracking tool for startups', 'linear vs jira'],
        usage: { inputTokens: 9, outputTokens: 144 },
      });
      const call = server.requests.find((r) => r.path.includes(':generateContent'))!;
      expect(call.path).toBe('/gemini/v1beta/models/gemini-2.5-flash:generateContent');
      expect(call.headers['x-goog-api-key']).toBe('gemini-test-key');
      expect(call.body.tools).toEqual([{ googleSearch: {} }]);
    });

    it('without grounding: surface api, no tools', () =>
      expectPlain('gemini', gemini.plainAnswer, { inputTokens: 9, outputTokens: 7 }));

    it("a bad key (Google's 400 API_KEY_INVALID) is ai_unauthorized; a blocked answer has no text", async () => {
      server.next({ status: 400, json: gemini.invalidApiKey });
      expect(await failure(ask('gemini', true))).toMatchObject({
        code: 'ai_unauthorized',
      });
      server.next({ json: gemini.noText });
      const e = await failure(ask('gemini', true));
      expect(e).toMatchObject({ code: 'ai_bad_response' });
      expect(e.message).toContain('SAFETY');
    });

    it('429 RESOURCE_EXHAUSTED: the RetryInfo delay of its body is honoured; 503 retried', async () => {
      server.next(
        { status: 429, json: gemini.rateLimited },
        { status: 503, json: gemini.unavailable },
        { json: gemini.plainAnswer },
      );
      const started = Date.now();
      const answer = await ask('gemini', false);
      expect(answer.text).toBe('Linear, Jira and Asana.');
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(server.requests).toHaveLength(3);
    });
  });

  describe('Anthropic (Messages, web search tool)', () => {
    it('returns the answer after the searches, web_search_result_location citations and the queries', async () => {
      server.next({ json: anthropic.webSearchAnswer });
      const answer = await (
        await provider('anthropic')
      ).ask({ prompt: 'Best project tracker?', webSearch: true, country: 'GB' });
      expect(answer).toEqual({
        platform: 'anthropic',
        model: 'claude-sonnet-4-6',
        surface: 'api_search',
        text: 'Based on the search results, Linear is popular with startups for its speed, and Jira stays common in large companies.',
        citations: [{ url: 'https://linear.app/', title: 'Linear – Plan and build products' }],
        searchQueries: ['best project tracking tool startups', 'jira enterprise market share'],
        usage: { inputTokens: 6039, outputTokens: 931 },
      });
      expect(server.last.path).toBe('/anthropic/v1/messages');
      // This SDK version sends the key as a bearer token (older ones as x-api-key).
      expect(server.last.headers['x-api-key'] ?? server.last.headers.authorization).toMatch(/^(Bearer )?sk-ant-test$/);
      expect(server.last.body).toMatchObject({
        model: 'claude-sonnet-4-6',
        tools: [
          { type: 'web_search_20250305', name: 'web_search', user_location: { type: 'approximate', country: 'GB' } },
        ],
      });
    });

    it('plain: surface api; no text: ai_bad_response', async () => {
      server.next({ json: anthropic.plainAnswer }, { json: anthropic.noText });
      const p = await provider('anthropic');
      expect(await p.ask({ prompt: 'p', webSearch: false })).toMatchObject({
        surface: 'api',
        text: 'Linear, Jira and Asana are common choices.',
        citations: [],
      });
      expect(server.requests[0].body.tools).toBeUndefined();
      expect(await failure(p.ask({ prompt: 'p', webSearch: false }))).toMatchObject({ code: 'ai_bad_response' });
    });

    it('401, then 429 with Retry-After: 0 and 529 overloaded retried', async () => {
      server.next({ status: 401, json: anthropic.invalidApiKey });
      expect(await failure(ask('anthropic', true))).toMatchObject({
        code: 'ai_unauthorized',
        status: 401,
      });
      server.reset();
      server.next(
        { status: 429, headers: { 'retry-after': '0' }, json: anthropic.rateLimited },
        { status: 529, json: anthropic.overloaded },
        { json: anthropic.plainAnswer },
      );
      expect(await ask('anthropic', false)).toMatchObject({
        platform: 'anthropic',
      });
      expect(server.requests).toHaveLength(3);
    });
  });

  describe('OpenAI-compatible endpoint', () => {
    it('answers with text, model and usage on the plain surface', async () => {
      server.next({ json: compat.chatCompletion });
      const answer = await (
        await provider('openai_compatible')
      ).ask({ prompt: 'Best project tracker?', webSearch: true });
      expect(answer).toEqual({
        platform: 'openai_compatible',
        model: 'llama-3.3-70b-instruct',
        surface: 'api',
        text: 'For project tracking, teams often pick Linear, Jira or Asana.',
        citations: [],
        searchQueries: [],
        usage: { inputTokens: 19, outputTokens: 10 },
      });
      expect(server.last.path).toBe('/v1/chat/completions');
      expect(server.last.headers.authorization).toBe('Bearer sk-local-test');
      expect(server.last.body).toMatchObject({
        model: 'llama-3.3-70b-instruct',
        messages: [{ role: 'user', content: 'Best project tracker?' }],
      });
    });

    it('keeps url_citation annotations (surface api_search) and drops a citation that is not a URL', async () => {
      server.next({ json: compat.chatCompletionWithCitations });
      const answer = await (
        await provider('openai_compatible')
      ).ask({ prompt: 'p', webSearch: true, model: 'other-model' });
      expect(answer.surface).toBe('api_search');
      expect(answer.citations).toEqual([{ url: 'https://linear.app/', title: 'Linear' }]);
      expect(server.last.body.model).toBe('other-model');
    });

    it('says 401 is a bad key, without retrying; an HTML page is ai_bad_response', async () => {
      server.next({ status: 401, json: compat.invalidApiKey });
      expect(await failure(ask('openai_compatible', false))).toMatchObject({ code: 'ai_unauthorized', status: 401 });
      expect(server.requests).toHaveLength(1);
      server.next({ raw: '<html><body>Bad gateway login</body></html>', headers: { 'content-type': 'text/html' } });
      expect(await failure(ask('openai_compatible', false))).toMatchObject({ code: 'ai_bad_response' });
    });
  });

  describe('which platforms are configured', () => {
    it('a platform without its key (or the compatible endpoint without base URL and model) is not offered', async () => {
      const none = new AiProvidersService(loadConfig({ LOG_LEVEL: 'silent' }));
      expect([...(await none.forWorkspace('w')).keys()]).toEqual([]);
      expect(await failure(none.provider('w', 'anthropic'))).toMatchObject({
        code: 'ai_not_configured',
        message:
          'Anthropic is not configured: set ANTHROPIC_API_KEY on the instance, or a key for this workspace in Settings > AI providers.',
      });
      const status = await new AiProvidersService(
        loadConfig({ LOG_LEVEL: 'silent', GEMINI_API_KEY: 'g', OPENAI_COMPATIBLE_BASE_URL: server.url }),
      ).status('w');
      expect(status.find((s) => s.platform === 'gemini')).toMatchObject({
        configured: true,
        keySource: 'settings',
        setting: 'GEMINI_API_KEY',
      });
      expect(status.find((s) => s.platform === 'openai_compatible')).toMatchObject({
        configured: false,
        keySource: null,
      });
      expect(status.find((s) => s.platform === 'openai')).toMatchObject({
        configured: false,
        keySource: null,
        model: 'gpt-5-mini',
      });
    });
  });
});
