import { DomainError } from '../../common/errors/domain-error';
import { parseTargetUrl } from '../../common/egress/target-guard';
import { PAGE_SOURCES, type ExcludedSelector, type PageSource, type SiteInput, type SiteSchedule } from './site.types';

/** Pages per site scan: the default and the most an admin may set. */
export const DEFAULT_PAGE_BUDGET = 100;
export const MAX_PAGE_BUDGET = 1000;
/** Listed URLs, patterns, ignored rules and excluded selectors per site. */
export const MAX_LIST_ENTRIES = 1000;
export const MAX_PATTERNS = 50;
export const DEFAULT_ALERT_DROP = 5;

const lines = (s: string | undefined): string[] =>
  (s ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

const capped = <T>(list: T[], max: number, field: string, what: string): T[] => {
  if (list.length > max) throw DomainError.badRequest(`At most ${max} ${what}.`, field);
  return list;
};

/** The site settings form (field name -> text), validated. Messages name the field they are about. */
export function parseSiteForm(f: Record<string, string | undefined>): SiteInput {
  const start = parseTargetUrl(f.start_url?.trim() || undefined);
  const origin = start.origin;
  const sameOrigin = (raw: string, field: string): string => {
    let u: URL;
    try {
      u = new URL(raw, start);
    } catch {
      throw DomainError.badRequest(`Not an address: ${raw}`, field);
    }
    if (u.origin !== origin)
      throw DomainError.badRequest(
        `${u.href} is not on ${origin}: a site's pages share its start URL's origin.`,
        field,
      );
    u.hash = '';
    return u.href;
  };
  const sitemap = f.sitemap_url?.trim() ? sameOrigin(f.sitemap_url.trim(), 'sitemap_url') : null;
  const urls = capped(lines(f.urls), MAX_LIST_ENTRIES, 'urls', 'listed addresses').map((u) => sameOrigin(u, 'urls'));
  const pageSource = pageSourceOf(f.page_source, sitemap, urls);
  const budgetText = f.page_budget?.trim() || String(DEFAULT_PAGE_BUDGET);
  const budget = Number(budgetText);
  if (!Number.isInteger(budget) || budget < 1 || budget > MAX_PAGE_BUDGET)
    throw DomainError.badRequest(`The page budget is a whole number from 1 to ${MAX_PAGE_BUDGET}.`, 'page_budget');
  const dropText = f.alert_drop?.trim() || String(DEFAULT_ALERT_DROP);
  const drop = Number(dropText);
  if (!Number.isInteger(drop) || drop < 1 || drop > 100)
    throw DomainError.badRequest(
      'The score drop that raises an alert is a whole number of points from 1 to 100.',
      'alert_drop',
    );
  const schedule = (f.schedule ?? 'off') as SiteSchedule;
  if (!['off', 'daily', 'weekly'].includes(schedule))
    throw DomainError.badRequest('The schedule is off, daily or weekly.', 'schedule');
  const rules = capped(
    (f.ignore_rules ?? '').split(/[\s,]+/).filter((r) => r !== ''),
    MAX_PATTERNS,
    'ignore_rules',
    'ignored rules',
  );
  for (const r of rules)
    if (!/^[a-z0-9-]{1,80}$/.test(r))
      throw DomainError.badRequest(`${r} is not an axe rule id (such as color-contrast).`, 'ignore_rules');
  const selectors: ExcludedSelector[] = capped(
    lines(f.excluded_selectors),
    MAX_PATTERNS,
    'excluded_selectors',
    'excluded selectors',
  ).map((l) => {
    const bar = l.indexOf('|');
    const selector = (bar < 0 ? l : l.slice(0, bar)).trim();
    const reason = bar < 0 ? '' : l.slice(bar + 1).trim();
    if (!selector || !reason)
      throw DomainError.badRequest(
        `Give each excluded selector a reason after a bar: "${l}" (e.g. #chat-widget | third-party chat, audited by its vendor).`,
        'excluded_selectors',
      );
    return { selector: selector.slice(0, 300), reason: reason.slice(0, 300) };
  });
  const name = (f.name?.trim() || start.host).slice(0, 200);
  return {
    name,
    start_url: start.href,
    sitemap_url: sitemap,
    urls,
    page_source: pageSource,
    include_patterns: capped(lines(f.include_patterns), MAX_PATTERNS, 'include_patterns', 'include patterns'),
    exclude_patterns: capped(lines(f.exclude_patterns), MAX_PATTERNS, 'exclude_patterns', 'exclude patterns'),
    page_budget: budget,
    respect_robots: f.respect_robots !== 'no',
    ignore_rules: rules,
    excluded_selectors: selectors,
    schedule,
    alert_drop: drop,
  };
}

/**
 * Where the pages come from (`page_source`): sitemap, list or crawl, checked against what was given.
 * Not given (a form or a caller that predates the choice): the sitemap when there is one, else the list
 * when it has addresses, else the crawl, as before the choice existed.
 */
function pageSourceOf(raw: string | undefined, sitemap: string | null, urls: readonly string[]): PageSource {
  const given = raw?.trim();
  if (!given) return sitemap ? 'sitemap' : urls.length ? 'list' : 'crawl';
  if (!(PAGE_SOURCES as readonly string[]).includes(given))
    throw DomainError.badRequest(
      'The pages come from the sitemap, the list or a crawl from the start URL.',
      'page_source',
    );
  if (given === 'sitemap' && !sitemap)
    throw DomainError.badRequest("Give the sitemap's address, or choose another source of pages.", 'sitemap_url');
  if (given === 'list' && !urls.length)
    throw DomainError.badRequest(
      'Give the pages to scan, one address per line, or choose another source of pages.',
      'urls',
    );
  return given as PageSource;
}

/** A URL pattern: `*` matches any characters, matched against the path and query (`/blog/*`). */
export function matchesPattern(url: string, pattern: string): boolean {
  const u = new URL(url);
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(`${u.pathname}${u.search}`);
}
