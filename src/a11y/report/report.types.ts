import type { Impact } from '../scoring/score';
import type { UserGroup } from '../scoring/disabilities';
import type { RuleCost, SiteRuleCost } from '../scoring/breakdown';
import type { NodeFacts } from '../diff/fingerprint';
import type { RenderCheck } from '../readiness/render-wait';

/** A failing (or to-be-reviewed) element. */
export interface ReportNode {
  html: string;
  /** Selector path; more than one entry when the element is inside frames or shadow roots. */
  target: string[];
  /** Identity across scans (violations only; see docs/a11y.md, "Diff against the previous scan"). */
  fingerprint?: string;
  /** What the fingerprint is made of, read in the page after axe ran. */
  facts?: NodeFacts;
}

/** A violated rule, or a rule that needs human review (incomplete). */
export interface ReportRule {
  id: string;
  impact: Impact;
  help: string;
  helpUrl: string;
  tags: string[];
  disabilities: UserGroup[];
  nodes: ReportNode[];
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
  timings: { navigationMs: number; settleMs: number; axeMs: number; totalMs: number };
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
