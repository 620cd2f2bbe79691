/**
 * What the checks beyond axe (src/a11y/checks) add to a site scan's page report, as `review`:
 * findings for a person to review, never part of the axe score (docs/a11y-monitoring.md).
 */
export type FindingKind =
  'horizontal-scroll' | 'clipped' | 'off-screen' | 'overlap' | 'no-focus-indicator' | 'keyboard-trap' | 'unreached';

/** One finding: what, where (a CSS selector of the element), in the page's words. */
export interface CheckFinding {
  kind: FindingKind;
  selector: string;
  /** The element's accessible name, as far as the check reads it. */
  name?: string;
  message: string;
}

/** The 320 CSS px reflow check (WCAG 1.4.10). */
export interface ReflowResult {
  width: number;
  /** The document's scroll width at that width (clientWidth is `width` less any scroll bar). */
  scrollWidth: number;
  clientWidth: number;
  horizontalScroll: boolean;
  findings: CheckFinding[];
}

/** One stop of the keyboard walk. */
export interface FocusStop {
  selector: string;
  name: string;
  tag: string;
  /** False when nothing visible changed on the element (or its parent) when it took focus. */
  indicator: boolean;
  /** PNG crop of the element while focused (the screenshot strip), while the strip's cap allows. */
  screenshot?: string;
}

/** The keyboard walk (WCAG 2.1.1, 2.1.2, 2.4.3, 2.4.7). */
export interface KeyboardWalkResult {
  /** Tab presses made. */
  presses: number;
  /** Focus order, first Tab first (each element once, in the order first reached). */
  stops: FocusStop[];
  /** Visible, enabled elements in the tab order that the walk expected to reach. */
  tabbable: number;
  /** How the walk ended. */
  ended: 'cycled' | 'trapped' | 'limit';
  findings: CheckFinding[];
}

/** A page's findings beyond axe. */
export interface PageReview {
  /** Findings in all: the report's "needs review" count of these checks (not in the score). */
  needsReview: number;
  reflow?: ReflowResult;
  keyboard?: KeyboardWalkResult;
  /** A check that could not run, with the reason (the page's axe results stand). */
  errors?: string[];
}
