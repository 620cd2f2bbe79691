import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { demoImports } from '../../src/visibility/demo/demo-data';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { recordApiResponses } from '../utils/openapi-responses';
import { createTestApp, TestApp } from '../utils/test-app';
import { scan1, scan2 } from './fixtures';

type Row = Record<string, string>;
type Item = Record<string, unknown>;
const LISTS = {
  answers: 'answers',
  sources: 'sources',
  urls: 'urls',
  gaps: 'gaps',
  history: 'scans',
  prompts: 'prompts',
} as const;
type List = keyof typeof LISTS;

/** What a cell of the documented CSV holds for a JSON value: arrays joined with " | ", null empty. */
const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.join(' | ');
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
};

/** The fixture project's six CSV files (scan s2 the latest), one array item a record, as the export wrote them. */
const SMALL_FILES: Record<string, string[]> = {
  'beacon-answers-s2.csv': [
    'scan_id,scan_date,index,prompt_id,prompt,platform,model,status,brand_mentioned,brand_position,brand_status,competitors_mentioned,competitors_absent,citations,cites_owned,text',
    's2,2026-11-16,0,p1,best crm for startups,chatgpt,gpt-5,ok,true,0,mentioned,Globex,,https://g2.com/crm | https://acme.com/pricing,true,"Acme, ""the best""\nsaid Globex; really =1+1"',
    's2,2026-11-16,1,p1,best crm for startups,perplexity,sonar,ok,false,,not_named,Globex | Initech,,https://g2.com/crm | https://reddit.com/r/crm,false,Globex and Initech lead.',
    's2,2026-11-16,2,p2,crm pricing,chatgpt,gpt-5,ok,false,,not_named,,,https://reddit.com/r/crm,false,Try Acmeville tools.',
    's2,2026-11-16,3,p2,crm pricing,perplexity,sonar,error,false,,not_named,,,,false,',
    's2,2026-11-16,4,p3,what is a crm,chatgpt,gpt-5,ok,false,,not_named,Globex,,https://globex.com/pricing | https://youtube.com/watch?v=1,false,Globex pricing: see globex.com',
    's2,2026-11-16,5,p3,what is a crm,perplexity,sonar,ok,true,0,mentioned,Initech,,https://en.wikipedia.org/wiki/CRM,false,ACME INC and initech.',
  ],
  'beacon-sources-s2.csv': [
    'scan_id,scan_date,domain,category,citations,answers,prompts,urls,platforms',
    's2,2026-11-16,g2.com,review,2,2,1,1,chatgpt | perplexity',
    's2,2026-11-16,reddit.com,ugc,2,2,2,1,chatgpt | perplexity',
    's2,2026-11-16,acme.com,owned,1,1,1,1,chatgpt',
    's2,2026-11-16,globex.com,competitor,1,1,1,1,chatgpt',
    's2,2026-11-16,wikipedia.org,reference,1,1,1,1,perplexity',
    's2,2026-11-16,youtube.com,video,1,1,1,1,chatgpt',
  ],
  'beacon-urls-s2.csv': [
    'scan_id,scan_date,url,domain,category,citations,answers,prompts,platforms',
    's2,2026-11-16,https://g2.com/crm,g2.com,review,2,2,1,chatgpt | perplexity',
    's2,2026-11-16,https://reddit.com/r/crm,reddit.com,ugc,2,2,2,chatgpt | perplexity',
    's2,2026-11-16,https://acme.com/pricing,acme.com,owned,1,1,1,chatgpt',
    's2,2026-11-16,https://en.wikipedia.org/wiki/CRM,wikipedia.org,reference,1,1,1,perplexity',
    's2,2026-11-16,https://globex.com/pricing,globex.com,competitor,1,1,1,chatgpt',
    's2,2026-11-16,https://youtube.com/watch?v=1,youtube.com,video,1,1,1,chatgpt',
  ],
  'beacon-gaps-s2.csv': [
    'scan_id,scan_date,url,domain,category,answers,competitors,prompts,platforms',
    's2,2026-11-16,https://globex.com/pricing,globex.com,competitor,1,Globex,p3,chatgpt',
    's2,2026-11-16,https://reddit.com/r/crm,reddit.com,ugc,1,Globex | Initech,p1,perplexity',
    's2,2026-11-16,https://youtube.com/watch?v=1,youtube.com,video,1,Globex,p3,chatgpt',
  ],
  'beacon-history.csv': [
    'scan_id,date,platforms,answers_total,answers_successful,answers_failed,grade,grade_reason,mention_rate,mention_rate_ci_low,mention_rate_ci_high,share_of_voice,share_of_voice_sample,share_of_voice_ci_low,share_of_voice_ci_high,citation_rate,owned_citation_rate,changes_detected,sources_gained,sources_lost,gaps_gained,gaps_lost',
    's2,2026-11-16,chatgpt | perplexity,6,5,1,,insufficient_data,40,11.8,76.9,28.6,7,8.2,64.1,100,20,sources_gained | gaps_gained | gaps_lost,5,0,3,1',
    's1,2026-11-09,chatgpt,2,2,0,,insufficient_data,0,0,65.8,0,1,0,79.3,50,0,,,,,',
  ],
  'beacon-prompts.csv': [
    'id,text,tags,intent,country,enabled,latest_answers,latest_mentions,latest_mention_rate',
    'p1,best crm for startups,crm,commercial,US,true,2,1,50',
    'p2,crm pricing,pricing | crm,commercial,GB,true,1,0,0',
    'p3,what is a crm,,informational,,false,2,1,50',
  ],
};

/** CSV exports of every list from the API with Accept: text/csv (issue #22 item 5). */
describe('Visibility CSV exports (e2e)', () => {
  let t: TestApp;
  let api: ReturnType<typeof recordApiResponses>;
  let key: string; // demo data: 3 scans of 40 prompts x 3 platforms x 2 samples (240 answers a scan)
  let tricky: string; // the fixture project, one answer text with quotes, commas and line breaks
  const get = (path: string, k = key) => request(t.server).get(`/api/v1${path}`).set('Authorization', `Bearer ${k}`);
  const csv = async (path: string, k = key): Promise<{ rows: Row[]; header: string[]; res: request.Response }> => {
    const res = await get(path, k)
      .set('Accept', 'text/csv')
      .buffer(true)
      .parse((r, done) => {
        let s = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (s += c));
        r.on('end', () => done(null, s));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="beacon-[a-z]+(-[A-Za-z0-9._-]+)?\.csv"$/,
    );
    const text = res.body as string;
    const header = text.slice(0, text.indexOf('\n')).split(','); // the names need no quoting
    return { rows: parse<Row>(text, { columns: true }), header, res };
  };
  /** Every item of a list through the JSON pages (500 a page). */
  const all = async (list: List, filters = '', k = key): Promise<Item[]> => {
    const out: Item[] = [];
    let cursor: string | null = null;
    do {
      const sep = filters ? '&' : '';
      const res = await get(`/${list}?${filters}${sep}limit=500${cursor ? `&cursor=${cursor}` : ''}`, k).expect(200);
      out.push(...(res.body[LISTS[list]] as Item[]));
      cursor = res.body.next_cursor as string | null;
    } while (cursor);
    return out;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { VISIBILITY_RATE_LIMIT: '100000' } });
    api = recordApiResponses(t.server);
    const ingest = t.app.get(VisibilityIngestService);
    key = (await t.createKey('exports')).key;
    for (const f of demoImports({ scans: 3, prompts: 40, samples: 2, seed: 5 })) await ingest.importScan('exports', f);
    tricky = (await t.createKey('tricky')).key;
    await ingest.importScan('tricky', scan1);
    const answers = scan2.scan.answers.map((a, i) =>
      i === 0 ? { ...a, text: 'Acme, "the best"\nsaid Globex; really =1+1' } : a,
    );
    await ingest.importScan('tricky', { ...scan2, scan: { ...scan2.scan, answers } });
  });
  afterEach(async () => api.expectValid());
  afterAll(async () => t?.close());

  it('answers: the documented columns, one row per answer of the JSON, the same values', async () => {
    const json = await all('answers');
    expect(json.length).toBeGreaterThan(200);
    const { rows, header } = await csv('/answers');
    expect(header).toEqual([
      'scan_id',
      'scan_date',
      'index',
      'prompt_id',
      'prompt',
      'platform',
      'model',
      'status',
      'brand_mentioned',
      'brand_position',
      'brand_status',
      'competitors_mentioned',
      'competitors_absent',
      'citations',
      'cites_owned',
      'text',
    ]);
    const scan = (await get('/answers?limit=1').expect(200)).body.scan as { scan_id: string; date: string };
    expect(rows).toEqual(
      json.map((a) => ({
        scan_id: scan.scan_id,
        scan_date: scan.date,
        ...Object.fromEntries(header.slice(2).map((h) => [h, cell(a[h])])),
      })),
    );
  });

  it('every other list parses back to its JSON, filters applied the same way', async () => {
    const cases: Array<[List, string]> = [
      ['sources', ''],
      ['sources', 'category=review'],
      ['urls', 'platform=gemini'],
      ['gaps', ''],
      ['history', ''],
      ['prompts', 'enabled=true'],
      ['answers', 'platform=chatgpt&mentioned=true'],
    ];
    for (const [list, filters] of cases) {
      const json = await all(list, filters);
      const { rows } = await csv(`/${list}?${filters}`);
      expect({ list, filters, rows: rows.length }).toEqual({ list, filters, rows: json.length });
      expect({ list, filters, empty: json.length === 0 }).toEqual({ list, filters, empty: false });
      const idKey =
        list === 'history'
          ? 'scan_id'
          : list === 'prompts'
            ? 'id'
            : list === 'sources'
              ? 'domain'
              : list === 'answers'
                ? 'index'
                : 'url';
      expect(rows.map((r) => r[idKey])).toEqual(json.map((j) => String(j[idKey])));
      // Shared scalar and array columns carry the JSON's values.
      for (const [i, r] of rows.entries()) {
        for (const [col, v] of Object.entries(json[i]))
          if (col in r && (typeof v !== 'object' || Array.isArray(v)))
            expect({ list, col, v: r[col] }).toEqual({ list, col, v: cell(v) });
      }
    }
    expect((await csv('/prompts')).rows.length).toBeGreaterThan((await csv('/prompts?enabled=true')).rows.length);
    const h = (await csv('/history')).rows;
    const j = await all('history');
    expect(h.map((r) => [r.mention_rate, r.answers_successful, r.grade, r.mention_rate_ci_low])).toEqual(
      j.map((x) => [
        cell(x.mention_rate),
        cell((x.answers as Item).successful),
        cell(x.grade),
        cell((x.mention_rate_ci as Item | null)?.low),
      ]),
    );
  });

  it('quotes, commas and line breaks in a text survive the round trip; the file names its scan', async () => {
    const { rows, res } = await csv('/answers', tricky);
    expect(rows[0].text).toBe('Acme, "the best"\nsaid Globex; really =1+1');
    expect(rows.map((r) => r.index)).toEqual((await all('answers', '', tricky)).map((a) => String(a.index)));
    expect(res.headers['content-disposition']).toBe('attachment; filename="beacon-answers-s2.csv"');
    expect(rows[0].brand_mentioned).toBe('true');
  });

  it('the six files of a small project, byte for byte: header, rows, quoting, empty cells, line ends', async () => {
    const files: Record<string, string> = {};
    for (const list of Object.keys(LISTS) as List[]) {
      const { res } = await csv(`/${list}`, tricky);
      const name = /filename="(.+)"$/.exec(res.headers['content-disposition'])?.[1] ?? '';
      files[name] = res.body as string;
    }
    const file = (rows: string[]): string => rows.map((r) => `${r}\n`).join('');
    expect(files).toEqual(Object.fromEntries(Object.entries(SMALL_FILES).map(([name, rows]) => [name, file(rows)])));
  });

  it('a refused filter or cursor is the JSON 400, before any CSV; CSV and JSON have their own ETags', async () => {
    const bad = await get('/answers?platform=Not%20One').set('Accept', 'text/csv').expect(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'bad_request', field: 'platform' });
    await get('/sources?cursor=zzz').set('Accept', 'text/csv').expect(400);
    const jsonTag = (await get('/gaps').expect(200)).headers.etag;
    const { res } = await csv('/gaps');
    const csvTag = res.headers.etag;
    expect(csvTag).toBeDefined();
    expect(csvTag).not.toBe(jsonTag);
    expect(res.headers.vary).toMatch(/Accept/);
    await get('/gaps').set('Accept', 'text/csv').set('If-None-Match', csvTag).expect(304);
    await get('/gaps').set('If-None-Match', csvTag).expect(200);
  });

  it('streams a few thousand rows page by page, none lost or repeated', async () => {
    const big = (await t.createKey('exports-big')).key;
    const [f] = demoImports({ scans: 1, prompts: 250, samples: 4, seed: 9 });
    await t.app.get(VisibilityIngestService).importScan('exports-big', f);
    const total = (await get('/answers?limit=1', big).expect(200)).body.total as number;
    expect(total).toBe(3000);
    const { rows } = await csv('/answers', big);
    expect(rows.length).toBe(total);
    const idx = rows.map((r) => Number(r.index));
    expect(new Set(idx).size).toBe(total);
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
  }, 60_000);
  describe('scan_id: any scan, not only the latest (issue #22 item 6)', () => {
    it('answers, sources, urls and gaps of an older scan; the latest stays the default', async () => {
      const s1 = await get('/answers?scan_id=s1', tricky).expect(200);
      expect(s1.body.scan).toEqual({ scan_id: 's1', date: '2026-11-09' });
      expect(s1.body.total).toBe(2);
      expect(s1.body.answers.map((a: Item) => a.text)).toEqual(['Globex only.', 'Nothing here.']);
      const latest = await get('/answers', tricky).expect(200);
      expect(latest.body.scan.scan_id).toBe('s2');
      expect((await get('/answers?scan_id=s2', tricky).expect(200)).body).toEqual(latest.body);
      const sources = await get('/sources?scan_id=s1', tricky).expect(200);
      expect(sources.body.scan.scan_id).toBe('s1');
      expect(sources.body.sources.map((x: Item) => [x.domain, x.citations])).toEqual([['g2.com', 1]]);
      const urls = await get('/urls?scan_id=s1&platform=chatgpt', tricky).expect(200);
      expect(urls.body.urls.map((x: Item) => x.url)).toEqual(['https://g2.com/crm']); // normalised: no www.
      const gaps = await get('/gaps?scan_id=s1', tricky).expect(200);
      expect(gaps.body).toMatchObject({
        scan: { scan_id: 's1' },
        total: 1,
        gaps: [{ url: 'https://g2.com/crm', competitors: ['Globex'] }],
      });
      // Every scan of the demo project: each list names the scan it is of, and totals differ between scans.
      const scans = (await get('/history').expect(200)).body.scans as Array<{
        scan_id: string;
        answers: { total: number };
      }>;
      for (const sc of scans) {
        const r = await get(`/answers?scan_id=${sc.scan_id}&limit=1`).expect(200);
        expect({ scan: r.body.scan.scan_id, total: r.body.total }).toEqual({
          scan: sc.scan_id,
          total: sc.answers.total,
        });
      }
    });

    it('prompts with the figures of the scan picked', async () => {
      const s1 = await get('/prompts?scan_id=s1', tricky).expect(200);
      expect(
        s1.body.prompts.map((x: { id: string; latest: Item | null }) => [
          x.id,
          x.latest && [x.latest.answers, x.latest.mentions, x.latest.mention_rate],
        ]),
      ).toEqual([
        ['p1', [1, 0, 0]],
        ['p2', [1, 0, 0]],
        ['p3', null],
      ]);
      const latest = await get('/prompts', tricky).expect(200);
      expect((await get('/prompts?scan_id=s2', tricky).expect(200)).body).toEqual(latest.body);
      await get('/prompts?scan_id=nope', tricky).expect(404);
      const { rows } = await csv('/prompts?scan_id=s1', tricky);
      expect(rows.map((r) => [r.id, r.latest_answers])).toEqual([
        ['p1', '1'],
        ['p2', '1'],
        ['p3', ''],
      ]);
    });

    it('pages of an older scan follow on in that scan; its CSV names it', async () => {
      const first = await get('/answers?scan_id=s1&limit=1', tricky).expect(200);
      const second = await get(`/answers?scan_id=s1&limit=1&cursor=${first.body.next_cursor}`, tricky).expect(200);
      expect([...first.body.answers, ...second.body.answers].map((a: Item) => a.text)).toEqual([
        'Globex only.',
        'Nothing here.',
      ]);
      expect(second.body.next_cursor).toBeNull();
      const { rows, res } = await csv('/gaps?scan_id=s1', tricky);
      expect(rows).toEqual([
        {
          scan_id: 's1',
          scan_date: '2026-11-09',
          url: 'https://g2.com/crm',
          domain: 'g2.com',
          category: 'review',
          answers: '1',
          competitors: 'Globex',
          prompts: 'p1',
          platforms: 'chatgpt',
        },
      ]);
      expect(res.headers['content-disposition']).toBe('attachment; filename="beacon-gaps-s1.csv"');
    });

    it('cited_url, cited_domain and gap_url: the answers behind a URL, a source or a gap, as many as the lists count', async () => {
      const scans = (await get('/history').expect(200)).body.scans as Array<{ scan_id: string }>;
      for (const sc of ['', `scan_id=${scans[scans.length - 1].scan_id}&`]) {
        const urls = (await get(`/urls?${sc}limit=8`).expect(200)).body.urls as Array<{ url: string; answers: number }>;
        for (const u of urls) {
          const r = await get(`/answers?${sc}cited_url=${encodeURIComponent(u.url)}&limit=1`).expect(200);
          expect({ url: u.url, total: r.body.total }).toEqual({ url: u.url, total: u.answers });
        }
        const gaps = (await get(`/gaps?${sc}limit=8`).expect(200)).body.gaps as Array<{ url: string; answers: number }>;
        expect(gaps.length).toBeGreaterThan(0);
        for (const g of gaps) {
          const r = await get(`/answers?${sc}gap_url=${encodeURIComponent(g.url)}&limit=1`).expect(200);
          expect({ gap: g.url, total: r.body.total }).toEqual({ gap: g.url, total: g.answers });
        }
        const sources = (await get(`/sources?${sc}limit=8`).expect(200)).body.sources as Array<{
          domain: string;
          answers: number;
        }>;
        for (const d of sources) {
          const r = await get(`/answers?${sc}cited_domain=${d.domain}&limit=500`).expect(200);
          expect({ domain: d.domain, total: r.body.total }).toEqual({ domain: d.domain, total: d.answers });
          for (const a of r.body.answers as Array<{ citations: string[] }>)
            expect(a.citations.some((c) => new URL(c).hostname.endsWith(d.domain))).toBe(true);
        }
      }
    });

    it("an unknown scan is 404 not_found naming scan_id; a malformed one 400; another workspace's scan is unknown", async () => {
      for (const list of ['answers', 'sources', 'urls', 'gaps']) {
        const r = await get(`/${list}?scan_id=nope`, tricky).expect(404);
        expect(r.body).toMatchObject({ ok: false, error: 'not_found', field: 'scan_id' });
        expect(r.body.message).toContain('nope');
      }
      await get('/answers?scan_id=s1').expect(404); // s1 is the other workspace's
      const bad = await get('/sources?scan_id=%20x', tricky).expect(400);
      expect(bad.body).toMatchObject({ error: 'bad_request', field: 'scan_id' });
      await get('/history?scan_id=s1', tricky).expect(400);
    });
  });
});
