#!/usr/bin/env node
import 'reflect-metadata';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { config as loadDotenv } from 'dotenv';
import { parseArgs } from 'node:util';
import { accountCommands } from './accounts/accounts.cli';
import { AccountsModule } from './accounts/accounts.module';
import { CliArgs, CliCommand } from './common/cli/cli-command';
import { platformCommands } from './common/cli/platform.commands';
import { AppConfig, ConfigError, loadConfig } from './common/config/env';
import { CoreModule } from './common/core.module';
import { DomainError } from './common/errors/domain-error';
import { visibilityCommands } from './visibility/visibility.cli';
import { VisibilityModule } from './visibility/visibility.module';

/**
 * The admin CLI: `npm run admin -- <command> [...]` or `beacon-admin <command>`.
 * Works against the same database as the server; on the embedded database it connects through the
 * running server's socket when one runs, and opens the data folder itself when none does.
 */
export const commands: CliCommand[] = [...platformCommands, ...visibilityCommands, ...accountCommands];

function cliModule(config: AppConfig): DynamicModule {
  return {
    module: class AdminCliModule {},
    imports: [
      CoreModule.forRoot({ config, http: false, attachToRunningDatabase: true }),
      VisibilityModule,
      AccountsModule,
    ],
  };
}

function help(): string {
  const width = Math.max(...commands.map((c) => c.usage.length));
  return [
    'Beacon admin CLI',
    '',
    'Usage: npm run admin -- <command> [arguments] [--json]',
    '',
    ...commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.description}`),
    '',
    'Every command accepts --json and then prints one JSON document. Exit status 0 on success,',
    '1 on failure, 2 on a usage error.',
  ].join('\n');
}

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs one CLI invocation; returns the exit code. Exported for tests. */
export async function runCli(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out(help());
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  const wantsJson = rest.includes('--json');
  const fail = (code: string, message: string, status: number): number => {
    if (wantsJson) io.out(JSON.stringify({ ok: false, error: code, message }));
    else io.err(`Error: ${message}`);
    return status;
  };
  if (!command) return fail('bad_request', `Unknown command "${name}". Run "npm run admin -- help".`, 2);

  let parsed: ReturnType<typeof parseArgs>;
  try {
    const options: Record<string, { type: 'string' | 'boolean' }> = { json: { type: 'boolean' } };
    for (const o of command.valueOptions ?? []) options[o] = { type: 'string' };
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (e) {
    return fail('bad_request', `${(e as Error).message}\nUsage: ${command.usage}`, 2);
  }

  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return fail('bad_request', e.message, 1);
    throw e;
  }

  let app;
  try {
    app = await NestFactory.createApplicationContext(cliModule(config), { logger: false, abortOnError: false });
  } catch (e) {
    return fail('internal_error', `Could not open the database: ${(e as Error).message}`, 1);
  }
  try {
    const options: CliArgs['options'] = {};
    for (const [k, v] of Object.entries(parsed.values)) if (!Array.isArray(v)) options[k] = v;
    const args: CliArgs = { positionals: parsed.positionals, options, json: options.json === true };
    const result = await command.run(app, args);
    if (args.json) io.out(JSON.stringify(result));
    else io.out(command.human ? command.human(result) : JSON.stringify(result, null, 2));
    return 0;
  } catch (e) {
    if (e instanceof DomainError) return fail(e.code, e.message, 1);
    return fail('internal_error', (e as Error).message ?? String(e), 1);
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  loadDotenv({ quiet: true });
  runCli(process.argv.slice(2), process.env, {
    out: (t) => process.stdout.write(`${t}\n`),
    err: (t) => process.stderr.write(`${t}\n`),
  })
    .then((code) => process.exit(code))
    .catch((e: unknown) => {
      process.stderr.write(`Error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    });
}
