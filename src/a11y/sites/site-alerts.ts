import type { ViewportName } from '../scan/scan-options';
import type { IssueGroup, SitePageResult, SiteScanSummary } from './site.types';

/**
 * Pages that loaded in the previous finished scan and fail to load now (`a11y.page_unreachable`), with the error
 * now; a page is judged at its first viewport (one alert per page, not per viewport).
 */
export function unreachablePages(now: SitePageResult[], before: SiteScanSummary): { url: string; error: string }[] {
  const loaded = new Set(before.pages.filter((p) => !p.error && !p.secondary).map((p) => p.url));
  return now.filter((p) => p.error && !p.secondary && loaded.has(p.url)).map((p) => ({ url: p.url, error: p.error! }));
}

/** The viewports a summary counted: stored since the phone viewport counts; before, its first viewport's only. */
export const countedViewports = (s: SiteScanSummary): ViewportName[] =>
  s.viewports ?? [s.pages.find((p) => !p.secondary)?.viewport ?? 'desktop'];

/**
 * `a11y.new_issue`: critical or serious issues, at any viewport, whose fingerprint the previous scan did not
 * find. An issue found only at a viewport the previous scan did not count (one just ticked) is not new: it was
 * never looked for, and the first scan of a site raises none either.
 */
export function newSevereIssues(now: SiteScanSummary, before: SiteScanSummary): IssueGroup[] {
  const known = new Set(before.groups.map((g) => g.fingerprint));
  const looked = countedViewports(before);
  return now.groups.filter(
    (g) =>
      !known.has(g.fingerprint) &&
      (g.impact === 'critical' || g.impact === 'serious') &&
      (g.viewports ?? countedViewports(now)).some((v) => looked.includes(v)),
  );
}

/** `a11y.score_drop` compares two scores only when both scans counted the same viewports (the score's mean changes with them). */
export const sameViewports = (now: SiteScanSummary, before: SiteScanSummary): boolean =>
  countedViewports(now).join() === countedViewports(before).join();
