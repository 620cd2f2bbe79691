import { createHook } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ApiKeysService } from '../../src/common/api-keys/api-keys.service';
import { demoImports } from '../../src/visibility/demo/demo-data';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { recordApiResponses, validatorOf } from '../utils/openapi-responses';
import { createTestApp, TestApp } from '../utils/test-app';
import { base, scan1, SCAN1_GAPS, scan2 } from './fixtures';

const DATA = ['/visibility', '/history', '/prompts', '/answers', '/sources', '/urls', '/gaps'];

/** A tracked brand's entry in an answer's `mentions`: named once, by its name, at `position`; or (null) not named. */
const mentionByName = (name: string, kind: 'brand' | 'competitor', position: number | null) => ({
  name,
  kind,
  status: position === null ? 'not_named' : 'mentioned',
  position,
  evidence: position === null ? [] : [{ term: name, matched: name, offset: position, rule: 'name' }],
  excluded: [],
  counted: position === null ? 0 : 1,
  excluded_count: 0,
});

describe('Visibility API (e2e)', () => {
  let t: TestApp;
  // Every response of every test is validated against the published OpenAPI document.
  let api: ReturnType<typeof recordApiResponses>;
  let keyA: string; // fixture project "acme" (scans s1, s2)
  let keyB: string; // demo project "other" (4 weekly scans)
  let keyEmpty: string; // workspace without data
  const get = (path: string, key?: string) => {
    const r = request(t.server).get(`/api/v1${path}`);
    return key ? r.set('Authorization', `Bearer ${key}`) : r;
  };

  /**
   * Runs `check` while the workspace's answers matching `which` (SQL on `a`, vis_answers) have no
   * stored JSON, as rows imported before the column; then puts it back. Returns how many there were.
   */
  const withoutStoredJson = async (workspace: string, which: string, check: () => Promise<void>): Promise<number> => {
    const { id } = await t.app.get(ApiKeysService).findWorkspace(workspace);
    // TypeORM answers an UPDATE with [rows, count].
    const [old] = await t.dataSource.query<[Array<{ scan_id: string; seq: number; api_tail: string }>, number]>(
      `UPDATE vis_answers a SET api_tail = NULL FROM vis_answers o
        WHERE o.scan_id = a.scan_id AND o.seq = a.seq AND (${which})
          AND a.scan_id IN (SELECT id FROM vis_scans WHERE workspace_id = $1)
      RETURNING a.scan_id, a.seq, o.api_tail`,
      [id],
    );
    expect(old.every((r) => typeof r.api_tail === 'string')).toBe(true);
    try {
      await check();
    } finally {
      await t.dataSource.query(
        `UPDATE vis_answers a SET api_tail = u.t FROM unnest($1::uuid[], $2::int[], $3::text[]) u(s, q, t)
          WHERE a.scan_id = u.s AND a.seq = u.q`,
        [old.map((r) => r.scan_id), old.map((r) => r.seq), old.map((r) => r.api_tail)],
      );
    }
    const [left] = await t.dataSource.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM vis_answers a WHERE a.api_tail IS NULL
          AND a.scan_id IN (SELECT id FROM vis_scans WHERE workspace_id = $1)`,
      [id],
    );
    expect(left.n).toBe(0); // put back
    return old.length;
  };

  beforeAll(async () => {
    // A high per-key limit: the pagination walks send many requests (the limit itself is tested below).
    t = await createTestApp({ env: { VISIBILITY_RATE_LIMIT: '100000' } });
    api = recordApiResponses(t.server);
    const ingest = t.app.get(VisibilityIngestService);
    keyA = (await t.createKey('acme')).key;
    // Out of order on purpose: the older scan after the latest.
    await ingest.importScan('acme', scan2);
    await ingest.importScan('acme', scan1);
    keyB = (await t.createKey('other')).key;
    for (const f of demoImports({ scans: 4, prompts: 21, seed: 7, scanPrefix: 'b' }))
      await ingest.importScan('other', f);
    keyEmpty = (await t.createKey('empty')).key;
  });
  afterEach(async () => api.expectValid());
  afterAll(async () => t.close());

  describe('index and OpenAPI (no key)', () => {
    it('GET /api/v1 lists every endpoint', async () => {
      const res = await get('').expect(200);
      expect(res.body.ok).toBe(true);
      const paths = res.body.endpoints.map((e: { path: string }) => e.path);
      for (const p of ['', ...DATA, '/openapi.json']) expect(paths).toContain(`/api/v1${p}`);
      const answers = res.body.endpoints.find((e: { path: string }) => e.path === '/api/v1/answers');
      expect(answers).toMatchObject({ method: 'GET', auth: true });
      expect(answers.parameters).toEqual(
        expect.arrayContaining(['limit', 'cursor', 'platform', 'tag', 'mentioned', 'competitor']),
      );
      expect(res.body.rate_limit).toEqual({ requests: 100000, window_seconds: 60 });
      expect(res.headers['ratelimit-limit']).toBeUndefined();
      expect(Object.keys(res.body.conventions)).toEqual(
        expect.arrayContaining(['pagination', 'conditional_requests', 'rate_limit_headers', 'errors']),
      );
    });

    it('GET /api/v1/openapi.json is OpenAPI 3.1 with every endpoint, parameter and response', async () => {
      const res = await get('/openapi.json').expect(200);
      expect(res.body.openapi).toBe('3.1.0');
      for (const p of DATA) {
        const op = res.body.paths[`/api/v1${p}`].get;
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '304', '400', '401', '404', '429']));
        // A GET is never answered 405: that is the answer to the other methods, declared once.
        expect(op.responses['405']).toBeUndefined();
        expect(Object.keys(res.body.paths[`/api/v1${p}`])).toEqual(['get']);
        const ref = op.responses['200'].content['application/json'].schema.$ref as string;
        expect(res.body.components.schemas[ref.split('/').pop()!]).toBeDefined();
      }
      const gapParams = res.body.paths['/api/v1/gaps'].get.parameters.map((p: { name: string }) => p.name);
      expect(gapParams).toEqual(expect.arrayContaining(['limit', 'cursor', 'category', 'platform', 'competitor']));
    });

    it("the contract check judges each response by its own method's operation: other methods only 405 method_not_allowed", async () => {
      const doc = (await get('/openapi.json').expect(200)).body as Record<string, unknown>;
      expect(doc.components).toMatchObject({ responses: { MethodNotAllowed: expect.any(Object) } });
      const check = validatorOf(doc);
      const json = 'application/json; charset=utf-8';
      const visibility = (await get('/visibility', keyA).expect(200)).text;
      const refused = JSON.stringify({
        ok: false,
        error: 'method_not_allowed',
        message: 'Method POST is not allowed.',
      });
      const at = (method: string, url: string, status: number, body: string) =>
        check({ method, url, status, contentType: json, body });
      // The GET body is right for a GET only.
      expect(at('GET', '/api/v1/visibility', 200, visibility)).toEqual([]);
      expect(at('POST', '/api/v1/visibility', 200, visibility)).toEqual([
        'status 200 is not declared for POST /api/v1/visibility in the OpenAPI document',
      ]);
      expect(
        at('DELETE', '/api/v1/visibility', 401, JSON.stringify({ ok: false, error: 'unauthorized', message: 'x' })),
      ).not.toEqual([]);
      // 405 is the answer to another method, on a known path or not, and only with its own code; never to a GET.
      expect(at('POST', '/api/v1/visibility', 405, refused)).toEqual([]);
      expect(at('PUT', '/api/v1/no-such-thing', 405, refused)).toEqual([]);
      expect(at('PATCH', '/api/v1/answers', 405, refused.replace('method_not_allowed', 'bad_request'))).not.toEqual([]);
      expect(at('GET', '/api/v1/visibility', 405, refused)).not.toEqual([]);
      expect(
        at('GET', '/api/v1/no-such-thing', 404, JSON.stringify({ ok: false, error: 'not_found', message: 'x' })),
      ).toEqual([]);
    });
  });

  describe('rules and errors of the spec', () => {
    it('401 unauthorized for missing, malformed and revoked keys on every data endpoint', async () => {
      for (const p of DATA) {
        const res = await get(p).expect(401);
        expect(res.body).toMatchObject({ ok: false, error: 'unauthorized' });
      }
      await request(t.server).get('/api/v1/visibility').set('Authorization', 'Bearer nope').expect(401);
      const keys = t.app.get(ApiKeysService);
      const created = await t.createKey('acme');
      await get('/visibility', created.key).expect(200);
      await keys.revokeKey(created.id);
      const revoked = await get('/visibility', created.key).expect(401);
      expect(revoked.body.error).toBe('unauthorized');
    });

    it('405 method_not_allowed for every other method, before authentication', async () => {
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        for (const p of ['', '/visibility', '/answers', '/no-such-thing', '/openapi.json']) {
          const res = await request(t.server)[method](`/api/v1${p}`).expect(405);
          expect(res.body).toMatchObject({ ok: false, error: 'method_not_allowed' });
          expect(res.headers.allow).toBe('GET, HEAD');
        }
      }
      const opts = await request(t.server)
        .options('/api/v1/visibility')
        .set('Authorization', `Bearer ${keyA}`)
        .expect(405);
      expect(opts.body.error).toBe('method_not_allowed');
    });

    it('HEAD is answered like GET', async () => {
      const res = await request(t.server).head('/api/v1/visibility').set('Authorization', `Bearer ${keyA}`).expect(200);
      expect(res.headers.etag).toBeDefined();
      await request(t.server).head('/api/v1').expect(200);
    });

    it('404 not_found for unknown paths, with or without a key', async () => {
      for (const p of ['/nope', '/visibility/extra', '/answers/1', '/v2']) {
        const res = await get(p).expect(404);
        expect(res.body).toMatchObject({ ok: false, error: 'not_found' });
        await get(p, keyA).expect(404);
      }
    });

    it('404 project_not_found on every data endpoint of a workspace without data', async () => {
      for (const p of DATA) {
        const res = await get(p, keyEmpty).expect(404);
        expect(res.body).toMatchObject({ ok: false, error: 'project_not_found' });
      }
    });

    it('400 bad_request naming the parameter', async () => {
      const cases: Array<[string, string]> = [
        ['/answers?limit=0', 'limit'],
        ['/answers?limit=501', 'limit'],
        ['/answers?limit=abc', 'limit'],
        ['/answers?limit=1&limit=2', 'limit'],
        ['/answers?mentioned=maybe', 'mentioned'],
        ['/answers?cursor=!!', 'cursor'],
        ['/answers?cursor=abcd', 'cursor'],
        ['/sources?category=blog', 'category'],
        ['/prompts?country=USA', 'country'],
        ['/gaps?platform=Chat%20GPT', 'platform'],
        ['/visibility?foo=1', 'foo'],
        ['/urls?sort=url', 'sort'],
      ];
      for (const [path, field] of cases) {
        const res = await get(path, keyA);
        expect([path, res.status, res.body.error, res.body.field]).toEqual([path, 400, 'bad_request', field]);
      }
      // Parameters are checked before the data: a workspace without data still gets 400 for a bad one.
      await get('/answers?limit=0', keyEmpty).expect(400);
    });

    it('a cursor from another endpoint or an older import is refused', async () => {
      const page = await get('/sources?limit=1', keyA).expect(200);
      const res = await get(`/answers?cursor=${page.body.next_cursor}`, keyA).expect(400);
      expect(res.body.field).toBe('cursor');
    });
  });

  describe('fields and values (hand-computed from the fixtures)', () => {
    it('GET /visibility: summary, stubs, funnel, platforms, competitors, comparison', async () => {
      const res = await get('/visibility', keyA).expect(200);
      const b = res.body;
      expect(b.ok).toBe(true);
      expect(b.business).toBe('Acme Inc');
      expect(b.brand).toEqual({ name: 'Acme', aliases: ['Acme Inc'], domains: ['acme.com'] });
      expect(b.platforms).toEqual(['chatgpt', 'perplexity']);
      expect(b.scans_total).toBe(2);
      expect(b.latest).toEqual({
        scan_id: 's2',
        date: '2026-11-16',
        grade: null,
        grade_reason: 'insufficient_data',
        mention_rate: 40,
        // Wilson 95 % of 2/5 and of 2/7 (2 brand mentions out of 7 mentions of tracked brands).
        mention_rate_ci: { low: 11.8, high: 76.9 },
        share_of_voice: 28.6,
        share_of_voice_sample: 7,
        share_of_voice_ci: { low: 8.2, high: 64.1 },
        answers: 5,
        mentions: 2,
        absences: 0,
      });
      expect(b.previous).toMatchObject({ scan_id: 's1', date: '2026-11-09', mention_rate: 0, answers: 2 });
      expect(b.answers).toEqual({ total: 6, successful: 5, failed: 1 });
      expect(b.funnel).toEqual({
        answers: 5,
        with_citations: 5,
        with_owned_citation: 1,
        mentioned_with_owned_citation: 1,
        citation_rate: 100,
        owned_citation_rate: 20,
        mentioned_with_owned_citation_rate: 20,
        citation_rate_ci: { low: 56.6, high: 100 },
        owned_citation_rate_ci: { low: 3.6, high: 62.4 },
        mentioned_with_owned_citation_rate_ci: { low: 3.6, high: 62.4 },
      });
      expect(
        b.by_platform.map((p: { platform: string; mention_rate: number; answers: number }) => [
          p.platform,
          p.mention_rate,
          p.answers,
        ]),
      ).toEqual([
        ['chatgpt', 33.3, 3],
        ['perplexity', 50, 2],
      ]);
      expect(
        b.competitors.map((c: { name: string; mention_rate: number; share_of_voice: number }) => [
          c.name,
          c.mention_rate,
          c.share_of_voice,
        ]),
      ).toEqual([
        ['Globex', 60, 42.9],
        ['Initech', 40, 28.6],
      ]);
      expect(b.comparison).toMatchObject({
        latest_scan_id: 's2',
        previous_scan_id: 's1',
        grade: { latest: null, previous: null, direction: 'unknown' },
        mention_rate: { latest: 40, previous: 0, delta: 40, significant: false, p_value: 0.2899 },
        answers: { latest: 5, previous: 2, delta: 3, significant: null, p_value: null },
      });
      expect(b.comparison.platforms).toEqual([
        {
          platform: 'chatgpt',
          latest: 33.3,
          previous: 0,
          delta: 33.3,
          significant: false,
          p_value: expect.any(Number),
        },
        { platform: 'perplexity', latest: 50, previous: null, delta: null, significant: null, p_value: null },
      ]);
      expect(b.comparison.competitors).toEqual([
        { name: 'Globex', latest: 60, previous: 50, delta: 10, significant: false, p_value: expect.any(Number) },
        { name: 'Initech', latest: 40, previous: 0, delta: 40, significant: false, p_value: expect.any(Number) },
      ]);
      expect(res.headers['ratelimit-limit']).toBe('100000');
      expect(Number(res.headers['ratelimit-remaining'])).toBeLessThan(100000);
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    });

    it('the keyed routes run no Nest interceptor chain (its AsyncResource.bind per request), and still answer {ok: true, ...}', async () => {
      // Nest's InterceptorsConsumer binds two functions per request to the async context when a route
      // has an interceptor (on Node 20 each also builds util.deprecate wrappers); the envelope is
      // made by okBody in the controller instead.
      for (const path of ['/visibility', '/answers?limit=3', '/sources']) {
        let n = 0;
        let body: { ok?: boolean } = {};
        const hook = createHook({ init: (_id, type) => void (type === 'bound-anonymous-fn' && n++) }).enable();
        try {
          body = (await get(path, keyA).expect(200)).body;
        } finally {
          hook.disable();
        }
        expect({ path, binds: n, ok: body.ok }).toEqual({ path, binds: 0, ok: true });
      }
    });

    it('GET /history: newest first with changes, recomputed when an older scan arrives later', async () => {
      const res = await get('/history', keyA).expect(200);
      expect(res.body.scans_total).toBe(2);
      expect(res.body.next_cursor).toBeNull();
      const [s2, s1] = res.body.scans;
      expect(s1).toMatchObject({
        scan_id: 's1',
        date: '2026-11-09',
        platforms: ['chatgpt'],
        mention_rate: 0,
        grade: null,
        changes: null,
      });
      expect(s2).toMatchObject({
        scan_id: 's2',
        date: '2026-11-16',
        mention_rate: 40,
        citation_rate: 100,
        owned_citation_rate: 20,
      });
      expect(s2.answers).toEqual({ total: 6, successful: 5, failed: 1 });
      expect(s2.changes).toEqual({
        previous_scan_id: 's1',
        // 0/2 -> 2/5 is not significant (p = 0.29): the rate has not moved.
        detected: ['sources_gained', 'gaps_gained', 'gaps_lost'],
        grade: null,
        mention_rate: {
          from: 0,
          to: 40,
          delta: 40,
          relative_change: null,
          significant: false,
          p_value: 0.2899,
          moved: false,
        },
        sources: {
          gained: ['acme.com', 'globex.com', 'reddit.com', 'wikipedia.org', 'youtube.com'],
          lost: [],
          gained_count: 5,
          lost_count: 0,
        },
        gaps: {
          gained: ['https://globex.com/pricing', 'https://reddit.com/r/crm', 'https://youtube.com/watch?v=1'],
          lost: ['https://g2.com/crm'],
          gained_count: 3,
          lost_count: 1,
        },
      });
    });

    it('GET /prompts: tags, intent, country, enabled and latest-scan figures; filters', async () => {
      const res = await get('/prompts', keyA).expect(200);
      expect(res.body.total).toBe(3);
      expect(res.body.prompts).toEqual([
        {
          id: 'p1',
          text: 'best crm for startups',
          tags: ['crm'],
          intent: 'commercial',
          country: 'US',
          enabled: true,
          latest: { answers: 2, mentions: 1, mention_rate: 50, mention_rate_ci: { low: 9.5, high: 90.5 } },
        },
        {
          id: 'p2',
          text: 'crm pricing',
          tags: ['pricing', 'crm'],
          intent: 'commercial',
          country: 'GB',
          enabled: true,
          latest: { answers: 1, mentions: 0, mention_rate: 0, mention_rate_ci: { low: 0, high: 79.3 } },
        },
        {
          id: 'p3',
          text: 'what is a crm',
          tags: [],
          intent: 'informational',
          country: null,
          enabled: false,
          latest: { answers: 2, mentions: 1, mention_rate: 50, mention_rate_ci: { low: 9.5, high: 90.5 } },
        },
      ]);
      const crm = await get('/prompts?tag=crm', keyA).expect(200);
      expect(crm.body.prompts.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2']);
      const disabled = await get('/prompts?enabled=false', keyA).expect(200);
      expect(disabled.body.prompts.map((p: { id: string }) => p.id)).toEqual(['p3']);
      const gb = await get('/prompts?country=gb&intent=commercial', keyA).expect(200);
      expect(gb.body.prompts.map((p: { id: string }) => p.id)).toEqual(['p2']);
    });

    it('GET /answers: latest scan only, with model, mention flags, competitor mentions and citations', async () => {
      const res = await get('/answers', keyA).expect(200);
      expect(res.body.scan).toEqual({ scan_id: 's2', date: '2026-11-16' });
      expect(res.body.total).toBe(6);
      expect(res.body.answers).toHaveLength(6);
      expect(res.body.answers[0]).toEqual({
        index: 0,
        prompt_id: 'p1',
        prompt: 'best crm for startups',
        platform: 'chatgpt',
        model: 'gpt-5',
        status: 'ok',
        text: 'I like Acme. Globex too.',
        brand_mentioned: true,
        brand_position: 7,
        brand_status: 'mentioned',
        competitors_mentioned: ['Globex'],
        competitors_absent: [],
        competitor_mentions: [{ name: 'Globex', position: 13 }],
        citations: ['https://g2.com/crm', 'https://acme.com/pricing'],
        cites_owned: true,
        mentions: [
          mentionByName('Acme', 'brand', 7),
          mentionByName('Globex', 'competitor', 13),
          mentionByName('Initech', 'competitor', null),
        ],
      });
      expect(res.body.answers[2]).toMatchObject({
        text: 'Try Acmeville tools.',
        brand_mentioned: false,
        brand_position: null,
      });
      expect(res.body.answers[3]).toMatchObject({ status: 'error', brand_mentioned: false, competitors_mentioned: [] });
      expect(res.body.answers.map((a: { text: string }) => a.text)).not.toContain('Globex only.'); // s1's answer
    });

    it('GET /answers sends exactly the bytes JSON.stringify writes for its rows (escapes, Unicode, nulls)', async () => {
      const { key } = await t.createKey('quotes');
      const text = 'Acme "quoted" : {x, y} \\ back\\\\slash \\" \n\t\r\b\f \u0001\u001f\u007f é 漢字 😀 \u2028 end\\';
      await t.app.get(VisibilityIngestService).importScan('quotes', {
        ...base,
        prompts: [{ ...base.prompts[0], text: 'prompt "with" \\ and\nnewline ☃' }],
        scan: {
          id: 'q1',
          date: '2026-11-20',
          platforms: ['chatgpt'],
          answers: [
            {
              prompt_id: 'p1',
              platform: 'chatgpt',
              model: null,
              status: 'ok',
              text,
              citations: ['https://a.example/"x"'],
            },
            { prompt_id: 'p1', platform: 'chatgpt', model: 'm', status: 'error', text: '', citations: [] },
          ],
        },
      });
      for (const [path, k] of [
        ['/answers', key],
        ['/answers?limit=1', key],
        ['/answers', keyA],
        ['/answers?limit=3', keyB],
        ['/answers?limit=500', keyB],
      ]) {
        const res = await get(path, k).expect(200);
        expect(res.text).toBe(JSON.stringify(res.body));
      }
      const res = await get('/answers', key).expect(200);
      expect(res.body.answers[0]).toMatchObject({ text, model: null, prompt: 'prompt "with" \\ and\nnewline ☃' });
    });

    it('GET /answers: the JSON stored at ingest gives the bytes of the rows PostgreSQL builds (rows stored without it)', async () => {
      const { key } = await t.createKey('stored');
      const ingest = t.app.get(VisibilityIngestService);
      // Lone surrogates (stored as U+FFFD), quotes, controls, an absent competitor, evidence, a failed answer.
      const text =
        'Acme "a" \\ \n\t\u0001 é 😀 \u2028 leads. I do not know Initech. Globex is fine \ud800 and Acme again \udc00 end';
      await ingest.importScan('stored', {
        ...base,
        prompts: [{ ...base.prompts[0], text: 'prompt "p" \\ \n ☃' }],
        scan: {
          id: 'st1',
          date: '2026-11-20',
          platforms: ['chatgpt', 'perplexity'],
          answers: [
            {
              prompt_id: 'p1',
              platform: 'chatgpt',
              model: 'm\ud800',
              status: 'ok',
              text,
              citations: ['https://acme.com/x'],
            },
            { prompt_id: 'p1', platform: 'perplexity', model: null, status: 'error', text: '', citations: [] },
            {
              prompt_id: 'p1',
              platform: 'chatgpt',
              model: 'm',
              status: 'ok',
              text: 'Globex, Initech',
              citations: [],
            },
          ],
        },
      });
      for (const f of demoImports({ scans: 2, prompts: 15, seed: 11, scanPrefix: 's' }))
        await ingest.importScan('stored', f);
      const pages = async (k: string, older: string) => {
        const out: string[] = [];
        for (const q of ['', `?scan_id=${older}`, '?limit=7', '?mentioned=false&limit=500'])
          out.push((await get(`/answers${q}`, k).expect(200)).text);
        return out;
      };
      for (const [k, workspace, older] of [
        [key, 'stored', 'st1'],
        [keyA, 'acme', scan1.scan.id],
        [keyB, 'other', (demoImports({ scans: 4, prompts: 21, seed: 7, scanPrefix: 'b' })[0] as typeof scan1).scan.id],
      ]) {
        const stored = await pages(k, older);
        // The rows without their stored JSON, as rows imported before the column are (then put back).
        const removed = await withoutStoredJson(workspace, 'true', async () =>
          expect(await pages(k, older)).toEqual(stored),
        );
        expect(removed).toBeGreaterThan(0);
      }
      const [row] = (await get('/answers?scan_id=st1', key).expect(200)).body.answers;
      expect(row).toMatchObject({ model: 'm\ufffd', prompt: 'prompt "p" \\ \n ☃', competitors_absent: ['Initech'] });
    });

    it('GET /answers: a page mixing rows stored with and without their JSON, an empty page, the headers of JSON text (GET and HEAD)', async () => {
      const paths = ['/answers?limit=500', '/answers?limit=9', '/answers?mentioned=true&limit=4'];
      const before = await Promise.all(paths.map(async (p) => (await get(p, keyB).expect(200)).text));
      // Every third answer of the workspace without its stored JSON (then put back).
      const removed = await withoutStoredJson('other', 'a.seq % 3 = 1', async () => {
        for (const [i, p] of paths.entries())
          expect([p, (await get(p, keyB).expect(200)).text]).toEqual([p, before[i]]);
      });
      expect(removed).toBeGreaterThan(10);

      const empty = await get('/answers?prompt_id=no-such-prompt', keyB).expect(200);
      expect(empty.text).toBe(JSON.stringify({ ...empty.body, answers: [] }));
      expect(empty.body).toMatchObject({ ok: true, total: 0, next_cursor: null });

      // The headers Express gives a JSON string: type with its charset, the length in bytes, the ETag.
      const page = await get('/answers?limit=500', keyB).expect(200);
      expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(page.headers['content-length']).toBe(String(Buffer.byteLength(page.text)));
      expect(page.headers['transfer-encoding']).toBeUndefined();
      expect(page.headers['content-disposition']).toBeUndefined();
      const head = await request(t.server)
        .head('/api/v1/answers?limit=500')
        .set('Authorization', `Bearer ${keyB}`)
        .expect(200);
      for (const h of ['content-type', 'content-length', 'etag', 'cache-control', 'vary'])
        expect([h, head.headers[h]]).toEqual([h, page.headers[h]]);
      expect(head.text ?? '').toBe('');
      const summary = await get('/visibility', keyB).expect(200);
      expect(summary.headers['content-type']).toBe(page.headers['content-type']);
    });

    it('GET /answers: pages sent at once each get their own bytes (the chunks of one are reused only once it has closed)', async () => {
      const pages: Array<[string, string]> = [
        ['/answers?limit=500', keyB],
        ['/answers?limit=9', keyB],
        ['/answers?mentioned=false&limit=500', keyB],
        ['/answers', keyA],
      ];
      const alone: string[] = [];
      for (const [p, k] of pages) alone.push((await get(p, k).expect(200)).text);
      const together = await Promise.all(
        Array.from({ length: 24 }, async (_, i) => {
          const [p, k] = pages[i % pages.length];
          return (await get(p, k).expect(200)).text;
        }),
      );
      expect(together).toEqual(Array.from({ length: 24 }, (_, i) => alone[i % pages.length]));
    });

    it('GET /answers filters: platform, mentioned, competitor, tag, prompt_id', async () => {
      const idx = async (q: string) =>
        (await get(`/answers?${q}`, keyA).expect(200)).body.answers.map((a: { index: number }) => a.index);
      expect(await idx('platform=perplexity')).toEqual([1, 3, 5]);
      expect(await idx('mentioned=true')).toEqual([0, 5]);
      expect(await idx('mentioned=false&platform=chatgpt')).toEqual([2, 4]);
      expect(await idx('competitor=initech')).toEqual([1, 5]);
      expect(await idx('tag=pricing')).toEqual([2, 3]);
      expect(await idx('prompt_id=p3')).toEqual([4, 5]);
      expect(await idx('platform=gemini')).toEqual([]);
    });

    it('GET /sources: registrable domains with counts and categories; filters', async () => {
      const res = await get('/sources', keyA).expect(200);
      expect(res.body.total).toBe(6);
      expect(res.body.sources[0]).toEqual({
        domain: 'g2.com',
        category: 'review',
        citations: 2,
        answers: 2,
        prompts: 1,
        urls: 1,
        platforms: ['chatgpt', 'perplexity'],
      });
      expect(res.body.sources.map((s: { domain: string; category: string }) => `${s.domain}:${s.category}`)).toEqual([
        'g2.com:review',
        'reddit.com:ugc',
        'acme.com:owned',
        'globex.com:competitor',
        'wikipedia.org:reference',
        'youtube.com:video',
      ]);
      const owned = await get('/sources?category=owned', keyA).expect(200);
      expect(owned.body.sources.map((s: { domain: string }) => s.domain)).toEqual(['acme.com']);
      const pplx = await get('/sources?platform=perplexity', keyA).expect(200);
      expect(pplx.body.sources.map((s: { domain: string }) => s.domain)).toEqual([
        'g2.com',
        'reddit.com',
        'wikipedia.org',
      ]);
    });

    it('GET /urls: per-URL statistics; filters', async () => {
      const res = await get('/urls', keyA).expect(200);
      expect(res.body.urls[0]).toEqual({
        url: 'https://g2.com/crm',
        domain: 'g2.com',
        category: 'review',
        citations: 2,
        answers: 2,
        prompts: 1,
        platforms: ['chatgpt', 'perplexity'],
      });
      expect(res.body.urls).toHaveLength(6);
      const wiki = await get('/urls?domain=wikipedia.org', keyA).expect(200);
      expect(wiki.body.urls.map((u: { url: string }) => u.url)).toEqual(['https://en.wikipedia.org/wiki/CRM']);
    });

    it('GET /gaps: URLs cited with competitors while the brand is absent; filters', async () => {
      const res = await get('/gaps', keyA).expect(200);
      expect(res.body.total).toBe(3);
      expect(res.body.gaps).toEqual(SCAN1_GAPS);
      const initech = await get('/gaps?competitor=Initech', keyA).expect(200);
      expect(initech.body.gaps.map((g: { url: string }) => g.url)).toEqual(['https://reddit.com/r/crm']);
      const video = await get('/gaps?category=video&platform=chatgpt', keyA).expect(200);
      expect(video.body.gaps).toHaveLength(1);
    });
  });

  describe('workspace isolation', () => {
    it("key B never sees A's data and the reverse", async () => {
      for (const p of DATA) {
        const a = JSON.stringify((await get(p, keyA).expect(200)).body);
        const b = JSON.stringify((await get(p, keyB).expect(200)).body);
        expect(b).not.toMatch(/"s2"|"s1"|Acme Inc|acme\.com|Acmeville/);
        expect(a).not.toMatch(/b-2026|Hooli|acme-crm\.com/);
      }
      const b = await get('/visibility', keyB).expect(200);
      expect(b.body.business).toBe('Acme CRM');
      expect(b.body.scans_total).toBe(4);
    });
  });

  describe('pagination walks every row exactly once', () => {
    const walk = async (path: string, name: string, key: (r: Record<string, unknown>) => string, limit: number) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const sep = path.includes('?') ? '&' : '?';
        const url: string = `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await get(url, keyB).expect(200);
        const rows = res.body[name] as Array<Record<string, unknown>>;
        expect(rows.length).toBeLessThanOrEqual(limit);
        seen.push(...rows.map(key));
        cursor = res.body.next_cursor;
        pages++;
      } while (cursor);
      return { seen, pages };
    };

    it('answers, sources, urls, gaps, prompts and history', async () => {
      const all = async (path: string, name: string) =>
        (await get(`${path}${path.includes('?') ? '&' : '?'}limit=500`, keyB).expect(200)).body[name];
      const cases: Array<[string, string, (r: Record<string, unknown>) => string, number]> = [
        ['/answers', 'answers', (r) => String(r.index), 7],
        ['/answers?mentioned=true', 'answers', (r) => String(r.index), 5],
        ['/sources', 'sources', (r) => String(r.domain), 4],
        ['/urls', 'urls', (r) => String(r.url), 3],
        ['/gaps', 'gaps', (r) => String(r.url), 2],
        ['/prompts', 'prompts', (r) => String(r.id), 4],
        ['/history', 'scans', (r) => String(r.scan_id), 1],
      ];
      for (const [path, name, key, limit] of cases) {
        const expected = (await all(path, name)).map(key);
        expect(expected.length).toBeGreaterThan(limit);
        const { seen, pages } = await walk(path, name, key, limit);
        expect([path, seen]).toEqual([path, expected]);
        expect(new Set(seen).size).toBe(seen.length);
        expect(pages).toBe(Math.ceil(expected.length / limit)); // no empty last page
      }
      const total = (await get('/answers', keyB).expect(200)).body.total;
      expect(total).toBe(21 * 3);
    });

    it('default page size is 50, the last page has next_cursor null', async () => {
      const first = await get('/answers', keyB).expect(200);
      expect(first.body.answers).toHaveLength(50);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const second = await get(`/answers?cursor=${first.body.next_cursor}`, keyB).expect(200);
      expect(second.body.answers).toHaveLength(13);
      expect(second.body.next_cursor).toBeNull();
    });
  });

  describe('ETag and 304', () => {
    it('answers 304 to If-None-Match with the same ETag; the ETag depends on the query and on new imports', async () => {
      const first = await get('/visibility', keyB).expect(200);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await get('/visibility', keyB).set('If-None-Match', etag).expect(304);
      expect(again.text).toBe('');
      expect(again.headers['ratelimit-limit']).toBe('100000');
      const page = await get('/answers?limit=5', keyB).expect(200);
      expect(page.headers.etag).not.toBe(etag);
      await get('/answers?limit=5', keyB).set('If-None-Match', page.headers.etag).expect(304);
      await get('/answers?limit=6', keyB).set('If-None-Match', page.headers.etag).expect(200);
      // Same path and query for another workspace: another ETag.
      const a = await get('/visibility', keyA).expect(200);
      expect(a.headers.etag).not.toBe(etag);
      // A new import changes every ETag of the workspace.
      const [next] = demoImports({ scans: 1, prompts: 21, seed: 8, scanPrefix: 'b-new', lastDate: '2026-11-23' });
      await t.app.get(VisibilityIngestService).importScan('other', next);
      const after = await get('/visibility', keyB).set('If-None-Match', etag).expect(200);
      expect(after.headers.etag).not.toBe(etag);
      expect(after.body.latest.date).toBe('2026-11-23');
      expect(after.body.scans_total).toBe(5);
    });

    it("304 whenever If-None-Match matches, also with Cache-Control/Pragma no-cache, with Node's own fetch", async () => {
      const { port } = t.server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/api/v1/answers?limit=3`;
      const auth = { Authorization: `Bearer ${keyB}` };
      const first = await fetch(url, { headers: auth });
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      await first.arrayBuffer();
      // fetch itself adds Cache-Control: no-cache to a request carrying If-None-Match (cache: 'no-cache' says so explicitly).
      for (const init of [
        { headers: { ...auth, 'If-None-Match': etag } },
        { headers: { ...auth, 'If-None-Match': etag }, cache: 'no-cache' as const },
        { headers: { ...auth, 'If-None-Match': etag, 'Cache-Control': 'no-cache', Pragma: 'no-cache' } },
        { headers: { ...auth, 'If-None-Match': `"other", W/${etag}` } },
        { headers: { ...auth, 'If-None-Match': '*', 'Cache-Control': 'no-cache' } },
      ]) {
        const r = await fetch(url, init);
        expect(r.status).toBe(304);
        expect(await r.text()).toBe('');
        expect(r.headers.get('etag')).toBe(etag);
      }
      await get('/answers?limit=3', keyB).set('If-None-Match', etag).set('Cache-Control', 'no-cache').expect(304);
      const miss = await fetch(url, { headers: { ...auth, 'If-None-Match': '"nope"', 'Cache-Control': 'no-cache' } });
      expect(miss.status).toBe(200);
      expect(((await miss.json()) as { answers: unknown[] }).answers).toHaveLength(3);
    });
  });
});

describe('Visibility API rate limit (e2e)', () => {
  let t: TestApp;
  let api: ReturnType<typeof recordApiResponses>;
  beforeAll(async () => {
    t = await createTestApp({ env: { VISIBILITY_RATE_LIMIT: '3' } });
    api = recordApiResponses(t.server);
  });
  afterEach(async () => api.expectValid());
  afterAll(async () => t.close());

  it('429 rate_limited with Retry-After: 60 above the per-key limit; keys are counted apart', async () => {
    const a = (await t.createKey()).key;
    const b = (await t.createKey()).key;
    for (let i = 0; i < 3; i++) {
      const res = await request(t.server).get('/api/v1/visibility').set('Authorization', `Bearer ${a}`).expect(404);
      expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await request(t.server).get('/api/v1/history').set('Authorization', `Bearer ${a}`).expect(429);
    expect(limited.body).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['ratelimit-limit']).toBe('3');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    await request(t.server).get('/api/v1/visibility').set('Authorization', `Bearer ${b}`).expect(404);
    // The public index is not counted.
    for (let i = 0; i < 5; i++) await request(t.server).get('/api/v1').expect(200);
  });
});
