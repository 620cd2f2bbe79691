import type { Report } from '../report/report.types';
import { wcagCriteria } from '../render/summary';
import { type GateCase, viewportSuffix } from './gate';

/** The SARIF 2.1.0 schema address tools recognise. */
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** Key of our element fingerprint in `partialFingerprints` (versioned: a new scheme gets a new key). */
export const FINGERPRINT_KEY = 'beaconElement/v1';

/**
 * SARIF 2.1.0 log of a report (one run; tool.driver = Beacon with the violated rules). One result
 * per failing element: level `error` when its rule fails the gate, `note` when the gate lets it
 * through (below fail_on, or not new with new_only). The location is the page address (an absolute
 * URI) with the element's selector as a logical location and its markup as the snippet;
 * `partialFingerprints` carries the element fingerprint so code-scanning tools track it across
 * runs; `baselineState` is set when a diff was used. A site scan's cases carry their viewport: each result
 * then has it in its property bag (`viewport`: desktop, phone), and at another viewport than desktop its
 * message ends with it (" (phone 375)") and so does its fingerprint ("/phone"): code scanning matches
 * results by rule, file and fingerprint, so an element failing at both viewports of one page would
 * otherwise be one alert, and fixing it at one viewport would close it. Desktop fingerprints stay the
 * element's own, as they always were.
 */
/** The element's fingerprint, followed by its viewport at another viewport than desktop ("…/phone"). */
export const sarifFingerprint = (fingerprint: string, c: Pick<GateCase, 'viewport'>): string =>
  c.viewport && c.viewport !== 'desktop' ? `${fingerprint}/${c.viewport}` : fingerprint;

export function renderSarif(report: Report, cases: readonly GateCase[], publicUrl: string): object {
  const violated = cases.filter((c) => c.outcome === 'failed' || c.outcome === 'reported');
  const ruleIds = [...new Set(violated.map((c) => c.rule))];
  const rules = ruleIds.map((id) => {
    const c = violated.find((x) => x.rule === id)!;
    const criteria = wcagCriteria(c.tags);
    return {
      id,
      name: id,
      shortDescription: { text: c.help },
      fullDescription: { text: `${c.help}${criteria.length ? ` (WCAG ${criteria.join(', ')})` : ''}` },
      helpUri: c.helpUrl,
      help: { text: `${c.help}. How to fix: ${c.helpUrl}` },
      defaultConfiguration: { level: 'error' },
      properties: { tags: ['accessibility', ...c.tags], impact: c.impact },
    };
  });
  const properties = (c: GateCase) => ({
    impact: c.impact,
    page: c.page,
    ...(c.viewport ? { viewport: c.viewport } : {}),
  });
  const pageLevel = (c: GateCase) => ({
    ruleId: c.rule,
    ruleIndex: ruleIds.indexOf(c.rule),
    level: c.outcome === 'failed' ? 'error' : 'note',
    message: { text: `${c.help}${viewportSuffix(c)}` },
    locations: [{ physicalLocation: { artifactLocation: { uri: c.page } } }],
    properties: properties(c),
  });
  const results = violated.flatMap((c) =>
    c.nodes.length === 0
      ? [pageLevel(c)]
      : c.nodes.map((n) => ({
          ruleId: c.rule,
          ruleIndex: ruleIds.indexOf(c.rule),
          level: c.outcome === 'failed' && (n.isNew ?? true) ? 'error' : 'note',
          message: { text: `${c.help} (${c.impact}): ${n.target.join(' | ')}${viewportSuffix(c)}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: c.page },
                region: { startLine: 1, snippet: { text: n.html } },
              },
              logicalLocations: [{ fullyQualifiedName: n.target.join(' | '), kind: 'element' }],
            },
          ],
          partialFingerprints: { [FINGERPRINT_KEY]: sarifFingerprint(n.fingerprint, c) },
          ...(n.isNew === undefined ? {} : { baselineState: n.isNew ? 'new' : 'unchanged' }),
          properties: properties(c),
        })),
  );
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Beacon accessibility scan',
            informationUri: publicUrl,
            version: report.meta.axeVersion,
            semanticVersion: report.meta.axeVersion,
            rules,
          },
        },
        automationDetails: { id: `beacon-a11y/${report.url}/` },
        invocations: [{ executionSuccessful: true, endTimeUtc: report.scannedAt }],
        results,
        properties: { reportId: report.id, score: report.score, report: publicUrl },
      },
    ],
  };
}
