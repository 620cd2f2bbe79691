/** A collection scan ("run"): Beacon asks the AI platforms itself, then imports the answers (docs/visibility-collection.md). */
import type { StoredBrand } from '../entities/vis-project.entity';
import type { ImportResult } from '../visibility-ingest.service';
import type { TrackedPrompt } from '../tracking/tracking.types';

export type RunStatus = 'queued' | 'running' | 'importing' | 'done' | 'failed';
export const ACTIVE_STATUSES: RunStatus[] = ['queued', 'running', 'importing'];
export type RunTrigger = 'manual' | 'schedule';

/** The set-up a run asks with, frozen when it starts (edits meanwhile apply to the next run). */
export interface RunSetup {
  business: string;
  brand: StoredBrand;
  competitors: StoredBrand[];
  prompts: TrackedPrompt[];
  /** The platforms asked: chosen in the set-up and configured when the run started. */
  platforms: string[];
  samples: number;
}

export interface RunRow {
  id: string;
  workspace_id: string;
  trigger: RunTrigger;
  status: RunStatus;
  scan_key: string;
  date: string;
  planned: number;
  asked: number;
  failed: number;
  cost_usd: number;
  budget_calls: number;
  budget_usd: number;
  /** Why the run stopped before asking everything (a budget reached). */
  stop_reason: string | null;
  /** Why a run failed. */
  error: string | null;
  result: ImportResult | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** One collected answer (or failed call) before the import. */
export interface CollectedAnswer {
  prompt_key: string;
  platform: string;
  sample: number;
  /** "ok", or the failure's code (ai_rate_limited, ai_unauthorized, ...). */
  status: string;
  model: string | null;
  surface: string | null;
  text: string;
  citations: Array<{ url: string; title?: string }>;
  search_queries: string[];
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  reason: string | null;
}
