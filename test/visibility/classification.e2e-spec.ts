import request from 'supertest';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { scanRederiveCommand } from '../../src/visibility/visibility.cli';
import { PROJECT_STATE_TTL_MS } from '../../src/visibility/visibility-query.service';
import { createTestApp, TestApp } from '../utils/test-app';

/** The brand status of each answer of the labelled scan, in the API's order (before and after re-derivation). */
const BRAND_STATUSES = ['absent', 'absent', 'absent', 'mentioned', 'not_named', 'not_named'];

/** The project of issue 13: six hand-written answers, one of which really names the brand. */
const issueScan = {
  business: 'Acme',
  brand: { name: 'Acme', aliases: ['Acme CRM'], domains: ['acme.com'] },
  competitors: [{ name: 'Monday', aliases: [], domains: ['monday.com'] }, { name: 'Globex' }],
  prompts: [{ id: 'p1', text: 'best crm for agencies' }],
  scan: {
    id: 'w1',
    date: '2026-11-16',
    platforms: ['chatgpt'],
    answers: [
      "I couldn't find any information about Acme CRM.",
      "I'm not familiar with Acme.",
      'There is no product called Acme that I know of.',
      'Acme is a simple CRM for agencies; Globex is the enterprise pick.',
      'Schedule the demo on Monday. Globex has the best onboarding.',
      'For boards, monday.com is strong.',
    ].map((text) => ({ prompt_id: 'p1', platform: 'chatgpt', text, citations: [] })),
  },
};

describe('Visibility mention classification (e2e)', () => {
  let t: TestApp;
  let key: string;
  const get = (path: string) => request(t.server).get(`/api/v1${path}`).set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.createKey('acme')).key;
    await t.app.get(VisibilityIngestService).importScan('acme', issueScan);
  });
  afterAll(async () => t.close());

  it('absence statements and weekdays are not mentions: 1 of 6, not 4 of 6', async () => {
    const b = (await get('/visibility').expect(200)).body;
    expect(b.latest).toMatchObject({ mention_rate: 16.7, mentions: 1, absences: 3, answers: 6 });
    expect(
      b.competitors.map((c: { name: string; mentions: number; absences: number }) => [c.name, c.mentions, c.absences]),
    ).toEqual([
      ['Monday', 1, 0],
      ['Globex', 2, 0],
    ]);
  });

  it('/answers shows the evidence: matched term, offset and rule, and each excluded match with its reason', async () => {
    const { answers } = (await get('/answers').expect(200)).body;
    expect(answers.map((a: { brand_status: string }) => a.brand_status)).toEqual(BRAND_STATUSES);
    expect(answers[0].mentions[0]).toMatchObject({
      name: 'Acme',
      kind: 'brand',
      status: 'absent',
      position: null,
      evidence: [],
      excluded: [{ term: 'Acme CRM', matched: 'Acme CRM', offset: 38, reason: 'absent' }],
    });
    expect(answers[3].mentions[0].evidence).toEqual([{ term: 'Acme', matched: 'Acme', offset: 0, rule: 'name' }]);
    expect(answers[4].mentions[1]).toMatchObject({
      name: 'Monday',
      kind: 'competitor',
      status: 'not_named',
      excluded: [{ term: 'Monday', matched: 'Monday', offset: 21, reason: 'common_word' }],
    });
    expect(answers[5].mentions[1]).toMatchObject({
      status: 'mentioned',
      evidence: [{ matched: 'monday', offset: 12, rule: 'domain_form' }],
    });
    expect(answers[5].competitors_mentioned).toEqual(['Monday']);
  });

  it('GET /answers?brand_status=absent lists the answers that do not know the brand', async () => {
    const idx = async (q: string) =>
      (await get(`/answers?${q}`).expect(200)).body.answers.map((a: { index: number }) => a.index);
    expect(await idx('brand_status=absent')).toEqual([0, 1, 2]);
    expect(await idx('brand_status=mentioned')).toEqual([3]);
    expect(await idx('mentioned=true')).toEqual([3]);
    await get('/answers?brand_status=maybe').expect(400);
  });

  it('scan:rederive recomputes scans stored with the old rules, one transaction per scan, and changes the ETag', async () => {
    // What the old lexical rules stored: every answer naming the brand counted, no evidence, 66.7 %.
    const ws = "(SELECT w.id FROM workspaces w WHERE w.slug = 'acme')";
    await t.dataSource
      .query(`UPDATE vis_answers a SET brand_mentioned = (a.seq < 4), brand_status = 'not_named', mentions = '[]'
      FROM vis_scans s WHERE s.id = a.scan_id AND s.workspace_id = ${ws}`);
    await t.dataSource
      .query(`UPDATE vis_scans SET summary = jsonb_set(jsonb_set(summary::jsonb, '{mentions}', '4'), '{mention_rate}', '66.7')::json
      WHERE workspace_id = ${ws}`);
    await t.dataSource.query(`UPDATE vis_projects SET version = version + 1 WHERE workspace_id = ${ws}`);
    await new Promise((r) => setTimeout(r, PROJECT_STATE_TTL_MS + 50));
    const before = await get('/visibility').expect(200);
    expect(before.body.latest.mention_rate).toBe(66.7);

    const result = await scanRederiveCommand.run(t.app, { positionals: ['acme'], options: {}, json: true });
    expect(result.workspaces).toEqual([{ workspace: 'acme', scans: 1, changed: 1 }]);
    await get('/visibility').set('If-None-Match', before.headers.etag).expect(200);
    const after = (await get('/visibility').expect(200)).body;
    expect(after.latest).toMatchObject({ mention_rate: 16.7, mentions: 1, absences: 3 });
    const { answers } = (await get('/answers').expect(200)).body;
    expect(answers.map((a: { brand_status: string }) => a.brand_status)).toEqual(BRAND_STATUSES);
    expect(answers[0].mentions[0].excluded[0].reason).toBe('absent');
    // Sources and URLs stay as imported; a second run changes no figure.
    const again = await scanRederiveCommand.run(t.app, { positionals: ['acme'], options: {}, json: true });
    expect(again.workspaces).toEqual([{ workspace: 'acme', scans: 1, changed: 0 }]);
    await expect(scanRederiveCommand.run(t.app, { positionals: [], options: {}, json: true })).rejects.toThrow(/Usage/);
  });

  it('an answer of 200,000 characters with thousands of aliases imports and is classified', async () => {
    const aliases = Array.from({ length: 3000 }, (_, i) =>
      i % 3 === 0 ? `(.*)+${i}` : i % 3 === 1 ? String.fromCharCode(65 + (i % 26)) : `Acme ${i}`,
    );
    const filler = 'Plenty of text about CRMs and pipelines. ';
    const text = `${filler.repeat(Math.ceil(199_980 / filler.length)).slice(0, 199_980)} Acme 2999 wins`;
    const big = {
      ...issueScan,
      brand: { ...issueScan.brand, aliases },
      scan: {
        ...issueScan.scan,
        id: 'w2',
        date: '2026-11-23',
        answers: [{ prompt_id: 'p1', platform: 'chatgpt', text, citations: [] }],
      },
    };
    const r = await t.app.get(VisibilityIngestService).importScan('acme', big);
    expect(r).toMatchObject({ imported: true, mention_rate: 100 });
    const { answers } = (await get('/answers').expect(200)).body;
    expect(answers[0].mentions[0].evidence).toEqual([
      { term: 'Acme 2999', matched: 'Acme 2999', offset: 199_981, rule: 'alias' },
    ]);
  });
});
