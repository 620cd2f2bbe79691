/**
 * The Trends page (issue #22 item 6): each figure over the scans, by platform and by competitor,
 * a chart and below it the table of the same numbers (the chart is an image to a screen reader).
 */
import type { UserView } from '../../accounts/accounts.service';
import { html, SafeHtml } from '../../common/html/html';
import { plural } from '../../common/text/plural';
import type { TrendScan } from '../../visibility/visibility-query.service';
import { Series, trendChart } from '../render/trend-chart';
import { percent } from '../render/values';
import { dashboardPage, table } from './dashboard.pages';
import { csvLink } from './dashboard-lists.pages';

interface Figure {
  id: string;
  title: string;
  series: Series[];
}

/** Every name that appears in any scan, in the order first seen (a platform or competitor may come and go). */
function names<T>(scans: TrendScan[], of: (s: TrendScan) => T[], name: (x: T) => string): string[] {
  const out: string[] = [];
  for (const s of scans) for (const x of of(s)) if (!out.includes(name(x))) out.push(name(x));
  return out;
}

export function trendFigures(scans: TrendScan[], brand: string): Figure[] {
  const platforms = names(
    scans,
    (s) => s.platforms,
    (p) => p.platform,
  );
  const competitors = names(
    scans,
    (s) => s.competitors,
    (c) => c.name,
  );
  const byPlatform = (key: 'mention_rate' | 'share_of_voice' | 'citation_rate'): Series[] =>
    platforms.map((name) => ({
      name,
      values: scans.map((s) => s.platforms.find((p) => p.platform === name)?.[key] ?? null),
    }));
  const byCompetitor = (key: 'mention_rate' | 'share_of_voice'): Series[] => [
    { name: `${brand} (you)`, values: scans.map((s) => s[key]) },
    ...competitors.map((name) => ({
      name,
      values: scans.map((s) => s.competitors.find((c) => c.name === name)?.[key] ?? null),
    })),
  ];
  return [
    { id: 'mention-rate-platform', title: 'Mention rate by platform', series: byPlatform('mention_rate') },
    { id: 'share-of-voice-platform', title: 'Share of voice by platform', series: byPlatform('share_of_voice') },
    { id: 'citation-rate-platform', title: 'Citation rate by platform', series: byPlatform('citation_rate') },
    {
      id: 'mention-rate-competitor',
      title: 'Mention rate: you and your competitors',
      series: byCompetitor('mention_rate'),
    },
    {
      id: 'share-of-voice-competitor',
      title: 'Share of voice: you and your competitors',
      series: byCompetitor('share_of_voice'),
    },
  ];
}

function figure(f: Figure, scans: TrendScan[]): SafeHtml {
  const labels = scans.map((s) => s.date);
  const span = scans.length ? `from ${scans[0].date} to ${scans[scans.length - 1].date}` : '';
  return html`<section class="trend" aria-labelledby="${f.id}-h">
<h2 id="${f.id}-h">${f.title}</h2>
<div class="chart-scroll" tabindex="0" role="region" aria-label="${f.title}: chart (scrolls sideways on a narrow screen)">${trendChart(
    f.id,
    labels,
    f.series,
    {
      title: `${f.title}, in percent`,
      desc: `${f.series.length} lines (${f.series.map((s) => s.name).join(', ')}) over ${plural(scans.length, 'scan')} ${span}. The table beside has the same data.`,
      unit: '%',
    },
  )}</div>
${table(
  `${f.title} per scan (the data of the chart), in percent; – where the scan has no sample`,
  ['Scan', ...f.series.map((s): [string, 'num'] => [s.name, 'num'])],
  scans.map((s, i) => [`${s.date} (${s.scan_id})`, ...f.series.map((x) => percent(x.values[i]))]),
  'No scan yet.',
)}
</section>`;
}

export function trendsPage(user: UserView, csrf: string, business: string, brand: string, scans: TrendScan[]): string {
  return dashboardPage(
    user,
    csrf,
    'Trends',
    'trends',
    html`${business}: trends`,
    html`<p class="meta">Each figure over the last ${plural(scans.length, 'scan')}, by platform and by competitor. Each chart is followed by a table of the same numbers.</p>
${csvLink('/dashboard/export/history.csv', 'the scan history', 'every scan with its overall figures')}
${trendFigures(scans, brand).map((f) => figure(f, scans))}`,
  );
}
