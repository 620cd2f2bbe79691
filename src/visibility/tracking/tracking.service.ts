import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { LIMITS } from '../import/import-schema';
import type { StoredBrand } from '../entities/vis-project.entity';
import { BulkRow } from './tracking-bulk';
import { TrackingInputError } from './tracking-input';
import { TrackingRow, TrackingStore, TrackingTx } from './tracking.store';
import { PromptInput, TrackedPrompt, TrackingSettings } from './tracking.types';

/** Defaults of a workspace that never saved its set-up: weekly, one sample, no platform chosen yet. */
const DEFAULTS: Omit<TrackingRow, 'business' | 'brand' | 'competitors'> = {
  platforms: [],
  samples: 1,
  schedule: 'weekly',
  budget_calls: 1000,
  budget_usd: 10,
};

export interface BulkResult {
  added: number;
  /** Rows whose text is already tracked (or repeated in the input): skipped. */
  duplicates: number;
}

/** Listener told when a workspace's schedule may have changed (the collection scheduler). */
export type ScheduleListener = (workspaceId: string, schedule: TrackingRow['schedule']) => Promise<void>;

/**
 * What a workspace tracks: brand, competitors, prompts, platforms, samples, schedule and budget.
 * A workspace's first row is seeded from its latest import's set-up (brand, competitors, prompts
 * with their ids), so a workspace that imported scans keeps its prompts' history. Prompt edits
 * show in the API's prompt list at once (mirrorPrompts); brand, competitors and platforms are
 * what the next scan measures with.
 */
@Injectable()
export class TrackingService {
  private readonly listeners: ScheduleListener[] = [];

  constructor(private readonly store: TrackingStore) {}

  onScheduleChange(l: ScheduleListener): void {
    this.listeners.push(l);
  }

  /** The row, created (seeded) when missing. */
  private async ensure(tx: TrackingTx, workspaceId: string): Promise<TrackingRow> {
    const row = await tx.get(workspaceId, true);
    if (row) return row;
    const imported = await tx.importedSetup(workspaceId);
    const seed: TrackingRow = {
      business: imported?.business ?? '',
      brand: imported?.brand ?? { name: '', aliases: [], domains: [] },
      competitors: imported?.competitors ?? [],
      ...DEFAULTS,
    };
    await tx.create(workspaceId, seed);
    if (imported) await tx.copyImportedPrompts(workspaceId);
    return (await tx.get(workspaceId, true))!;
  }

  /** Workspaces whose scans are scheduled. */
  scheduledWorkspaces(): Promise<Array<{ workspace_id: string; schedule: TrackingRow['schedule'] }>> {
    return this.store.scheduled();
  }

  /** The set-up (seeded from the latest import on the first read). */
  async settings(workspaceId: string): Promise<TrackingSettings> {
    return this.store.transaction(async (tx) => {
      const existed = (await tx.get(workspaceId)) !== null;
      const row = await this.ensure(tx, workspaceId);
      const n = await tx.counts(workspaceId);
      return { saved: existed, ...row, prompts_total: n.total, prompts_enabled: n.enabled };
    });
  }

  /** A page of prompts (seeding the set-up first, so the ids shown are the ones edits use). */
  async prompts(
    workspaceId: string,
    offset: number,
    limit: number,
  ): Promise<{ prompts: TrackedPrompt[]; total: number; enabled: number }> {
    return this.store.transaction(async (tx) => {
      await this.ensure(tx, workspaceId);
      const n = await tx.counts(workspaceId);
      return { prompts: await tx.prompts(workspaceId, { offset, limit }), total: n.total, enabled: n.enabled };
    });
  }

  /** Every tracked prompt (a scan's set-up). */
  async allPrompts(workspaceId: string): Promise<TrackedPrompt[]> {
    return this.store.transaction(async (tx) => {
      await this.ensure(tx, workspaceId);
      return tx.prompts(workspaceId);
    });
  }

  async prompt(workspaceId: string, id: string): Promise<TrackedPrompt> {
    const p = await this.store.read((tx) => tx.prompt(workspaceId, id));
    if (!p) throw new DomainError(ErrorCode.NotFound, 'No such prompt in this workspace.');
    return p;
  }

  /** Changes some of the set-up's fields; the brand's name must stay distinct from every competitor's. */
  async update(workspaceId: string, patch: Partial<TrackingRow>): Promise<TrackingSettings> {
    let changedSchedule: TrackingRow['schedule'] | null = null;
    await this.store.transaction(async (tx) => {
      const row = await this.ensure(tx, workspaceId);
      const next = { ...row, ...patch };
      checkNames(next.brand, next.competitors);
      await tx.update(workspaceId, next);
      if (next.schedule !== row.schedule || patch.platforms) changedSchedule = next.schedule;
    });
    if (changedSchedule) for (const l of this.listeners) await l(workspaceId, changedSchedule);
    return this.settings(workspaceId);
  }

  async addCompetitor(workspaceId: string, c: StoredBrand): Promise<void> {
    await this.store.transaction(async (tx) => {
      const row = await this.ensure(tx, workspaceId);
      if (row.competitors.length >= LIMITS.competitors)
        throw new TrackingInputError(`At most ${LIMITS.competitors} competitors.`, 'competitor-name');
      const competitors = [...row.competitors, c];
      checkNames(row.brand, competitors, 'competitor-name');
      await tx.update(workspaceId, { ...row, competitors });
    });
  }

  async removeCompetitor(workspaceId: string, index: number): Promise<string> {
    return this.store.transaction(async (tx) => {
      const row = await this.ensure(tx, workspaceId);
      const gone = row.competitors[index];
      if (!gone) throw new DomainError(ErrorCode.NotFound, 'No such competitor.');
      await tx.update(workspaceId, { ...row, competitors: row.competitors.filter((_, i) => i !== index) });
      return gone.name;
    });
  }

  async addPrompt(workspaceId: string, p: PromptInput): Promise<string> {
    const r = await this.addPrompts(workspaceId, [{ where: 'The prompt', prompt: p }], 'text');
    if (!r.added) throw new TrackingInputError('This prompt is already tracked.', 'text');
    return 'added';
  }

  /** All or nothing: past the 5,000-prompt limit nothing is added. Repeated texts are skipped. */
  async addPrompts(workspaceId: string, rows: BulkRow[], field = 'lines'): Promise<BulkResult> {
    return this.store.transaction(async (tx) => {
      await this.ensure(tx, workspaceId);
      const seen = new Set(await tx.promptTexts(workspaceId));
      const fresh: PromptInput[] = [];
      for (const r of rows) {
        const k = r.prompt.text.toLowerCase();
        if (seen.has(k)) continue;
        seen.add(k);
        fresh.push(r.prompt);
      }
      const n = await tx.counts(workspaceId);
      if (n.total + fresh.length > LIMITS.prompts) {
        throw new TrackingInputError(
          `A workspace tracks at most ${LIMITS.prompts.toLocaleString('en')} prompts: ${n.total.toLocaleString('en')} are tracked and ${fresh.length.toLocaleString('en')} would be added. Nothing was added.`,
          field,
        );
      }
      await tx.addPrompts(workspaceId, fresh);
      await tx.mirrorPrompts(workspaceId);
      return { added: fresh.length, duplicates: rows.length - fresh.length };
    });
  }

  async updatePrompt(workspaceId: string, id: string, p: PromptInput): Promise<void> {
    const ok = await this.store.transaction(async (tx) => {
      await this.ensure(tx, workspaceId);
      const ok = await tx.updatePrompt(workspaceId, id, p);
      if (ok) await tx.mirrorPrompts(workspaceId);
      return ok;
    });
    if (!ok) throw new DomainError(ErrorCode.NotFound, 'No such prompt in this workspace.');
  }

  async deletePrompt(workspaceId: string, id: string): Promise<void> {
    const ok = await this.store.transaction(async (tx) => {
      const gone = await tx.deletePrompt(workspaceId, id);
      if (gone) await tx.mirrorPrompts(workspaceId);
      return gone;
    });
    if (!ok) throw new DomainError(ErrorCode.NotFound, 'No such prompt in this workspace.');
  }
}

/** Brand and competitor names must differ (case-insensitively), as an import requires. */
function checkNames(brand: StoredBrand, competitors: StoredBrand[], field = 'brand-name'): void {
  const seen = new Set(brand.name ? [brand.name.toLowerCase()] : []);
  for (const c of competitors) {
    if (seen.has(c.name.toLowerCase()))
      throw new TrackingInputError(`"${c.name}" is already the brand or a competitor.`, field);
    seen.add(c.name.toLowerCase());
  }
}
