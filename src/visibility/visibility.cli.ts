import type { CliCommand } from '../common/cli/cli-command';

/** Admin CLI commands of the visibility module (scan:import, demo:seed). */
export const visibilityCommands: CliCommand[] = [];
