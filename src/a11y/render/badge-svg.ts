import type { Report } from '../report/report.types';
import { scoreBand } from '../scoring/score';
import { dateOf, escapeXml } from './escape';

/** Badge colours by score band (white text on each is at least 4.5:1). */
export const BADGE_COLOURS = { good: '#0b6b2e', average: '#8a4b00', poor: '#b3261e' } as const;

/** Rough width of Verdana 11px text, as shields-style badges estimate it. */
const textWidth = (s: string): number => Math.ceil(s.length * 6.6) + 12;

/**
 * An embeddable SVG badge: "a11y (automated) | 92/100 · 2026-11-21", coloured by band, linking to
 * the public report. Its title says it is an automated score, not a compliance certificate.
 */
export function renderBadge(report: Pick<Report, 'id' | 'score' | 'scannedAt'>, publicUrl: string): string {
  const left = 'a11y (automated)';
  const right = `${report.score}/100 · ${dateOf(report.scannedAt)}`;
  const lw = textWidth(left);
  const rw = textWidth(right);
  const w = lw + rw;
  const colour = BADGE_COLOURS[scoreBand(report.score)];
  const title = `Automated accessibility score ${report.score}/100 (axe-core, WCAG 2.2 A/AA checks) on ${dateOf(report.scannedAt)}. Not a compliance certificate.`;
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${w}" height="20" role="img" aria-label="${escapeXml(title)}">
<title>${escapeXml(title)}</title>
<a xlink:href="${escapeXml(publicUrl)}" href="${escapeXml(publicUrl)}" target="_blank">
<rect width="${lw}" height="20" fill="#333"/>
<rect x="${lw}" width="${rw}" height="20" fill="${colour}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="14">${escapeXml(left)}</text>
<text x="${lw + rw / 2}" y="14">${escapeXml(right)}</text>
</g>
</a>
</svg>
`;
}
