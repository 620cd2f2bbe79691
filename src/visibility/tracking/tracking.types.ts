/** What a workspace tracks (issue 22 item 2): set in the dashboard by admins, read by members and by scans. */
import type { BrandSetup } from '../entities/vis-project.entity';

/** Platforms a scan can ask: the ids of src/common/ai's providers (they are also the answers' `platform`). */
export const TRACKABLE_PLATFORMS = ['openai', 'perplexity', 'gemini', 'anthropic', 'openai_compatible'] as const;
export type TrackablePlatform = (typeof TRACKABLE_PLATFORMS)[number];

export const PLATFORM_LABELS: Record<TrackablePlatform, string> = {
  openai: 'OpenAI (ChatGPT models, web search)',
  perplexity: 'Perplexity (Sonar)',
  gemini: 'Google Gemini (Search grounding)',
  anthropic: 'Anthropic Claude (web search)',
  openai_compatible: 'OpenAI-compatible endpoint (self-hosted model or gateway)',
};

export const SCHEDULES = ['weekly', 'daily', 'manual'] as const;
export type Schedule = (typeof SCHEDULES)[number];

/** When scheduled scans start (UTC): Mondays 06:00 for weekly, every day 06:00 for daily. */
export const SCHEDULE_CRON: Record<Exclude<Schedule, 'manual'>, string> = { weekly: '0 6 * * 1', daily: '0 6 * * *' };

/** Limits of the set-up, written once (the prompt limit is the import's). */
export const TRACKING_LIMITS = {
  samplesMax: 10,
  aliases: 50,
  budgetCallsMax: 1_000_000,
  budgetUsdMax: 100_000,
  /** Bytes of one bulk add (pasted lines and/or CSV file). */
  bulkBytes: 2 * 1024 * 1024,
} as const;

export interface TrackedPrompt {
  id: string;
  text: string;
  tags: string[];
  intent: string | null;
  country: string | null;
  enabled: boolean;
}

/** What a workspace tracks and how it scans (one vis_tracking row). */
export interface TrackingSetup extends BrandSetup {
  platforms: TrackablePlatform[];
  samples: number;
  schedule: Schedule;
  budget_calls: number;
  budget_usd: number;
}

export interface TrackingSettings extends TrackingSetup {
  /** false: nothing was saved yet (the values are the defaults, or the latest import's set-up). */
  saved: boolean;
  prompts_total: number;
  prompts_enabled: number;
}

/** The fields a prompt form or a bulk row gives. */
export type PromptInput = Omit<TrackedPrompt, 'id'>;
