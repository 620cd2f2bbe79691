import type { ReportMeta, ReportPage, ReportRule } from './report.types';

/** Steps tried, in order, when a report is too big: markup per element, then elements per rule. */
const HTML_STEPS = [500, 200];
const NODE_STEPS = [50, 20, 10, 5, 2, 1, 0];

const size = (pages: readonly ReportPage[]): number => Buffer.byteLength(JSON.stringify(pages));

function cut(r: ReportRule, maxNodes: number, maxHtml: number): ReportRule {
  const kept = r.nodes
    .slice(0, maxNodes)
    .map((n) => (n.html.length > maxHtml ? { ...n, html: `${n.html.slice(0, maxHtml)}…` } : n));
  return { ...r, nodes: kept, nodesOmitted: (r.nodesOmitted ?? 0) + (r.nodes.length - kept.length) };
}

/**
 * Keeps a report within `maxBytes`: first shortens each element's markup, then lists fewer
 * elements per rule; every element left out is counted in its rule's `nodesOmitted` (so totals,
 * scores and the renderings still say how many failed). Returns the pages and, when anything was
 * cut, what `meta.truncated` says.
 */
export function fitReport(
  pages: ReportPage[],
  maxBytes: number,
): { pages: ReportPage[]; truncated?: NonNullable<ReportMeta['truncated']> } {
  if (size(pages) <= maxBytes) return { pages };
  const before = pages.reduce(
    (n, p) => n + [...p.violations, ...p.incomplete].reduce((m, r) => m + r.nodes.length, 0),
    0,
  );
  let maxNodes = Infinity;
  let maxHtml = Infinity;
  let out = pages;
  const steps: [number, number][] = [
    ...HTML_STEPS.map((h): [number, number] => [Infinity, h]),
    ...NODE_STEPS.map((n): [number, number] => [n, HTML_STEPS[HTML_STEPS.length - 1]]),
  ];
  for (const [n, h] of steps) {
    maxNodes = n;
    maxHtml = h;
    out = pages.map((p) => ({
      ...p,
      violations: p.violations.map((r) => cut(r, n, h)),
      incomplete: p.incomplete.map((r) => cut(r, n, h)),
    }));
    if (size(out) <= maxBytes) break;
  }
  const after = out.reduce((n, p) => n + [...p.violations, ...p.incomplete].reduce((m, r) => m + r.nodes.length, 0), 0);
  return {
    pages: out,
    truncated: { nodesOmitted: before - after, maxNodesPerRule: Number.isFinite(maxNodes) ? maxNodes : -1, maxHtml },
  };
}
