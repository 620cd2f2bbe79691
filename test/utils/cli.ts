import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli';
import { createTestDatabase } from './test-app';

/**
 * Jest's deadline for a CLI test: each in-process CLI call opens its database (on the embedded
 * PGlite: the WASM start-up and the folder, about a second alone) and a test makes up to eight
 * calls; on two cores at load 30 a test of seven calls took over 300 s. A hang guard, not an
 * expectation.
 */
export const CLI_TEST_TIMEOUT_MS = 600_000;

/** What one CLI invocation printed and returned. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the admin CLI in-process with `env`, capturing stdout/stderr. */
export async function runCliCaptured(env: Record<string, string>, ...argv: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await runCli(argv, env, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

/**
 * A database for CLI tests: a fresh, empty PostgreSQL database (DATABASE_URL set) or an embedded
 * database folder of its own (the CLI opens it itself, as it does when no server runs), plus a
 * scratch folder.
 */
export interface CliTestEnv {
  env: Record<string, string>;
  /** A scratch folder for files the test writes (import files...). */
  dir: string;
  drop(): Promise<void>;
}

export async function createCliTestEnv(): Promise<CliTestEnv> {
  const db = await createTestDatabase({ empty: true }); // the CLI's first command applies the migrations
  const dir = mkdtempSync(join(tmpdir(), 'beacon-cli-'));
  const env: Record<string, string> = { LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...db.env };
  if (!db.env.DATABASE_URL) env.DATA_DIR = join(dir, 'data');
  return {
    env,
    dir,
    drop: async () => {
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
