import type { Impact } from '../scoring/score';
import type { ViewportName } from '../scan/scan-options';

export type SiteSchedule = 'off' | 'daily' | 'weekly';
export type SiteScanStatus = 'queued' | 'running' | 'done' | 'failed';
/**
 * Where a scan's pages come from beside the start URL and the listed URLs: the sitemap, nothing more
 * (the list), or a same-origin crawl from the start URL (docs/a11y-monitoring.md, "Pages of a scan").
 */
export type PageSource = 'sitemap' | 'list' | 'crawl';
export const PAGE_SOURCES: readonly PageSource[] = ['sitemap', 'list', 'crawl'];

/** A CSS selector left out of a site's results, with the reason kept for the audit trail. */
export interface ExcludedSelector {
  selector: string;
  reason: string;
}

/** A saved site of a workspace (docs/a11y-monitoring.md). */
export interface Site {
  id: string;
  workspace_id: string;
  name: string;
  start_url: string;
  sitemap_url: string | null;
  urls: string[];
  page_source: PageSource;
  include_patterns: string[];
  exclude_patterns: string[];
  page_budget: number;
  respect_robots: boolean;
  ignore_rules: string[];
  excluded_selectors: ExcludedSelector[];
  schedule: SiteSchedule;
  alert_drop: number;
  verification_token: string;
  verified_at: string | null;
  verified_by: 'file' | 'dns' | null;
  created_at: string;
  /** Viewports each page is scanned at (every one counts in the score and fix plan; docs/a11y-monitoring.md). */
  viewports: ViewportName[];
  /** The 320 px reflow check and the keyboard walk ("needs review", not in the score). */
  reflow_check: boolean;
  keyboard_walk: boolean;
  /** Login steps run before each scan (null: pages are scanned signed out). */
  login: SiteLogin | null;
}

/** What the site form sets beside SiteInput: viewports and checks beyond axe. */
export type SiteChecksInput = Pick<Site, 'viewports' | 'reflow_check' | 'keyboard_walk'>;

/**
 * A site's login steps (docs/a11y-monitoring.md, "Login steps"): open `url`, fill each field in
 * order (pressing its `next` button after it, if any), press `submit`, then expect `check_selector` in the page and/or the address to match `check_url`.
 * Field values are sealed (SecretBox, purpose SITE_LOGIN_PURPOSE, the workspace as context): never
 * shown again, never logged.
 */
export interface SiteLogin {
  url: string;
  fields: { selector: string; sealed: string }[];
  submit: string;
  check_selector: string | null;
  /** A URL pattern (`*` = any characters) matched against the path and query after the login. */
  check_url: string | null;
  /**
   * A login over more than one page (user name, Next, password): `next[i]` is the button pressed
   * after field i + 1 is filled (null: none); the next field, and the final button, are then waited
   * for. Absent on a one-page login.
   */
  next?: (string | null)[];
}

/** What an admin enters for a site. */
export type SiteInput = Pick<
  Site,
  | 'name'
  | 'start_url'
  | 'sitemap_url'
  | 'urls'
  | 'page_source'
  | 'include_patterns'
  | 'exclude_patterns'
  | 'page_budget'
  | 'respect_robots'
  | 'ignore_rules'
  | 'excluded_selectors'
  | 'schedule'
  | 'alert_drop'
>;

/** One page of a site scan. */
export interface SitePageResult {
  url: string;
  /** The public engine's stored report of the page (GET /api/scan/:id, /r/:id), while it is kept. */
  reportId?: string;
  score?: number;
  error?: string;
  /** Issues (fingerprints) on this page compared with the site's previous finished scan (absent on the first). */
  diff?: { new: number; fixed: number; unchanged: number };
  /** The viewport of this result (absent: desktop, the only one before viewports existed). */
  viewport?: ViewportName;
  /**
   * A result at another viewport than the scan's first: in the score and the fix plan like the first's, but the
   * page is counted once (at its first viewport) in "Pages", and its diff and unreachable alert are the first's.
   */
  secondary?: boolean;
  /** Findings of the reflow check and the keyboard walk on this page ("needs review", not in the score). */
  review?: { reflow: number; keyboard: number; trapped: boolean };
}

/** One defect grouped across pages: the same rule on the same element fingerprint. */
export interface IssueGroup {
  fingerprint: string;
  rule: string;
  impact: Impact;
  help: string;
  helpUrl: string;
  /** Markup and selector of the first occurrence. */
  html: string;
  target: string;
  /** Pages it occurs on. */
  pages: string[];
  /** Viewports it occurs on (absent in scans before the phone viewport counted: the first viewport's only). */
  viewports?: ViewportName[];
  /** Elements: on each page, the most found at one of its viewports (one element seen at two viewports is one). */
  occurrences: number;
  /** Site score points recovered by fixing it (unrounded, see docs/a11y-monitoring.md). */
  points: number;
}

/** What a finished scan keeps (its reports may expire; this does not). */
export interface SiteScanSummary {
  score: number;
  pages: SitePageResult[];
  /** Every group, largest `points` first: the fix plan. */
  groups: IssueGroup[];
  /** URLs found but not scanned, with the reason (robots.txt, pattern, budget). */
  skipped: { url: string; reason: string }[];
  /** The viewports counted in the score and groups (absent in older scans: their first viewport only). */
  viewports?: ViewportName[];
}

/**
 * What a scan visits, fixed when it first runs (a11y_site_scans.plan), so a scan run again after its worker was
 * lost visits the same pages at the same viewports and pace.
 */
export interface SiteScanPlan {
  pages: string[];
  skipped: { url: string; reason: string }[];
  /** The pause between pages the site asked for (Crawl-delay), ms. */
  gapMs: number;
  viewports: ViewportName[];
}

/** One page at one viewport of a scan (a11y_site_scan_pages): written as it starts and as it ends. */
export interface SiteScanPageRow {
  /** The page's place in the plan's pages. */
  idx: number;
  viewport: ViewportName;
  url: string;
  /** Times its scan was started (a row started twice without a result was lost twice). */
  attempts: number;
  result: SitePageResult | null;
}

export interface SiteScan {
  id: string;
  site_id: string;
  status: SiteScanStatus;
  trigger: 'manual' | 'schedule';
  pages_total: number;
  pages_done: number;
  score: number | null;
  summary: SiteScanSummary | null;
  /** Fixed when the scan first runs (null while queued). */
  plan: SiteScanPlan | null;
  error: string | null;
  created_at: string;
  /** Last progress (a scan without progress for SITE_SCAN_STALE_MS is taken as lost). */
  updated_at: string;
  finished_at: string | null;
}
