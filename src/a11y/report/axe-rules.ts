import type { Impact } from '../scoring/score';
import { isImpact } from '../scoring/score';

/** What the report says about a rule: from our own axe-core package, never from a scanned page. */
export interface RuleMeta {
  id: string;
  /** The rule's static impact (scores passes and violations). */
  impact: Impact;
  help: string;
  helpUrl: string;
  tags: readonly string[];
}

interface AxeNode {
  version: string;
  getRules(): { ruleId: string; help: string; helpUrl: string; tags: string[] }[];
  _audit: { rules: { id: string; impact?: string }[] };
}

// axe-core loads in Node without a DOM: its rule metadata (ids, impacts, help texts) is plain data.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const axe = require('axe-core') as AxeNode;

/** The axe-core version the scans inject (same package as AXE_SOURCE). */
export const AXE_VERSION: string = axe.version;

/** Every axe rule by id: read once per process from the package, so no page can change it. */
export const AXE_RULES: ReadonlyMap<string, RuleMeta> = (() => {
  const impacts = new Map(axe._audit.rules.map((r) => [r.id, r.impact]));
  const out = new Map<string, RuleMeta>();
  for (const r of axe.getRules()) {
    const impact = impacts.get(r.ruleId);
    out.set(
      r.ruleId,
      Object.freeze({
        id: r.ruleId,
        impact: isImpact(impact) ? impact : 'moderate',
        help: r.help,
        helpUrl: r.helpUrl,
        tags: Object.freeze([...r.tags]),
      }),
    );
  }
  return out;
})();
