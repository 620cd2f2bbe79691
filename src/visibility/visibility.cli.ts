import { readFile } from 'node:fs/promises';
import type { CliCommand } from '../common/cli/cli-command';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { DemoSeedResult, DemoSeedService } from './demo/demo-seed.service';
import { ApiKeysService } from '../common/api-keys/api-keys.service';
import { ImportResult, RederiveResult, VisibilityIngestService } from './visibility-ingest.service';

const rate = (r: number | null): string => (r === null ? 'n/a' : `${r}%`);

/** `scan:import <workspace-slug> <file.json>`: one scan, one transaction. */
export const scanImportCommand: CliCommand<ImportResult> = {
  name: 'scan:import',
  usage: 'scan:import <workspace-slug> <file.json> [--json]',
  description:
    'Import one scan (project set-up and raw AI answers) into a workspace; see docs/visibility-import.schema.json.',
  async run(app, args) {
    const [slug, path] = args.positionals;
    if (!slug || !path || args.positionals.length > 2) {
      throw DomainError.badRequest('Usage: scan:import <workspace-slug> <file.json> [--json]');
    }
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      throw new DomainError(ErrorCode.FileNotFound, `Cannot read ${path}: ${(e as Error).message}`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw DomainError.badRequest(`${path} is not valid JSON: ${(e as Error).message}`, 'file');
    }
    return app.get(VisibilityIngestService).importScan(slug, raw);
  },
  human(r) {
    const head = r.imported
      ? `Imported scan ${r.scan_id} (${r.date}) into ${r.workspace}${r.latest ? ' (now the latest scan)' : ''} in ${r.duration_ms} ms.`
      : `Scan ${r.scan_id} was already imported into ${r.workspace} with identical content: nothing changed.`;
    return [
      head,
      `  answers: ${r.answers.total} (${r.answers.successful} successful, ${r.answers.failed} failed)`,
      `  mention rate: ${rate(r.mention_rate)}, grade: ${r.grade ?? `none (${r.grade_reason})`}`,
      `  sources: ${r.sources}, urls: ${r.urls}, gaps: ${r.gaps}`,
    ].join('\n');
  },
};

/** `demo:seed`: the demo workspace and a key for it. */
export const demoSeedCommand: CliCommand<DemoSeedResult> = {
  name: 'demo:seed',
  usage: 'demo:seed [--json]',
  description: 'Create the workspace "demo" with generated weekly scans and print an API key for it.',
  async run(app, args) {
    if (args.positionals.length > 0) throw DomainError.badRequest('Usage: demo:seed [--json]');
    return app.get(DemoSeedService).seed();
  },
  human(r) {
    return [
      `Demo workspace "${r.workspace}" loaded: ${r.scans} scans, ${r.answers} answers.`,
      `API key (shown once): ${r.key}`,
      `Try: curl -H "Authorization: Bearer ${r.key}" http://localhost:3000/api/v1/visibility`,
    ].join('\n');
  },
};

/** `scan:rederive <workspace-slug> | --all`: recompute stored scans with the current rules. */
export const scanRederiveCommand: CliCommand<RederiveResult> = {
  name: 'scan:rederive',
  usage: 'scan:rederive <workspace-slug> | --all [--json]',
  description:
    'Recompute the mention classification and the figures depending on it of stored scans with the current rules (one transaction per scan).',
  async run(app, args) {
    const all = args.options.all === true;
    if ((all && args.positionals.length > 0) || (!all && args.positionals.length !== 1)) {
      throw DomainError.badRequest('Usage: scan:rederive <workspace-slug> | --all [--json]');
    }
    const slugs = all ? (await app.get(ApiKeysService).listWorkspaces()).map((w) => w.slug) : args.positionals;
    return app.get(VisibilityIngestService).rederive(slugs);
  },
  human(r) {
    return [
      ...r.workspaces.map((w) => `${w.workspace}: ${w.scans} scans re-derived, ${w.changed} with changed figures`),
      `Done in ${r.duration_ms} ms.`,
    ].join('\n');
  },
};

/** Admin CLI commands of the visibility module (scan:import, scan:rederive, demo:seed). */
export const visibilityCommands: CliCommand[] = [scanImportCommand, scanRederiveCommand, demoSeedCommand];
