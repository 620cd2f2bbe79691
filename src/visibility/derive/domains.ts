/**
 * Cited URLs and domains: normalisation, registrable domain (public suffix list via tldts) and
 * source category (see docs/visibility-metrics.md, "Sources").
 */
import { parse } from 'tldts';

export const SOURCE_CATEGORIES = [
  'owned',
  'competitor',
  'editorial',
  'ugc',
  'social',
  'video',
  'review',
  'reference',
  'institutional',
  'ecommerce',
  'other',
] as const;
export type SourceCategory = (typeof SOURCE_CATEGORIES)[number];

/** Query parameters that only track the click; dropped so one page is one URL. */
const TRACKING_PARAM = /^(utm_[a-z_]+|gclid|dclid|fbclid|msclkid|mc_cid|mc_eid|igshid|srsltid|ref_src|_hsenc|_hsmi)$/i;

export interface NormalisedUrl {
  /** scheme://host[:port]/path[?sorted query], lower-case host without `www.`, no fragment or trackers. */
  url: string;
  /** Host name, lower case, without a leading `www.`. */
  host: string;
  /** Registrable domain (public suffix list, private suffixes included); the host itself for IPs. */
  domain: string;
}

/** Lower-case host without a leading `www.` and without a trailing dot. */
export function normaliseHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');
}

/** Registrable domain of a host (e.g. `en.wikipedia.org` -> `wikipedia.org`, `x.github.io` stays). */
export function registrableDomain(host: string): string {
  const info = parse(host, { allowPrivateDomains: true });
  if (info.isIp || !info.domain) return host;
  return info.domain;
}

/** Normalises a cited URL; null when it is not an absolute http(s) URL with a host. */
export function normaliseUrl(raw: string): NormalisedUrl | null {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return null;
  const host = normaliseHost(u.hostname);
  const params = [...u.searchParams.entries()]
    .filter(([k]) => !TRACKING_PARAM.test(k))
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  let path = u.pathname;
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
  const port = u.port ? `:${u.port}` : '';
  return { url: `${u.protocol}//${host}${port}${path}${query}`, host, domain: registrableDomain(host) };
}

/** A project's domain as given in the import (`https://www.acme.com/x` or `Acme.com`) -> `acme.com`. */
export function normaliseProjectDomain(raw: string): string {
  const s = raw.trim().toLowerCase();
  const host = /^[a-z][a-z0-9+.-]*:\/\//.test(s) ? new URL(s).hostname : s.split(/[/?#]/)[0];
  return normaliseHost(host);
}

/** True when `host` is `domain` or one of its subdomains (suffix match on a dot, never a substring). */
export function hostMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** Curated table of well-known cited domains (registrable domains). */
const CURATED: Record<string, SourceCategory> = {};
const curate = (category: SourceCategory, domains: string): void => {
  for (const d of domains.split(/\s+/).filter(Boolean)) CURATED[d] = category;
};
curate(
  'editorial',
  `nytimes.com washingtonpost.com wsj.com ft.com economist.com theguardian.com bbc.co.uk bbc.com cnn.com
   reuters.com apnews.com bloomberg.com forbes.com businessinsider.com cnbc.com techcrunch.com theverge.com
   wired.com arstechnica.com engadget.com zdnet.com cnet.com pcmag.com techradar.com tomsguide.com
   venturebeat.com fastcompany.com inc.com entrepreneur.com hbr.org mashable.com gizmodo.com
   nerdwallet.com investopedia.com zapier.com hubspot.com`,
);
curate(
  'ugc',
  `reddit.com quora.com stackoverflow.com stackexchange.com medium.com substack.com dev.to
   hashnode.com github.com gitlab.com news.ycombinator.com ycombinator.com discord.com producthunt.com
   indiehackers.com tumblr.com`,
);
curate(
  'social',
  `twitter.com x.com facebook.com instagram.com linkedin.com threads.net pinterest.com
   snapchat.com bsky.app mastodon.social weibo.com vk.com`,
);
curate('video', 'youtube.com youtu.be vimeo.com tiktok.com twitch.tv dailymotion.com loom.com wistia.com');
curate(
  'review',
  `g2.com capterra.com trustpilot.com trustradius.com getapp.com softwareadvice.com gartner.com
   yelp.com tripadvisor.com glassdoor.com consumerreports.org sitejabber.com crozdesk.com
   softwaresuggest.com saasworthy.com`,
);
curate(
  'reference',
  `wikipedia.org wikimedia.org wikidata.org britannica.com merriam-webster.com dictionary.com
   w3.org mozilla.org arxiv.org scholar.google.com statista.com`,
);
curate(
  'ecommerce',
  `amazon.com amazon.co.uk amazon.de ebay.com etsy.com walmart.com target.com bestbuy.com
   aliexpress.com alibaba.com shopify.com appsumo.com`,
);

/** Public suffixes (or their first label) that mark public institutions. */
const INSTITUTIONAL_SUFFIX = /^(gov|mil|edu|int)$|^(gov|mil|edu|gouv|gob|govt|ac|go)\.[a-z]{2}$/;

export interface ProjectDomains {
  owned: string[];
  /** competitor name -> its domains */
  competitors: Array<{ name: string; domains: string[] }>;
}

/**
 * Category of a cited host: owned, then competitor (suffix match on the project's domains), then
 * the curated table (by registrable domain), then TLD rules (.gov, .edu, .ac.uk, ...), then other.
 */
export function categoryOf(host: string, project: ProjectDomains): SourceCategory {
  if (project.owned.some((d) => hostMatches(host, d))) return 'owned';
  if (project.competitors.some((c) => c.domains.some((d) => hostMatches(host, d)))) return 'competitor';
  const domain = registrableDomain(host);
  const curated = CURATED[domain] ?? CURATED[host];
  if (curated) return curated;
  const suffix = parse(host, { allowPrivateDomains: false }).publicSuffix ?? '';
  if (INSTITUTIONAL_SUFFIX.test(suffix)) return 'institutional';
  return 'other';
}
