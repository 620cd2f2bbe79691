/**
 * A realistic demo project generated deterministically in code (no fixture): a CRM vendor, three
 * competitors, buyer prompts, weekly scans on several AI platforms. The brand's visibility rises
 * slowly over the weeks; some answers fail; citations come from a pool of real-world-like sources.
 * Also used by the tests and the benchmark (with larger sizes).
 */

/** mulberry32: a small seeded PRNG, so every run generates the same data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DemoOptions {
  scans?: number;
  /** Number of prompts (>= 1). */
  prompts?: number;
  platforms?: string[];
  /** Answers per prompt and platform in each scan. */
  samples?: number;
  /** Date of the last scan (YYYY-MM-DD); earlier scans are one week apart. */
  lastDate?: string;
  seed?: number;
  /** Prefix of the scan ids. */
  scanPrefix?: string;
}

const TOPICS = [
  'best crm for startups',
  'crm with email automation',
  'cheapest crm for small business',
  'crm for real estate agents',
  'hubspot alternatives',
  'salesforce alternatives for smb',
  'crm with whatsapp integration',
  'open source crm options',
  'crm for b2b saas sales teams',
  'simple crm for freelancers',
  'crm with good mobile app',
  'crm that integrates with gmail',
  'which crm has the best reporting',
  'crm for nonprofits',
  'easiest crm to set up',
  'crm with built-in calling',
  'crm for agencies',
  'gdpr compliant crm europe',
  'crm pricing comparison 2026',
  'crm for ecommerce stores',
  'ai powered crm tools',
  'crm with pipeline forecasting',
  'crm for consultants',
  'migrating from spreadsheets to a crm',
];
const TAGS = ['pricing', 'comparison', 'smb', 'enterprise', 'integrations', 'vertical'];
const INTENTS = ['commercial', 'informational', 'transactional', 'navigational'];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA'];
const MODELS: Record<string, string> = {
  chatgpt: 'gpt-5',
  perplexity: 'sonar-pro',
  gemini: 'gemini-2.5-pro',
  claude: 'claude-sonnet-4.5',
  copilot: 'copilot-gpt-5',
};

export const DEMO_BRAND = { name: 'Acme CRM', aliases: ['Acme', 'AcmeCRM'], domains: ['acme-crm.com'] };
export const DEMO_COMPETITORS = [
  { name: 'Globex', aliases: ['Globex CRM'], domains: ['globex.com'] },
  { name: 'Initech', aliases: ['Initech Sales Cloud'], domains: ['initech.io'] },
  { name: 'Hooli CRM', aliases: ['Hooli'], domains: ['hooli.com'] },
];

const SOURCES = [
  'https://www.g2.com/categories/crm',
  'https://www.capterra.com/customer-relationship-management-software/',
  'https://www.reddit.com/r/sales/comments/crm_recommendations',
  'https://www.reddit.com/r/smallbusiness/comments/which_crm',
  'https://www.youtube.com/watch?v=crm-review-2026',
  'https://www.forbes.com/advisor/business/software/best-crm-small-business/',
  'https://en.wikipedia.org/wiki/Customer_relationship_management',
  'https://www.techradar.com/best/best-crm-software',
  'https://www.trustradius.com/crm',
  'https://zapier.com/blog/best-crm-app/',
  'https://www.linkedin.com/pulse/choosing-a-crm',
  'https://www.sba.gov/business-guide/manage-your-business/crm',
  'https://www.amazon.com/crm-books',
  'https://crm-weekly.net/reviews/2026',
  'https://www.nerdwallet.com/article/small-business/best-crm-software',
];
const OWNED = ['https://acme-crm.com/pricing', 'https://acme-crm.com/features', 'https://blog.acme-crm.com/crm-guide'];
const COMPETITOR_URLS: Record<string, string[]> = {
  Globex: ['https://globex.com/crm', 'https://www.globex.com/pricing?utm_source=chatgpt'],
  Initech: ['https://initech.io/sales-cloud'],
  'Hooli CRM': ['https://hooli.com/crm/features'],
};

const pick = <T>(r: () => number, xs: T[]): T => xs[Math.floor(r() * xs.length)];
const isoDate = (d: Date): string => d.toISOString().slice(0, 10);

/** The import documents of the demo project, oldest scan first. */
export function demoImports(o: DemoOptions = {}): unknown[] {
  const scans = o.scans ?? 6;
  const promptCount = o.prompts ?? 24;
  const platforms = o.platforms ?? ['chatgpt', 'perplexity', 'gemini'];
  const samples = o.samples ?? 1;
  const last = new Date(`${o.lastDate ?? '2026-11-16'}T00:00:00Z`);
  const rnd = prng(o.seed ?? 42);
  const prompts = Array.from({ length: promptCount }, (_, i) => ({
    id: `p${String(i + 1).padStart(3, '0')}`,
    text: i < TOPICS.length ? TOPICS[i] : `${TOPICS[i % TOPICS.length]} (variant ${Math.floor(i / TOPICS.length)})`,
    tags: [TAGS[i % TAGS.length], ...(i % 4 === 0 ? ['priority'] : [])],
    intent: INTENTS[i % INTENTS.length],
    country: COUNTRIES[i % COUNTRIES.length],
    enabled: i % 11 !== 10,
  }));
  const out: unknown[] = [];
  for (let s = 0; s < scans; s++) {
    const date = new Date(last.getTime() - (scans - 1 - s) * 7 * 86400000);
    // The brand's chance of a mention grows from ~12 % to ~30 % over the scans; platforms differ.
    const progress = scans > 1 ? s / (scans - 1) : 1;
    const answers = [];
    for (const p of prompts) {
      for (const [pi, platform] of platforms.entries()) {
        for (let k = 0; k < samples; k++) {
          if (rnd() < 0.04) {
            answers.push({
              prompt_id: p.id,
              platform,
              model: MODELS[platform] ?? null,
              status: 'error',
              text: '',
              citations: [],
            });
            continue;
          }
          const brandP = 0.12 + 0.18 * progress + (pi === 1 ? 0.08 : 0) - (pi === 2 ? 0.04 : 0);
          const named: string[] = [];
          if (rnd() < brandP) named.push(rnd() < 0.3 ? 'Acme' : 'Acme CRM');
          for (const [ci, c] of DEMO_COMPETITORS.entries())
            if (rnd() < 0.45 - ci * 0.1) named.push(rnd() < 0.7 ? c.name : c.aliases[0]);
          for (let i = named.length - 1; i > 0; i--) {
            const j = Math.floor(rnd() * (i + 1));
            [named[i], named[j]] = [named[j], named[i]];
          }
          const text =
            named.length === 0
              ? `For "${p.text}", most teams compare a handful of tools on price, integrations and support. Start with a free trial and check the reviews.`
              : `For "${p.text}", good options include ${named.join(', ')}. ${named[0]} stands out for ease of use; compare pricing tiers before you commit.`;
          const citations = new Set<string>();
          const n = Math.floor(rnd() * 4);
          for (let i = 0; i < n; i++) citations.add(pick(rnd, SOURCES));
          // Threads and videos about one question: cited rarely, so some become citation gaps.
          if (rnd() < 0.25) citations.add(`https://www.reddit.com/r/sales/comments/${p.id}/`);
          if (rnd() < 0.1) citations.add(`https://www.youtube.com/watch?v=${p.id}`);
          if (named.some((x) => x.startsWith('Acme')) && rnd() < 0.5) citations.add(pick(rnd, OWNED));
          for (const c of DEMO_COMPETITORS) {
            if (named.some((x) => x === c.name || x === c.aliases[0]) && rnd() < 0.35)
              citations.add(pick(rnd, COMPETITOR_URLS[c.name]));
          }
          answers.push({
            prompt_id: p.id,
            platform,
            model: MODELS[platform] ?? null,
            status: 'ok',
            text,
            citations: [...citations],
          });
        }
      }
    }
    out.push({
      business: 'Acme CRM',
      brand: DEMO_BRAND,
      competitors: DEMO_COMPETITORS,
      prompts,
      scan: { id: `${o.scanPrefix ?? 'demo'}-${isoDate(date)}`, date: isoDate(date), platforms, answers },
    });
  }
  return out;
}
