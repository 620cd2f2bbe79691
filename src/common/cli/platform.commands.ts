import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKeysService, ApiKeyView, CreatedApiKey, WorkspaceView } from '../api-keys/api-keys.service';
import { DatabaseRuntime } from '../database/database-runtime';
import { DomainError } from '../errors/domain-error';
import { CliArgs, CliCommand } from './cli-command';

function positional(args: CliArgs, index: number, name: string): string {
  const v = args.positionals[index];
  if (!v) throw DomainError.badRequest(`Missing argument <${name}>.`, name);
  return v;
}

function optionalString(args: CliArgs, name: string): string | undefined {
  const v = args.options[name];
  return typeof v === 'string' ? v : undefined;
}

/** Renders rows as aligned columns. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const text = (v: unknown): string => {
    if (v === null || v === undefined) return '-';
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return JSON.stringify(v);
  };
  const cells = rows.map((r) => columns.map((c) => text(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]): string =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

const keys = (app: INestApplicationContext): ApiKeysService => app.get(ApiKeysService);

const workspaceCreate: CliCommand<WorkspaceView> = {
  name: 'workspace:create',
  usage: 'workspace:create <slug> [--name "Display name"] [--json]',
  description: 'Create a workspace (a tenant: its keys see only its data).',
  valueOptions: ['name'],
  run: (app, args) => keys(app).createWorkspace(positional(args, 0, 'slug'), optionalString(args, 'name')),
  human: (w) => `Created workspace ${w.slug} ("${w.name}"), id ${w.id}`,
};

const workspaceList: CliCommand<{ workspaces: WorkspaceView[] }> = {
  name: 'workspace:list',
  usage: 'workspace:list [--json]',
  description: 'List workspaces.',
  run: async (app) => ({ workspaces: await keys(app).listWorkspaces() }),
  human: (r) => table(r.workspaces as unknown as Array<Record<string, unknown>>, ['slug', 'name', 'id', 'created_at']),
};

const keyCreate: CliCommand<CreatedApiKey> = {
  name: 'key:create',
  usage: 'key:create <workspace-slug> [--label "..."] [--json]',
  description: 'Create an API key. The full key is printed once and never stored: copy it now.',
  valueOptions: ['label'],
  run: (app, args) => keys(app).createKey(positional(args, 0, 'workspace-slug'), optionalString(args, 'label')),
  human: (k) =>
    [
      `API key for workspace ${k.workspace} (id ${k.id}):`,
      '',
      `  ${k.key}`,
      '',
      'This is the only time the full key is shown: only its SHA-256 hash is stored.',
    ].join('\n'),
};

const keyList: CliCommand<{ keys: ApiKeyView[] }> = {
  name: 'key:list',
  usage: 'key:list <workspace-slug> [--json]',
  description: 'List the keys of a workspace (id, label, prefix, created, last used, revoked).',
  run: async (app, args) => ({ keys: await keys(app).listKeys(positional(args, 0, 'workspace-slug')) }),
  human: (r) =>
    table(
      r.keys.map((k) => ({ ...k, revoked: k.revoked ? `yes (${k.revoked_at})` : 'no' })),
      ['id', 'label', 'prefix', 'created_at', 'last_used_at', 'revoked'],
    ),
};

const keyRevoke: CliCommand<{ id: string; revoked_at: string }> = {
  name: 'key:revoke',
  usage: 'key:revoke <key-id> [--json]',
  description: 'Revoke a key; the next request with it gets 401, on every instance.',
  run: (app, args) => keys(app).revokeKey(positional(args, 0, 'key-id')),
  human: (r) => `Revoked key ${r.id} at ${r.revoked_at}`,
};

const migrationRun: CliCommand<{ applied: string[]; database: string }> = {
  name: 'migration:run',
  usage: 'migration:run [--json]',
  description: 'Apply pending database migrations (the server also does this at start-up).',
  run: async (app) => {
    const runtime = app.get(DatabaseRuntime);
    const ds = app.get(DataSource);
    const options = ds.options as { url?: string };
    return {
      applied: runtime.appliedMigrations,
      database: runtime.isEmbedded ? 'embedded' : (options.url ?? '').replace(/\/\/[^@/]*@/, '//***@'),
    };
  },
  human: (r) => (r.applied.length ? `Applied: ${r.applied.join(', ')}` : 'The database is up to date.'),
};

export const platformCommands: CliCommand[] = [
  workspaceCreate,
  workspaceList,
  keyCreate,
  keyList,
  keyRevoke,
  migrationRun,
] as CliCommand[];
