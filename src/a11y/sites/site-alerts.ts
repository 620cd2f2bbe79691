import type { SitePageResult, SiteScanSummary } from './site.types';

/** Pages that loaded in the previous finished scan and fail to load now (`a11y.page_unreachable`), with the error now. */
export function unreachablePages(now: SitePageResult[], before: SiteScanSummary): { url: string; error: string }[] {
  const loaded = new Set(before.pages.filter((p) => !p.error).map((p) => p.url));
  return now.filter((p) => p.error && loaded.has(p.url)).map((p) => ({ url: p.url, error: p.error! }));
}
