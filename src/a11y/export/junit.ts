import type { Report } from '../report/report.types';
import { escapeXml as e } from '../render/escape';
import { type GateCase, viewportSuffix } from './gate';

/** XML 1.0 forbids most control characters even when escaped. */
const xmlText = (s: string): string =>
  e(s.replace(/[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd'));

function nodeLines(c: GateCase): string {
  return c.nodes
    .map(
      (n, i) =>
        `${i + 1}. ${n.target.join(' | ')}${n.isNew === undefined ? '' : n.isNew ? ' (new)' : ' (still there)'}\n   ${n.html}`,
    )
    .join('\n');
}

/**
 * JUnit XML of a report for CI: one <testsuite> per page, one <testcase> per rule (classname = page
 * address, name = rule id and help). A rule that fails the gate has a <failure> listing its
 * elements; a violation the gate lets through passes with the elements in <system-out>; a rule
 * that only needs human review is <skipped>. Attribute counts follow the usual (Ant/Jenkins) schema.
 * A site scan lists a page once per viewport: each suite then has a `viewport` property, and at another
 * viewport than desktop the suite and test case names end with it (" (phone 375)"), so CI tools, which
 * key a test by class name and name, keep the two apart.
 */
export function renderJunit(report: Report, cases: readonly GateCase[], publicUrl: string): string {
  const pages = report.pages.map((p, i) => ({ p, cases: cases.filter((c) => c.pageIndex === i) }));
  const count = (cs: readonly GateCase[], o: GateCase['outcome']): number => cs.filter((c) => c.outcome === o).length;
  const time = (ms: number): string => (ms / 1000).toFixed(3);
  const suites = pages.map(({ p, cases: cs }, i) => {
    const viewport = cs[0]?.viewport; // every case of a page has its page's
    const at = viewportSuffix({ viewport });
    const testcases = cs.map((c) => {
      const name = xmlText(`${c.rule}: ${c.help}${at}`);
      const head = `<testcase name="${name}" classname="${xmlText(c.page)}" time="0"`;
      if (c.outcome === 'failed') {
        const message = `${c.nodes.length} element${c.nodes.length === 1 ? '' : 's'} fail ${c.rule} (${c.impact})`;
        return `${head}>\n<failure message="${xmlText(message)}" type="${c.impact}">${xmlText(`${c.help}\nHow to fix: ${c.helpUrl}\n${nodeLines(c)}`)}</failure>\n</testcase>`;
      }
      if (c.outcome === 'review') return `${head}>\n<skipped message="needs human review"/>\n</testcase>`;
      if (c.outcome === 'reported')
        return `${head}>\n<system-out>${xmlText(`Not failing the gate: ${c.reason}.\n${nodeLines(c)}`)}</system-out>\n</testcase>`;
      return `${head}/>`;
    });
    return `<testsuite name="${xmlText(`accessibility: ${p.url}${at}`)}" id="${i}" package="beacon.a11y" hostname="beacon" tests="${cs.length}" failures="${count(cs, 'failed')}" errors="0" skipped="${count(cs, 'review')}" time="${time(p.timings.totalMs)}" timestamp="${report.scannedAt.slice(0, 19)}">
<properties>
<property name="score" value="${p.score}"/>
<property name="report" value="${xmlText(publicUrl)}"/>${viewport ? `\n<property name="viewport" value="${viewport}"/>` : ''}
</properties>
${testcases.join('\n')}
<system-out>${xmlText(`Page score ${p.score}/100; report ${publicUrl}`)}</system-out>
<system-err></system-err>
</testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="${xmlText(`Beacon accessibility scan of ${report.url}`)}" tests="${cases.length}" failures="${count(cases, 'failed')}" errors="0" time="${time(report.meta.timings.totalMs)}">
${suites.join('\n')}
</testsuites>
`;
}
