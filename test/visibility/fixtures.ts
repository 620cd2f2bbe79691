/** A small hand-computed project: the expectations in the e2e tests are worked out from it by hand. */
export const base = {
  business: 'Acme Inc',
  brand: { name: 'Acme', aliases: ['Acme Inc'], domains: ['acme.com'] },
  competitors: [
    { name: 'Globex', aliases: [], domains: ['globex.com'] },
    { name: 'Initech', aliases: [] },
  ],
  prompts: [
    { id: 'p1', text: 'best crm for startups', tags: ['crm'], intent: 'commercial', country: 'us', enabled: true },
    { id: 'p2', text: 'crm pricing', tags: ['pricing', 'crm'], intent: 'commercial', country: 'GB', enabled: true },
    { id: 'p3', text: 'what is a crm', tags: [], intent: 'informational', enabled: false },
  ],
};

/** Older scan, one platform: 2 successful answers, no brand mention, Globex once. */
export const scan1 = {
  ...base,
  scan: {
    id: 's1',
    date: '2026-11-09',
    platforms: ['chatgpt'],
    answers: [
      {
        prompt_id: 'p1',
        platform: 'chatgpt',
        model: 'gpt-5',
        status: 'ok',
        text: 'Globex only.',
        citations: ['https://www.g2.com/crm'],
      },
      { prompt_id: 'p2', platform: 'chatgpt', model: 'gpt-5', status: 'ok', text: 'Nothing here.', citations: [] },
    ],
  },
};

/** Latest scan: 6 answers, 5 successful, brand in #0 and #5. */
export const scan2 = {
  ...base,
  scan: {
    id: 's2',
    date: '2026-11-16',
    platforms: ['chatgpt', 'perplexity'],
    answers: [
      {
        prompt_id: 'p1',
        platform: 'chatgpt',
        model: 'gpt-5',
        status: 'ok',
        text: 'I like Acme. Globex too.',
        citations: ['https://www.g2.com/crm', 'https://acme.com/pricing'],
      },
      {
        prompt_id: 'p1',
        platform: 'perplexity',
        model: 'sonar',
        status: 'ok',
        text: 'Globex and Initech lead.',
        citations: ['https://www.g2.com/crm?utm_source=perplexity', 'https://reddit.com/r/crm'],
      },
      {
        prompt_id: 'p2',
        platform: 'chatgpt',
        model: 'gpt-5',
        status: 'ok',
        text: 'Try Acmeville tools.',
        citations: ['https://reddit.com/r/crm/'],
      },
      { prompt_id: 'p2', platform: 'perplexity', model: 'sonar', status: 'error', text: '', citations: [] },
      {
        prompt_id: 'p3',
        platform: 'chatgpt',
        model: 'gpt-5',
        status: 'ok',
        text: 'Globex pricing: see globex.com',
        citations: ['https://globex.com/pricing', 'https://www.youtube.com/watch?v=1'],
      },
      {
        prompt_id: 'p3',
        platform: 'perplexity',
        model: 'sonar',
        status: 'ok',
        text: 'ACME INC and initech.',
        citations: ['https://en.wikipedia.org/wiki/CRM#History'],
      },
    ],
  },
};

/** The citation gaps of scan1, worked out by hand (the derivation's and the API's expected answer). */
export const SCAN1_GAPS = [
  {
    url: 'https://globex.com/pricing',
    domain: 'globex.com',
    category: 'competitor',
    answers: 1,
    competitors: ['Globex'],
    prompts: ['p3'],
    platforms: ['chatgpt'],
  },
  {
    url: 'https://reddit.com/r/crm',
    domain: 'reddit.com',
    category: 'ugc',
    answers: 1,
    competitors: ['Globex', 'Initech'],
    prompts: ['p1'],
    platforms: ['perplexity'],
  },
  {
    url: 'https://youtube.com/watch?v=1',
    domain: 'youtube.com',
    category: 'video',
    answers: 1,
    competitors: ['Globex'],
    prompts: ['p3'],
    platforms: ['chatgpt'],
  },
];
