import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ApiKeysService } from '../common/api-keys/api-keys.service';
import { DomainError } from '../common/errors/domain-error';
import { ErrorCode } from '../common/errors/error-code';
import { detectChanges } from './derive/changes';
import { DerivedScan, deriveScan, Grade, projectDomains } from './derive/metrics';
import type { StoredBrand } from './entities/vis-project.entity';
import { ImportFile, parseImportFile } from './import/import-schema';
import { ProjectStateCache } from './store/project-state.cache';
import { VisibilityWriteStore, VisibilityWriteTx } from './store/visibility-write.store';

export interface RederiveResult {
  workspaces: Array<{ workspace: string; scans: number; changed: number }>;
  duration_ms: number;
}

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
    const { imported, latest } = await this.store.transaction((tx) =>
      this.write(tx, workspace.id, file, derived, hash),
    );
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

  /**
   * `scan:rederive`: recomputes the mention classification and everything that depends on it
   * (answers' statuses and evidence, the summary, gaps, prompt figures, detected changes) of every
   * stored scan of the workspaces, with the current rules and the project's current brand and
   * competitors; one transaction per scan. Sources and URLs do not depend on mentions and stay.
   * Each scan bumps the data version, so every ETag of the workspace changes.
   */
  async rederive(slugs: string[]): Promise<RederiveResult> {
    const started = performance.now();
    const out: RederiveResult['workspaces'] = [];
    for (const slug of slugs) {
      const workspace = await this.apiKeys.findWorkspace(slug);
      const order = await this.store.transaction((tx) => tx.scanOrder(workspace.id));
      let changed = 0;
      for (const [at, scan] of order.entries()) {
        const did = await this.store.transaction((tx) =>
          this.rederiveScan(tx, workspace.id, scan, order[at - 1]?.id ?? null, order[at + 1]?.id ?? null),
        );
        this.projects.forget(workspace.id);
        if (did) changed++;
      }
      out.push({ workspace: slug, scans: order.length, changed });
      this.logger.log(`Re-derived ${order.length} scans of ${slug} (${changed} changed)`);
    }
    return { workspaces: out, duration_ms: Math.round(performance.now() - started) };
  }

  private async rederiveScan(
    tx: VisibilityWriteTx,
    workspaceId: string,
    scan: { id: string; scan_key: string; date: string },
    previous: string | null,
    next: string | null,
  ): Promise<boolean> {
    const setup = await tx.projectSetup(workspaceId);
    if (!setup) return false;
    await tx.lockProject(workspaceId, setup.business, setup.brand, setup.competitors);
    const stored = await tx.scanForRederive(scan.id);
    const asImport = (b: StoredBrand) => ({ name: b.name, aliases: b.aliases ?? [], domains: b.domains ?? [] });
    const file = {
      business: setup.business,
      brand: asImport(setup.brand),
      competitors: setup.competitors.map(asImport),
      prompts: [],
      scan: {
        id: scan.scan_key,
        date: scan.date,
        platforms: stored.platforms,
        answers: stored.answers.map((a) => ({
          prompt_id: a.prompt_key,
          platform: a.platform,
          model: a.model,
          status: a.status,
          text: a.text,
          citations: a.citations,
        })),
      },
    } as unknown as ImportFile;
    const derived = deriveScan(file);
    // Sources and URLs stay as imported (their counts include repeated citations the stored answers no longer show).
    const summary = {
      ...derived.summary,
      counts: { ...derived.summary.counts, sources: stored.summary.counts.sources, urls: stored.summary.counts.urls },
    };
    await tx.replaceAnswersAndGaps(scan.id, derived, summary);
    const facts = await tx.facts([scan.id, previous, next]);
    await tx.storeChanges(scan.id, detectChanges(previous ? facts.get(previous)! : null, facts.get(scan.id)!));
    if (next) await tx.storeChanges(next, detectChanges(facts.get(scan.id)!, facts.get(next)!));
    if (!next) await tx.setPromptFigures(workspaceId, derived.prompts);
    const order = await tx.scanOrder(workspaceId);
    await tx.updateProjectPointers(workspaceId, order[order.length - 1].id, order.length);
    return JSON.stringify(summary) !== JSON.stringify(stored.summary);
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
    const competitors = file.competitors.map((c, i) => ({
      name: c.name,
      aliases: c.aliases,
      domains: domains.competitors[i].domains,
    }));
    await tx.lockProject(workspaceId, file.business, brand, competitors);

    const existing = await tx.findScan(workspaceId, file.scan.id);
    if (existing) {
      if (existing.content_hash === hash)
        return { imported: false, latest: (await tx.latestScanId(workspaceId)) === existing.id };
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
