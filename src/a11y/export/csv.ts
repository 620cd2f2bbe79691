import type { GateCase } from './gate';

/**
 * Columns of the CSV export, in order (one row per failing element, or per rule when it names no element);
 * `viewport` (desktop, phone) was appended last, after the columns consumers already read by position.
 */
export const CSV_COLUMNS = [
  'page',
  'rule',
  'impact',
  'outcome',
  'help',
  'help_url',
  'selector',
  'html',
  'fingerprint',
  'new',
  'viewport',
] as const;

/** One CSV field (RFC 4180): quoted when needed; a leading =, +, - or @ is prefixed with ' (no formula in a spreadsheet). */
function field(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * CSV of the gate's violation cases (failed and reported) of a report or a site scan: one row per
 * failing element, CRLF line ends, a header row of CSV_COLUMNS.
 */
export function renderCsv(cases: readonly GateCase[]): string {
  const rows: string[][] = [[...CSV_COLUMNS]];
  for (const c of cases) {
    if (c.outcome !== 'failed' && c.outcome !== 'reported') continue;
    const base = [c.page, c.rule, c.impact, c.outcome, c.help, c.helpUrl];
    const viewport = c.viewport ?? '';
    if (!c.nodes.length) rows.push([...base, '', '', '', '', viewport]);
    for (const n of c.nodes)
      rows.push([
        ...base,
        n.target.join(' | '),
        n.html,
        n.fingerprint,
        n.isNew === undefined ? '' : n.isNew ? 'yes' : 'no',
        viewport,
      ]);
  }
  return rows.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}
