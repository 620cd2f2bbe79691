import { AiProvidersService } from '../../src/common/ai/ai-providers.service';
import { WorkspaceAiKeysService } from '../../src/common/ai/workspace-ai-keys.service';
import { AiTestApp, startAiTestApp } from '../utils/ai-test-app';
import type { TestApp } from '../utils/test-app';
import { WebClient } from '../web/web-client';
import * as anthropic from './fixtures/anthropic';
import * as openai from './fixtures/openai';
import { ProviderServer } from './provider-servers';

/**
 * Settings > AI providers over HTTP on the full app: which platforms are configured and by which
 * setting; an admin sets, replaces and removes the workspace's keys (sealed in the database, never
 * shown again, used by the providers at the next call); members read only.
 */
describe('Settings > AI providers (e2e)', () => {
  let world: AiTestApp;
  let t: TestApp;
  let server: ProviderServer;
  let admin: WebClient;
  let member: WebClient;
  let workspaceId: string;
  const PAGE = '/dashboard/settings/ai-providers';

  beforeAll(async () => {
    world = await startAiTestApp({
      env: (url) => ({
        OPENAI_API_KEY: 'sk-instance-openai',
        OPENAI_BASE_URL: `${url}/openai/v1`,
        ANTHROPIC_BASE_URL: `${url}/anthropic`,
      }),
      workspace: 'aiws',
      users: { admin: ['ai-admin@example.com'], member: ['ai-member@example.com'] },
    });
    ({ t, server } = world);
    const [a, m] = world.users;
    workspaceId = a.user.workspace_id;
    admin = a.client;
    member = m.client;
  }, 60_000);

  afterAll(async () => world?.close());

  const row = (text: string, name: string): string => {
    const m = new RegExp(`<tr[^>]*><th scope="row"[^>]*>${name}</th>([\\s\\S]*?)</tr>`).exec(text);
    if (!m) throw new Error(`no row for ${name}`);
    return m[1]
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, ' ')
      .trim();
  };
  const ask = async (platform: 'openai' | 'anthropic') =>
    (await t.app.get(AiProvidersService).forWorkspace(workspaceId)).get(platform);

  it('says which platforms are configured, by which setting, with the default model', async () => {
    const page = await admin.get(PAGE);
    expect(page.status).toBe(200);
    expect(row(page.text, 'OpenAI')).toBe('Configured The instance setting OPENAI_API_KEY gpt-5-mini OPENAI_API_KEY');
    expect(row(page.text, 'Anthropic')).toContain('Not configured None');
    expect(row(page.text, 'OpenAI-compatible endpoint')).toContain(
      'Not configured: the instance needs a base URL and a model',
    );
    expect(page.text).not.toContain('sk-instance-openai');
    expect(page.text).toContain('aria-current="page">AI providers');
  });

  it('an admin sets a key: stored sealed, never shown, used from the next call; replace and remove', async () => {
    await admin.get(PAGE);
    const saved = await admin.post(`${PAGE}/anthropic/key`, { key: ' sk-ant-workspace-secret-1 ' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${PAGE}?saved=anthropic`);
    const page = await admin.get(saved.location!);
    expect(page.text).toContain('The Anthropic key of this workspace is saved.');
    expect(row(page.text, 'Anthropic')).toMatch(
      /^Configured This workspace's key, set \d{4}-\d\d-\d\d \d\d:\d\d UTC by ai-admin@example\.com claude-sonnet-4-6/,
    );
    expect(page.text).not.toContain('sk-ant-workspace-secret-1');
    expect(page.text).toContain('Replace the key');
    const rows = await t.dataSource.query<Array<{ sealed: string }>>(
      'SELECT sealed FROM workspace_ai_keys WHERE workspace_id = $1',
      [workspaceId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].sealed).toMatch(/^v1\./);
    expect(rows[0].sealed).not.toContain('sk-ant-workspace-secret-1');

    server.next({ json: anthropic.plainAnswer });
    await (await ask('anthropic'))!.ask({ prompt: 'p', webSearch: false });
    expect(JSON.stringify(server.last.headers)).toContain('sk-ant-workspace-secret-1');

    // Replace: the new key is used at once.
    await admin.get(PAGE);
    expect((await admin.post(`${PAGE}/anthropic/key`, { key: 'sk-ant-workspace-secret-2' })).status).toBe(303);
    server.next({ json: anthropic.plainAnswer });
    await (await ask('anthropic'))!.ask({ prompt: 'p', webSearch: false });
    expect(JSON.stringify(server.last.headers)).toContain('sk-ant-workspace-secret-2');

    // Remove: the platform is no longer configured (the instance has no Anthropic key).
    await admin.get(PAGE);
    const removed = await admin.post(`${PAGE}/anthropic/remove`);
    expect(removed.location).toBe(`${PAGE}?removed=anthropic`);
    expect((await admin.get(removed.location!)).text).toContain('The Anthropic key of this workspace is removed.');
    expect(row(admin.lastPage, 'Anthropic')).toContain('Not configured None');
    expect(await ask('anthropic')).toBeUndefined();
  });

  it("a workspace key wins over the instance's; removing it brings the instance's back", async () => {
    await admin.get(PAGE);
    await admin.post(`${PAGE}/openai/key`, { key: 'sk-workspace-openai' });
    server.next({ json: openai.responsePlain });
    await (await ask('openai'))!.ask({ prompt: 'p', webSearch: false });
    expect(server.last.headers.authorization).toBe('Bearer sk-workspace-openai');
    // A stored key that no longer opens: listed as unreadable, not used.
    const keys = t.app.get(WorkspaceAiKeysService);
    expect((await keys.info(workspaceId)).get('openai')).toMatchObject({ readable: true });
    const [{ sealed }] = await t.dataSource.query<{ sealed: string }[]>(
      `SELECT sealed FROM workspace_ai_keys WHERE workspace_id = $1 AND platform = 'openai'`,
      [workspaceId],
    );
    await t.dataSource.query(
      `UPDATE workspace_ai_keys SET sealed = $1 WHERE workspace_id = $2 AND platform = 'openai'`,
      [`${sealed}x`, workspaceId],
    );
    expect((await keys.info(workspaceId)).get('openai')).toMatchObject({ readable: false });
    expect((await keys.keys(workspaceId)).has('openai')).toBe(false);
    await admin.get(PAGE);
    await admin.post(`${PAGE}/openai/remove`);
    server.next({ json: openai.responsePlain });
    await (await ask('openai'))!.ask({ prompt: 'p', webSearch: false });
    expect(server.last.headers.authorization).toBe('Bearer sk-instance-openai');
  });

  it('refuses an empty key or one with spaces, naming the field; an unknown platform is 404', async () => {
    await admin.get(PAGE);
    const empty = await admin.post(`${PAGE}/gemini/key`, { key: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('<a href="#key-gemini">Google Gemini: Paste the key: the field is empty.</a>');
    const spaced = await admin.post(`${PAGE}/gemini/key`, { key: 'two words' });
    expect(spaced.status).toBe(400);
    expect(spaced.text).not.toContain('two words');
    expect((await admin.post(`${PAGE}/nope/key`, { key: 'k' })).status).toBe(404);
    expect(
      await t.dataSource.query('SELECT platform FROM workspace_ai_keys WHERE workspace_id = $1', [workspaceId]),
    ).toEqual([]);
  });

  it('members read the page without forms and cannot set or remove keys; a POST without the CSRF token is refused', async () => {
    const page = await member.get(PAGE);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(`${PAGE}/openai/key`);
    expect(page.text).toContain('an admin sets its keys');
    expect((await member.post(`${PAGE}/openai/key`, { key: 'sk-member' })).status).toBe(403);
    expect((await member.post(`${PAGE}/openai/remove`)).status).toBe(403);
    expect((await admin.request('POST', `${PAGE}/openai/key`, { form: { key: 'sk-no-csrf' } })).status).toBe(403);
    expect(
      await t.dataSource.query('SELECT platform FROM workspace_ai_keys WHERE workspace_id = $1', [workspaceId]),
    ).toEqual([]);
  });
});
