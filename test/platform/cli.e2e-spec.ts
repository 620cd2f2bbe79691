import { CLI_TEST_TIMEOUT_MS, CliTestEnv, createCliTestEnv, runCliCaptured } from '../utils/cli';

jest.setTimeout(CLI_TEST_TIMEOUT_MS);

/** Admin CLI commands end to end, in-process, against a real database of their own. */
/* eslint-disable @typescript-eslint/no-explicit-any -- parsed CLI JSON is checked field by field */
describe('Admin CLI (e2e)', () => {
  let cli: CliTestEnv;
  beforeAll(async () => {
    cli = await createCliTestEnv();
  });
  afterAll(async () => cli.drop());

  const run = (...argv: string[]) => runCliCaptured(cli.env, ...argv);
  const json = async (...argv: string[]): Promise<{ code: number; body: Record<string, any> }> => {
    const r = await run(...argv, '--json');
    return { code: r.code, body: JSON.parse(r.out) };
  };

  it('workspace:create and workspace:list', async () => {
    expect(await json('workspace:create', 'acme', '--name', 'Acme Inc')).toMatchObject({
      code: 0,
      body: { slug: 'acme', name: 'Acme Inc' },
    });
    const human = await run('workspace:create', 'globex');
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/Created workspace globex/);
    const listed = await json('workspace:list');
    expect(listed.body.workspaces.map((w: { slug: string }) => w.slug)).toEqual(['acme', 'globex']);
  });

  it('duplicate slug and unknown workspace fail with a clear message and a non-zero exit', async () => {
    const dupe = await json('workspace:create', 'acme');
    expect(dupe).toEqual({
      code: 1,
      body: { ok: false, error: 'conflict', message: 'Workspace "acme" already exists.' },
    });
    const unknown = await run('key:create', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/Unknown workspace "nobody"/);
    expect(unknown.out).toBe('');
  });

  it('key:create prints the key once; key:list shows it without the key; key:revoke revokes', async () => {
    const created = await json('key:create', 'acme', '--label', 'reporting');
    expect(created.code).toBe(0);
    expect(Object.keys(created.body).sort()).toEqual(['id', 'key', 'prefix', 'workspace']);
    expect(created.body.workspace).toBe('acme');
    const human = await run('key:create', 'acme');
    expect(human.out).toMatch(/bcn_[0-9A-Za-z]{38}/);
    expect(human.out).toMatch(/only time the full key is shown/);

    const listed = await json('key:list', 'acme');
    expect(listed.body.keys).toHaveLength(2);
    expect(listed.body.keys[0]).toMatchObject({
      id: created.body.id,
      label: 'reporting',
      prefix: created.body.prefix,
      revoked: false,
      last_used_at: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    const revoked = await json('key:revoke', created.body.id);
    expect(revoked.code).toBe(0);
    expect(revoked.body.id).toBe(created.body.id);
    const after = await json('key:list', 'acme');
    expect(after.body.keys[0]).toMatchObject({ revoked: true, revoked_at: revoked.body.revoked_at });
    const table = await run('key:list', 'acme');
    expect(table.out).toMatch(/^id\s+label\s+prefix\s+created_at\s+last_used_at\s+revoked/);
  });

  it('usage errors exit 2; unknown key ids exit 1', async () => {
    expect((await run('key:create')).code).toBe(1); // missing <workspace-slug>
    expect((await run('nonsense')).code).toBe(2);
    expect((await run('key:create', 'acme', '--bogus')).code).toBe(2);
    expect((await run()).code).toBe(2);
    const help = await run('help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/key:revoke <key-id>/);
    const missing = await json('key:revoke', '00000000-0000-4000-8000-000000000000');
    expect(missing).toMatchObject({ code: 1, body: { ok: false, error: 'not_found' } });
  });

  it('migration:run reports an up-to-date database', async () => {
    const r = await json('migration:run');
    expect(r.code).toBe(0);
    expect(r.body.applied).toEqual([]);
  });
});
