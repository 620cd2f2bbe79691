import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ApiKeysService } from '../common/api-keys/api-keys.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { detectChanges } from './derive/changes';
import { DerivedScan, deriveScan, Grade, projectDomains } from './derive/metrics';
import { ImportFile, parseImportFile } from './import/import-schema';
import { ProjectStateCache } from './store/project-state.cache';
import { VisibilityWriteStore, VisibilityWriteTx } from './store/visibility-write.store';

export interface ImportResult {
  workspace: string;
  scan_id: string;
  date: string;
  /** false: this scan id was already imported with identical content (nothing changed). */
  imported: boolean;
  /** true when this scan is now the workspace's latest (by date). */
  latest: boolean;
  answers: { total: number; successful: number; failed: number };
  mention_rate: number | null;
  grade: Grade | null;
  grade_reason: string | null;
  sources: number;
  urls: number;
  gaps: number;
  duration_ms: number;
}

/**
 * Imports one scan: validates the file, derives every figure (pure functions in derive/), and
 * writes the scan, its answers, sources, URLs and gaps, the prompts and the project set-up in one
 * transaction with bulk inserts. The project row is locked for the whole import, so concurrent
 * imports into one workspace run one after the other.
 */
@Injectable()
export class VisibilityIngestService {
  private readonly logger = new Logger('VisibilityIngest');

  constructor(
    private readonly store: VisibilityWriteStore,
    private readonly apiKeys: ApiKeysService,
    private readonly projects: ProjectStateCache,
  ) {}

  /** Validates and imports a parsed JSON document into the workspace `slug`. */
  async importScan(slug: string, raw: unknown): Promise<ImportResult> {
    const started = performance.now();
    const file = parseImportFile(raw);
    const workspace = await this.apiKeys.findWorkspace(slug);
    const derived = deriveScan(file);
    const hash = createHash('sha256').update(JSON.stringify(file)).digest('hex');
    const { imported, latest } = await this.store.transaction((tx) => this.write(tx, workspace.id, file, derived, hash));
    this.projects.forget(workspace.id);
    const s = derived.summary;
    const result: ImportResult = {
      workspace: slug,
      scan_id: file.scan.id,
      date: file.scan.date,
      imported,
      latest,
      answers: s.answers,
      mention_rate: s.mention_rate,
      grade: s.grade,
      grade_reason: s.grade_reason,
      sources: s.counts.sources,
      urls: s.counts.urls,
      gaps: s.counts.gaps,
      duration_ms: Math.round(performance.now() - started),
    };
    if (imported) this.logger.log(`Imported scan ${file.scan.id} into ${slug}: ${s.answers.total} answers`);
    return result;
  }

  private async write(
    tx: VisibilityWriteTx,
    workspaceId: string,
    file: ImportFile,
    derived: DerivedScan,
    hash: string,
  ): Promise<{ imported: boolean; latest: boolean }> {
    const domains = projectDomains(file);
    const brand = { name: file.brand.name, aliases: file.brand.aliases, domains: domains.owned };
    const competitors = file.competitors.map((c, i) => ({ name: c.name, aliases: c.aliases, domains: domains.competitors[i].domains }));
    await tx.lockProject(workspaceId, file.business, brand, competitors);

    const existing = await tx.findScan(workspaceId, file.scan.id);
    if (existing) {
      if (existing.content_hash === hash) return { imported: false, latest: (await tx.latestScanId(workspaceId)) === existing.id };
      throw new DomainError(
        ErrorCode.Conflict,
        `Scan "${file.scan.id}" was already imported with different content; import it under a new scan id.`,
        { field: 'scan.id' },
      );
    }

    const scanId = await tx.insertScan(workspaceId, file, hash, derived.summary);
    await tx.insertRows(scanId, derived);

    // Position of the new scan in the workspace's history (date, then scan id).
    const order = await tx.scanOrder(workspaceId);
    const at = order.findIndex((r) => r.id === scanId);
    const previous = at > 0 ? order[at - 1].id : null;
    const next = at < order.length - 1 ? order[at + 1].id : null;
    const latest = next === null;
    const facts = await tx.facts([scanId, previous, next]);
    await tx.storeChanges(scanId, detectChanges(previous ? facts.get(previous)! : null, facts.get(scanId)!));
    if (next) await tx.storeChanges(next, detectChanges(facts.get(scanId)!, facts.get(next)!));

    // Prompts: the latest scan's set-up wins; an older scan only adds prompts not yet known.
    await tx.upsertPrompts(workspaceId, file.prompts, latest);
    if (latest) {
      await tx.setPromptFigures(workspaceId, derived.prompts);
      await tx.updateProjectSetup(workspaceId, file.business, brand, competitors);
    }
    await tx.updateProjectPointers(workspaceId, order[order.length - 1].id, order.length);
    return { imported: true, latest };
  }
}
