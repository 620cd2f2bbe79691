import type { INestApplicationContext } from '@nestjs/common';

/** Parsed command line of one admin CLI command. */
export interface CliArgs {
  /** Positional arguments after the command name. */
  positionals: string[];
  /** `--name value` options (strings) and flags (`--json` -> true). */
  options: Record<string, string | boolean | undefined>;
  /** `--json`: print exactly one JSON document on stdout. */
  json: boolean;
}

/**
 * One admin CLI command (`npm run admin -- <name> ...`). `run` returns the JSON document printed
 * with --json; `human` renders the same result for people (default: pretty JSON).
 * Throw a DomainError (or any Error) to fail: the CLI prints its message and exits non-zero.
 */
export interface CliCommand<R = unknown> {
  name: string;
  /** e.g. `key:create <workspace-slug> [--label "..."]` */
  usage: string;
  description: string;
  /** Option names taking a value (others are boolean flags). */
  valueOptions?: string[];
  run(app: INestApplicationContext, args: CliArgs): Promise<R>;
  human?(result: R): string;
}
