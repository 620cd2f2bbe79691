/**
 * What a finished scan should tell people (issue 22 item 4), from the figures the API already
 * computes: the week-over-week comparison (two-proportion z-test at 95 %, docs/visibility-metrics.md)
 * of the scan against the one before it. Pure: the caller reads the scans and sends the alerts.
 */
import { compareScans, RATE_ABSOLUTE_FLOOR } from '../derive/changes';
import type { ScanSummary } from '../derive/metrics';

export type ScanAlertKind =
  | 'visibility.mention_rate_drop'
  | 'visibility.share_of_voice_drop'
  | 'visibility.competitor_ahead'
  | 'visibility.owned_citation_lost';

export interface ScanAlert {
  kind: ScanAlertKind;
  title: string;
  text: string;
  data: Record<string, unknown>;
}

export interface ScanForAlerts {
  scan_id: string;
  date: string;
  summary: ScanSummary;
  /** URLs of owned domains cited in the scan. */
  owned_urls: string[];
}

/** Owned URLs listed in one alert (the count is complete). */
const URLS_LISTED = 25;

export function detectAlerts(business: string, latest: ScanForAlerts, previous: ScanForAlerts | null): ScanAlert[] {
  const c = compareScans(latest, previous);
  if (!c || !previous) return [];
  const out: ScanAlert[] = [];
  const scans = {
    scan_id: latest.scan_id,
    date: latest.date,
    previous_scan_id: previous.scan_id,
    previous_date: previous.date,
  };
  const drop = (d: typeof c.mention_rate) =>
    d.significant === true && d.delta !== null && d.delta <= -RATE_ABSOLUTE_FLOOR;
  if (drop(c.mention_rate)) {
    out.push({
      kind: 'visibility.mention_rate_drop',
      title: `${business}: mention rate fell from ${c.mention_rate.previous} % to ${c.mention_rate.latest} %`,
      text: `In scan ${latest.scan_id} of ${latest.date} AI answers mentioned ${business} in ${c.mention_rate.latest} % of successful answers, against ${c.mention_rate.previous} % in ${previous.scan_id} of ${previous.date}: a significant drop (p = ${c.mention_rate.p_value}).`,
      data: {
        ...scans,
        from: c.mention_rate.previous,
        to: c.mention_rate.latest,
        delta: c.mention_rate.delta,
        p_value: c.mention_rate.p_value,
      },
    });
  }
  if (drop(c.share_of_voice)) {
    out.push({
      kind: 'visibility.share_of_voice_drop',
      title: `${business}: share of voice fell from ${c.share_of_voice.previous} % to ${c.share_of_voice.latest} %`,
      text: `${business}'s share of the tracked brands' mentions fell from ${c.share_of_voice.previous} % (${previous.scan_id}) to ${c.share_of_voice.latest} % (${latest.scan_id}): a significant drop (p = ${c.share_of_voice.p_value}).`,
      data: {
        ...scans,
        from: c.share_of_voice.previous,
        to: c.share_of_voice.latest,
        delta: c.share_of_voice.delta,
        p_value: c.share_of_voice.p_value,
      },
    });
  }
  const brandNow = latest.summary.mention_rate;
  const brandBefore = previous.summary.mention_rate;
  for (const comp of latest.summary.competitors) {
    if (comp.mention_rate === null || brandNow === null || comp.mention_rate <= brandNow) continue;
    const before = previous.summary.competitors.find((x) => x.name === comp.name)?.mention_rate ?? null;
    if (before !== null && brandBefore !== null && before > brandBefore) continue; // already ahead
    out.push({
      kind: 'visibility.competitor_ahead',
      title: `${comp.name} is now mentioned more often than ${business}`,
      text: `In scan ${latest.scan_id} ${comp.name} was mentioned in ${comp.mention_rate} % of successful answers and ${business} in ${brandNow} %; in ${previous.scan_id} ${comp.name} had ${before ?? 'no figure'}${before === null ? '' : ' %'} and ${business} ${brandBefore ?? 'no figure'}${brandBefore === null ? '' : ' %'}.`,
      data: {
        ...scans,
        competitor: comp.name,
        competitor_rate: comp.mention_rate,
        brand_rate: brandNow,
        competitor_rate_before: before,
        brand_rate_before: brandBefore,
      },
    });
  }
  const now = new Set(latest.owned_urls);
  const lost = previous.owned_urls.filter((u) => !now.has(u)).sort();
  if (lost.length) {
    out.push({
      kind: 'visibility.owned_citation_lost',
      title: `${business}: ${lost.length === 1 ? 'an owned page is' : `${lost.length} owned pages are`} no longer cited`,
      text: `Cited in ${previous.scan_id}, not in ${latest.scan_id}: ${lost.slice(0, URLS_LISTED).join(', ')}${lost.length > URLS_LISTED ? ', ...' : ''}.`,
      data: { ...scans, lost_urls: lost.slice(0, URLS_LISTED), lost_count: lost.length },
    });
  }
  return out;
}
