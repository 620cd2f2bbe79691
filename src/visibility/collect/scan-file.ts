/**
 * The import file of a finished run: the run's frozen set-up and its collected answers, in the
 * shape `scan:import` reads, so the scan goes through the same validation, ingest and derivation
 * as an import (an import of this file gives the same figures).
 */
import { normaliseUrl } from '../derive/domains';
import { LIMITS } from '../import/import-schema';
import type { TrackedPrompt } from '../tracking/tracking.types';
import type { CollectedAnswer, RunSetup } from './collect.types';

export interface ScanFile {
  business: string;
  brand: { name: string; aliases: string[]; domains: string[] };
  competitors: Array<{ name: string; aliases: string[]; domains: string[] }>;
  /** The tracked prompts as they were when the run started. */
  prompts: TrackedPrompt[];
  scan: {
    id: string;
    date: string;
    platforms: string[];
    answers: Array<{
      prompt_id: string;
      platform: string;
      model: string | null;
      status: string;
      text: string;
      citations: string[];
    }>;
  };
}

/** Citations the import accepts: absolute http(s) URLs within the length limit, each once, at most LIMITS.citations. */
export function importableCitations(citations: Array<{ url: string }>): string[] {
  const out: string[] = [];
  for (const c of citations) {
    if (
      typeof c.url !== 'string' ||
      c.url.length > LIMITS.urlChars ||
      normaliseUrl(c.url) === null ||
      out.includes(c.url)
    )
      continue;
    out.push(c.url);
    if (out.length === LIMITS.citations) break;
  }
  return out;
}

export function scanFile(setup: RunSetup, scan: { id: string; date: string }, answers: CollectedAnswer[]): ScanFile {
  const promptOrder = new Map(setup.prompts.map((p, i) => [p.id, i]));
  const platformOrder = new Map(setup.platforms.map((p, i) => [p, i]));
  const sorted = [...answers].sort(
    (a, b) =>
      (promptOrder.get(a.prompt_key) ?? 0) - (promptOrder.get(b.prompt_key) ?? 0) ||
      (platformOrder.get(a.platform) ?? 0) - (platformOrder.get(b.platform) ?? 0) ||
      a.sample - b.sample,
  );
  return {
    business: setup.business,
    brand: setup.brand,
    competitors: setup.competitors,
    prompts: setup.prompts.map((p) => ({
      id: p.id,
      text: p.text,
      tags: p.tags,
      intent: p.intent,
      country: p.country,
      enabled: p.enabled,
    })),
    scan: {
      id: scan.id,
      date: scan.date,
      platforms: setup.platforms,
      answers: sorted.map((a) => ({
        prompt_id: a.prompt_key,
        platform: a.platform,
        model: a.model ? a.model.slice(0, 100) : null,
        status: a.status,
        text: a.status === 'ok' ? a.text.slice(0, LIMITS.textChars) : '',
        citations: a.status === 'ok' ? importableCitations(a.citations) : [],
      })),
    },
  };
}
