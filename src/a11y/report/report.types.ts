import type { Impact } from '../scoring/score';
import type { UserGroup } from '../scoring/disabilities';
import type { RuleCost, SiteRuleCost } from '../scoring/breakdown';
import type { NodeFacts } from '../diff/fingerprint';
import type { Box } from '../screenshots/box';
import type { PageReview } from '../checks/check.types';

/** How the page's rendering was judged (stored as `pages[].render`). */
export interface RenderCheck {
  /** complete: content present (the DOM may still have been changing at the bound: see domStable). incomplete: empty or loading at the bound. */
  state: 'complete' | 'incomplete';
  /**
   * Time the scan waited for the page to render: for a page that was an app shell (empty or
   * loading) at its load event, from the load event until it counted as rendered (the network
   * settling included); otherwise the time spent in the check after the network settled, 0 when the
   * page counted as rendered at the first look.
   */
  waitMs: number;
  domStable: boolean;
  fontsLoaded: boolean;
  /** Why the page counts as incomplete. */
  reason?: 'nearly empty body' | 'loading indicator';
}

/** A failing (or to-be-reviewed) element. */
export interface ReportNode {
  html: string;
  /** Selector path; more than one entry when the element is inside frames or shadow roots. */
  target: string[];
  /** Identity across scans (violations only; see docs/a11y.md, "Diff against the previous scan"). */
  fingerprint?: string;
  /** What the fingerprint is made of, read in the page after axe ran. */
  facts?: NodeFacts;
  /** The element's box in the page (document CSS pixels), when it is in the top document and visible. */
  box?: Box;
  /** Its number on the page's full-page screenshot. */
  marker?: number;
  /** PNG crop of the element (box outlined, some context), while the report's screenshot caps allow. */
  screenshot?: string;
  /** Where the crop was cut from the page (document CSS pixels). */
  crop?: Box;
}

/** A violated rule, or a rule that needs human review (incomplete). */
export interface ReportRule {
  id: string;
  impact: Impact;
  help: string;
  helpUrl: string;
  tags: string[];
  disabilities: UserGroup[];
  /** At most MAX_NODES_PER_RULE elements (fewer when the report hit its size cap). */
  nodes: ReportNode[];
  /** Failing elements found but not listed (absent in reports made before the cap). */
  nodesOmitted?: number;
}

/** A passed rule (elements are not listed). */
export interface ReportPass {
  id: string;
  impact: Impact;
  help: string;
  helpUrl: string;
  tags: string[];
}

export interface ReportPage {
  url: string;
  /** Address after redirects. */
  finalUrl: string;
  score: number;
  violations: ReportRule[];
  incomplete: ReportRule[];
  passes: ReportPass[];
  /** Points each failed rule costs this page, adding up to 100 - score (absent in reports made before it existed). */
  scoreBreakdown?: RuleCost[];
  /** How long the scan waited for the page to render, and whether it did (absent in older reports). */
  render?: RenderCheck;
  /** Full-page PNG with every failing element outlined and numbered (`cut`: the page was taller than the cap). */
  screenshot?: { url: string; width: number; height: number; cut: boolean };
  /** A site scan's checks beyond axe (reflow, keyboard walk): "needs review", not in the score (absent otherwise). */
  review?: PageReview;
  /** `picturesMs`: time spent on screenshots (absent when the page had no violation). */
  timings: { navigationMs: number; settleMs: number; axeMs: number; totalMs: number; picturesMs?: number };
}

/** How the scan was made. */
export interface ReportMeta {
  engine: 'axe-core';
  axeVersion: string;
  browser: string;
  tags: string[];
  viewport: { width: number; height: number };
  userAgent: string;
  /** Pages of a crawl that could not be scanned, with the reason. */
  skipped: { url: string; error: string }[];
  timings: { totalMs: number };
  /** Present when the report was cut to fit SCAN_REPORT_MAX_BYTES: elements no longer listed. */
  truncated?: { nodesOmitted: number; maxNodesPerRule: number; maxHtml: number };
  /** "incomplete" when any page was still nearly empty or loading at the render bound (absent in older reports). */
  render?: 'complete' | 'incomplete';
  /** Longest render wait of the report's pages. */
  renderWaitMs?: number;
}

/** The report of the spec, plus scan metadata. Stored as jsonb; the body of POST/GET /api/scan. */
export interface Report {
  id: string;
  url: string;
  crawl: boolean;
  score: number;
  totalNodes: number;
  violationTypes: number;
  /** Points each failed rule costs the report score, adding up to 100 - score (absent in older reports). */
  scoreBreakdown?: SiteRuleCost[];
  /** When the browser run was made (ISO 8601). */
  scannedAt: string;
  /** When the report will be deleted (ISO 8601). */
  expiresAt: string;
  pages: ReportPage[];
  meta: ReportMeta;
}

/** POST /api/scan answers a report and whether it came from the cache. */
export type ScanResponse = Report & { cached: boolean };
