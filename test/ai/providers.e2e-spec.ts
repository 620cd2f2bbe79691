import { AiProviderError } from '../../src/common/ai/ai-provider-error';
import { AiProvidersService } from '../../src/common/ai/ai-providers.service';
import { loadConfig } from '../../src/common/config/env';
import * as compat from './fixtures/openai-compatible';
import { ProviderServer } from './provider-servers';

/**
 * Each provider through its vendor's real SDK against a loopback server answering in the vendor's
 * documented wire format: answer, citations, search queries, usage, surface, and the faults.
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

  const service = (env: Record<string, string>): AiProvidersService => new AiProvidersService(loadConfig({ LOG_LEVEL: 'silent', ...env }));
  const compatEnv = (): Record<string, string> => ({
    OPENAI_COMPATIBLE_BASE_URL: `${server.url}/v1`,
    OPENAI_COMPATIBLE_MODEL: 'llama-3.3-70b-instruct',
    OPENAI_COMPATIBLE_API_KEY: 'sk-local-test',
  });

  describe('OpenAI-compatible endpoint', () => {
    it('answers with text, model and usage on the plain surface', async () => {
      server.next({ json: compat.chatCompletion });
      const provider = (await service(compatEnv()).forWorkspace('w')).get('openai_compatible')!;
      const answer = await provider.ask({ prompt: 'Best project tracker?', webSearch: true });
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
      expect(server.last.body).toMatchObject({ model: 'llama-3.3-70b-instruct', messages: [{ role: 'user', content: 'Best project tracker?' }] });
    });

    it('keeps url_citation annotations (surface api_search) and drops a citation that is not a URL', async () => {
      server.next({ json: compat.chatCompletionWithCitations });
      const provider = (await service(compatEnv()).forWorkspace('w')).get('openai_compatible')!;
      const answer = await provider.ask({ prompt: 'p', webSearch: true, model: 'other-model' });
      expect(answer.surface).toBe('api_search');
      expect(answer.citations).toEqual([{ url: 'https://linear.app/', title: 'Linear' }]);
      expect(server.last.body.model).toBe('other-model');
    });

    it('says 401 is a bad key, without retrying', async () => {
      server.next({ status: 401, json: compat.invalidApiKey });
      const provider = (await service(compatEnv()).forWorkspace('w')).get('openai_compatible')!;
      const err = await provider.ask({ prompt: 'p', webSearch: false }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AiProviderError);
      expect(err).toMatchObject({ code: 'ai_unauthorized', status: 401, retryable: false });
      expect(server.requests).toHaveLength(1);
    });

    it('is not configured without a base URL and a model', async () => {
      expect((await service({}).forWorkspace('w')).has('openai_compatible')).toBe(false);
      const status = await service({ OPENAI_COMPATIBLE_BASE_URL: server.url }).status('w');
      expect(status.find((s) => s.platform === 'openai_compatible')).toMatchObject({ configured: false, keySource: null });
    });
  });
});
