import type { Report } from '../report/report.types';
import { scoreBand } from '../scoring/score';
import { dateOf, escapeXml } from './escape';

/** Badge colours by score band (white text on each is at least 4.5:1). */
export const BADGE_COLOURS = { good: '#0b6b2e', average: '#8a4b00', poor: '#b3261e' } as const;

/** Grey of the badge without a score (white text on it is 7:1). */
export const MISSING_COLOUR = '#595959';

/** Rough width of Verdana 11px text, as shields-style badges estimate it. */
const textWidth = (s: string): number => Math.ceil(s.length * 6.6) + 12;

const LEFT = 'a11y (automated)';

/** A shields-style two-part badge: dark left label, coloured right value, all of it a link. */
function drawBadge(right: string, colour: string, title: string, href: string): string {
  const lw = textWidth(LEFT);
  const rw = textWidth(right);
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${lw + rw}" height="20" role="img" aria-label="${escapeXml(title)}">
<title>${escapeXml(title)}</title>
<a xlink:href="${escapeXml(href)}" href="${escapeXml(href)}" target="_blank">
<rect width="${lw}" height="20" fill="#333"/>
<rect x="${lw}" width="${rw}" height="20" fill="${colour}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="14">${escapeXml(LEFT)}</text>
<text x="${lw + rw / 2}" y="14">${escapeXml(right)}</text>
</g>
</a>
</svg>
`;
}

/**
 * An embeddable SVG badge: "a11y (automated) | 92/100 · 2026-11-21", coloured by band, linking to
 * the public report. Its title says it is an automated score, not a compliance certificate.
 */
export function renderBadge(report: Pick<Report, 'id' | 'score' | 'scannedAt'>, publicUrl: string): string {
  const title = `Automated accessibility score ${report.score}/100 (axe-core, WCAG 2.2 A/AA checks) on ${dateOf(report.scannedAt)}. Not a compliance certificate.`;
  return drawBadge(
    `${report.score}/100 · ${dateOf(report.scannedAt)}`,
    BADGE_COLOURS[scoreBand(report.score)],
    title,
    publicUrl,
  );
}

/**
 * The badge when there is no report to show: `expired` (the report expired and its address has no
 * newer one) or `none` (never scanned, or unknown). An image, never an error body, so a README
 * that embeds it shows a readable badge rather than a broken image. Links to the scan form.
 */
export function renderMissingBadge(kind: 'expired' | 'none', scanUrl: string): string {
  const why =
    kind === 'expired'
      ? 'the report expired (reports are kept 30 days) and the address was not scanned since'
      : 'this address has no stored report';
  return drawBadge(
    kind === 'expired' ? 'report expired' : 'not scanned',
    MISSING_COLOUR,
    `No current accessibility report: ${why}. Scan it to update the badge.`,
    scanUrl,
  );
}
