/**
 * Read-side decoration of a stored scan summary: every rate gets its 95 % Wilson interval
 * (`<rate>_ci`) next to its sample (docs/visibility-metrics.md, "Intervals and significance").
 * Computed from the stored counts when read, so scans imported before intervals existed get them too.
 */
import type { CompetitorFigures, Funnel, PlatformFigures, ScanSummary } from './metrics';
import { Interval, wilson } from './stats';

export type Ci = Interval | null;

export type FunnelWithCi = Funnel & {
  citation_rate_ci: Ci;
  owned_citation_rate_ci: Ci;
  mentioned_with_owned_citation_rate_ci: Ci;
};

/** Mentions of every tracked brand on a platform (or overall): the sample of share of voice. */
export type SummaryWithCi = Omit<ScanSummary, 'funnel' | 'platforms' | 'competitors'> & {
  mention_rate_ci: Ci;
  share_of_voice_sample: number;
  share_of_voice_ci: Ci;
  funnel: FunnelWithCi;
  platforms: Array<
    Omit<PlatformFigures, 'funnel'> & {
      mention_rate_ci: Ci;
      share_of_voice_sample: number;
      share_of_voice_ci: Ci;
      funnel: FunnelWithCi;
    }
  >;
  competitors: Array<
    Omit<CompetitorFigures, 'platforms'> & {
      mention_rate_ci: Ci;
      share_of_voice_sample: number;
      share_of_voice_ci: Ci;
      platforms: Array<CompetitorFigures['platforms'][number] & { mention_rate_ci: Ci }>;
    }
  >;
};

export function funnelWithCi(f: Funnel): FunnelWithCi {
  return {
    ...f,
    citation_rate_ci: wilson(f.with_citations, f.answers),
    owned_citation_rate_ci: wilson(f.with_owned_citation, f.answers),
    mentioned_with_owned_citation_rate_ci: wilson(f.mentioned_with_owned_citation, f.answers),
  };
}

/** Share-of-voice sample: answer-level mentions of all tracked brands (overall or on one platform). */
export function voiceSample(s: ScanSummary, platform?: string): number {
  if (platform === undefined) return s.mentions + s.competitors.reduce((n, c) => n + c.mentions, 0);
  const own = s.platforms.find((p) => p.platform === platform)?.mentions ?? 0;
  return own + s.competitors.reduce((n, c) => n + (c.platforms.find((p) => p.platform === platform)?.mentions ?? 0), 0);
}

export function withIntervals(s: ScanSummary): SummaryWithCi {
  const all = voiceSample(s);
  return {
    ...s,
    mention_rate_ci: wilson(s.mentions, s.answers.successful),
    share_of_voice_sample: all,
    share_of_voice_ci: wilson(s.mentions, all),
    funnel: funnelWithCi(s.funnel),
    platforms: s.platforms.map((p) => {
      const n = voiceSample(s, p.platform);
      return {
        ...p,
        mention_rate_ci: wilson(p.mentions, p.answers),
        share_of_voice_sample: n,
        share_of_voice_ci: wilson(p.mentions, n),
        funnel: funnelWithCi(p.funnel),
      };
    }),
    competitors: s.competitors.map((c) => ({
      ...c,
      mention_rate_ci: wilson(c.mentions, c.answers),
      share_of_voice_sample: all,
      share_of_voice_ci: wilson(c.mentions, all),
      platforms: c.platforms.map((p) => ({ ...p, mention_rate_ci: wilson(p.mentions, p.answers) })),
    })),
  };
}
