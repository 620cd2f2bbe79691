import request from 'supertest';
import sharp from 'sharp';
import { createTestApp, TestApp } from '../utils/test-app';
import { createScanTestApp } from './scan-app';
import { junitErrors, sarifErrors } from './ci-schemas';
import { BAD_PAGE, FixtureServer, html, send, startFixtureServer } from './fixture-server';
import { pdfText } from './pdf-text';
import { bytes, text as asText } from '../utils/body-parsers';

const DOT = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

/**
 * The page of the diff test in two versions: v2 fixes the image's missing alt text, introduces an
 * unlabelled input, keeps the faint text and the empty button, and renames every CSS class (as a
 * CSS-in-JS build does) and inserts an element before them (a small layout change).
 */
function versioned(v: 1 | 2): string {
  const c = (name: string) => `${name}-${v === 1 ? 'x1a9' : 'q7zz'}`;
  return html(
    `<main class="${c('main')}"><h1 class="${c('title')}">Results</h1>
    ${v === 2 ? '<p>A new introduction paragraph.</p>' : ''}
    <div class="${c('card')}">
      ${v === 1 ? `<img class="${c('logo')}" src="${DOT}">` : `<img class="${c('logo')}" src="${DOT}" alt="Company logo">`}
      <p class="${c('faint')}" style="color:#ccc;background:#fff">Low contrast text</p>
      <button class="${c('btn')}"></button>
      ${v === 2 ? `<input class="${c('field')}" type="text">` : ''}
    </div></main>`,
    'Versioned page',
  );
}

/**
 * Rewrites, in the page's own JavaScript world, every DOM API that element facts and boxes are read
 * with: querySelector answers the wrong element, boxes are far away, text, names, attributes, tag
 * names, parents, children and the scroll offset are fakes. Read in the isolated world, none of it
 * shows.
 */
const HOSTILE_SCRIPT = `<script>
  const lie = (proto, name, value) => Object.defineProperty(proto, name, { configurable: true, get: () => value });
  Element.prototype.getBoundingClientRect = function () { return { x: 5, y: 7, left: 5, top: 7, width: 900, height: 900, right: 905, bottom: 907 }; };
  Element.prototype.getClientRects = function () { return [this.getBoundingClientRect()]; };
  Document.prototype.querySelector = function () { return document.getElementsByTagName('h1')[0]; };
  Element.prototype.querySelector = Document.prototype.querySelector;
  Element.prototype.getAttribute = function () { return 'forged'; };
  Document.prototype.getElementById = function () { return document.body; };
  lie(Node.prototype, 'textContent', 'forged text');
  lie(Node.prototype, 'childNodes', []);
  lie(Node.prototype, 'parentNode', null);
  lie(Element.prototype, 'localName', 'forged');
  lie(Element.prototype, 'id', 'forged');
  lie(Node.prototype, 'parentElement', null);
  lie(HTMLElement.prototype, 'innerText', 'forged');
  lie(window, 'scrollX', 4000);
  lie(window, 'scrollY', 4000);
</script>`;

/** A page with two failing elements at known places; with `hostile`, the page lies about them. */
function factsPage(hostile: boolean): string {
  return html(
    `<main><h1>Facts</h1><div class="card"><p id="faint" style="color:#ccc;background:#fff">Low contrast text</p>
    <img id="pic" src="${DOT}" style="position:absolute;left:200px;top:600px;width:80px;height:30px;background:#0000ff"></div>
    <div style="height:900px"></div></main>${hostile ? HOSTILE_SCRIPT : ''}`,
    'Facts',
  );
}

interface Node {
  target: string[];
  html: string;
  fingerprint: string;
}
interface RuleDiff {
  rule: string;
  status: string;
  new: Node[];
  fixed: Node[];
  still: Node[];
}

describe('Scan results people act on (e2e, real Chromium, pages on 127.0.0.1)', () => {
  let t: TestApp;
  let site: FixtureServer;
  let version: 1 | 2 = 1;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/versioned': (_q, res) => send(res, 200, versioned(version)),
      '/bad': (_q, res) => send(res, 200, BAD_PAGE),
      // a client-rendered app: an empty shell, content inserted by script 800 ms after load
      '/late': (_q, res) =>
        send(
          res,
          200,
          html(
            `<div id="app"></div><script>addEventListener('load', () => setTimeout(() => {
              document.getElementById('app').innerHTML = '<main><h1>Late app</h1><p>This content was rendered by a script well after the load event.</p><img id="late-img" src="${DOT}"></main>';
            }, 800))</script>`,
            'Late app',
          ),
        ),
      // an element at a known place, far down the page
      '/boxes': (_q, res) =>
        send(
          res,
          200,
          html(
            `<main><h1>Boxes</h1><p>Text.</p><div style="height:1400px"></div><img id="green" src="${DOT}" style="position:absolute;left:300px;top:1200px;width:120px;height:40px;background:#00ff00"></main>`,
            'Boxes',
          ),
        ),
      // element facts and boxes read in the page's world would be lies here (see HOSTILE_SCRIPT)
      '/facts': (q, res) => send(res, 200, factsPage((q.url ?? '').includes('hostile'))),
      // an app that never gets past its loading state
      '/never-renders': (_q, res) =>
        send(
          res,
          200,
          html(
            '<div id="app"><div class="app-spinner" role="progressbar" aria-busy="true" style="width:24px;height:24px">Loading…</div></div>',
            'Never',
          ),
        ),
    });
    t = await createScanTestApp({ SCAN_RATE_LIMIT: '1000', SCAN_CACHE_TTL_S: '0', SCAN_PAGE_TIMEOUT_MS: '15000' });
  });

  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  const scan = async (url: string) => (await request(t.server).post('/api/scan').send({ url }).expect(200)).body;
  const text = (path: string) => request(t.server).get(path).buffer(true).parse(asText);

  describe('score breakdown', () => {
    it('each failed rule has its cost; the costs add up to 100 minus the score, per page and per report', async () => {
      const r = await scan(`${site.origin}/bad`);
      const ids = r.pages[0].violations.map((v: { id: string }) => v.id).sort();
      for (const costs of [r.scoreBreakdown, r.pages[0].scoreBreakdown]) {
        expect(costs.map((c: { id: string }) => c.id).sort()).toEqual(ids);
        expect(costs.reduce((s: number, c: { points: number }) => s + c.points, 0)).toBe(100 - r.score);
      }
      const cc = r.scoreBreakdown.find((c: { id: string }) => c.id === 'color-contrast');
      expect(cc).toMatchObject({ impact: 'serious', weight: 7, pages: 1 });
      expect(cc.points).toBeGreaterThan(0);
      const page = await text(`/r/${r.id}`).expect(200);
      expect(page.body).toContain(
        `<th scope="row"><code>color-contrast</code></th><td>serious</td><td class="num">+${cc.points}</td>`,
      );
      expect(page.body).toContain('What each fix is worth');
    });
  });

  describe('diff against the previous scan', () => {
    let first: { id: string; score: number };
    let second: { id: string; score: number };

    beforeAll(async () => {
      version = 1;
      first = await scan(`${site.origin}/versioned`);
      version = 2;
      second = await scan(`${site.origin}/versioned`);
    });

    it('names the fixed and the introduced violation and keeps the others, across renamed classes', async () => {
      const d = (await request(t.server).get(`/api/scan/${second.id}/diff`).expect(200)).body;
      expect(d.against).toMatchObject({ id: first.id, score: first.score });
      expect(d.scoreChange).toBe(second.score - first.score);
      const summary = (d.rules as RuleDiff[]).map((r) => [
        r.rule,
        r.status,
        r.new.length,
        r.fixed.length,
        r.still.length,
      ]);
      expect(summary).toEqual(
        expect.arrayContaining([
          ['label', 'new', 1, 0, 0],
          ['image-alt', 'fixed', 0, 1, 0],
          ['color-contrast', 'still', 0, 0, 1],
          ['button-name', 'still', 0, 0, 1],
        ]),
      );
      expect(d.totals).toMatchObject({ new: 1, fixed: 1, newRules: 1, fixedRules: 1 });
      expect(d.totals.still).toBe(d.rules.reduce((s: number, r: RuleDiff) => s + r.still.length, 0));
      // every rule of either report is accounted for, nothing else
      const rules = (d.rules as RuleDiff[]).map((r) => r.rule).sort();
      const a = (await request(t.server).get(`/api/scan/${first.id}`)).body.pages[0].violations.map(
        (v: { id: string }) => v.id,
      );
      const b = (await request(t.server).get(`/api/scan/${second.id}`)).body.pages[0].violations.map(
        (v: { id: string }) => v.id,
      );
      expect(rules).toEqual([...new Set([...a, ...b])].sort());
      for (const r of d.rules as RuleDiff[]) if (r.status === 'still') expect(r.new.length + r.fixed.length).toBe(0);
      const label = (d.rules as RuleDiff[]).find((r) => r.rule === 'label')!;
      expect(label.new[0].html).toContain('field-q7zz');
    });

    it('stores the fingerprint and its parts with each violation node, without class names', async () => {
      const r = (await request(t.server).get(`/api/scan/${second.id}`).expect(200)).body;
      const cc = r.pages[0].violations.find((v: { id: string }) => v.id === 'color-contrast');
      expect(cc.nodes[0].fingerprint).toMatch(/^[0-9a-f]{24}$/);
      expect(cc.nodes[0].facts).toMatchObject({ tag: 'p', name: 'Low contrast text', path: 'html>body>main>div>p' });
      expect(JSON.stringify(cc.nodes[0].facts)).not.toContain('q7zz');
    });

    it('diffs against ?against={id}; the first scan has nothing to compare with; unknown ids are 404', async () => {
      const self = (await request(t.server).get(`/api/scan/${second.id}/diff?against=${second.id}`).expect(200)).body;
      expect(self.totals).toMatchObject({ new: 0, fixed: 0 });
      const none = (await request(t.server).get(`/api/scan/${first.id}/diff`).expect(200)).body;
      expect(none.against).toBeNull();
      expect(none.rules.every((r: RuleDiff) => r.status === 'new')).toBe(true);
      expect((await request(t.server).get(`/api/scan/${second.id}/diff?against=nope`).expect(404)).body.error).toBe(
        'report_not_found',
      );
      await request(t.server).get('/api/scan/unknownunknownunknownunknown0000/diff').expect(404);
    });

    it('/r/{id} shows "Since the last scan", the fix values and the pictures, and still scores 100', async () => {
      const page = await text(`/r/${second.id}`).expect(200);
      expect(page.body).toContain('Since the last scan');
      expect(page.body).toMatch(/1 new failing element, 1 fixed element/);
      // every new section is on the page Beacon grades below
      expect(page.body).toContain('What each fix is worth');
      expect(page.body).toMatch(/<img [^>]*src="[^"]*\/api\/screenshots\/[A-Za-z0-9_-]{16}\.png"/);
      const addr = t.server.address() as import('node:net').AddressInfo;
      const r = await scan(`http://127.0.0.1:${addr.port}/r/${second.id}`);
      expect(r.pages[0].violations).toEqual([]);
      expect(r.score).toBe(100);
    });

    it('JUnit XML: one test case per rule and page, valid against the JUnit XSD; fail_on and new_only gate', async () => {
      const all = await text(`/api/scan/${second.id}/junit.xml`).expect(200);
      expect(all.headers['content-type']).toMatch(/^application\/xml/);
      expect(await junitErrors(all.body)).toEqual([]);
      const report = (await request(t.server).get(`/api/scan/${second.id}`)).body;
      const p = report.pages[0];
      const applied = new Set([...p.violations, ...p.passes, ...p.incomplete].map((r: { id: string }) => r.id));
      expect((all.body.match(/<testcase /g) ?? []).length).toBe(applied.size);
      expect((all.body.match(/<failure /g) ?? []).length).toBe(p.violations.length);
      expect(all.headers['x-a11y-gate-failures']).toBe(String(p.violations.length));
      // color-contrast is serious, label/button-name critical: fail_on=critical lets contrast through
      const critical = await text(`/api/scan/${second.id}/junit.xml?fail_on=critical`).expect(200);
      expect(await junitErrors(critical.body)).toEqual([]);
      expect(critical.body).not.toMatch(/<failure message="[^"]*color-contrast/);
      expect(critical.body).toMatch(/<failure message="[^"]*label/);
      // new_only: only the introduced label violation fails
      const fresh = await text(`/api/scan/${second.id}/junit.xml?new_only=true`).expect(200);
      expect(await junitErrors(fresh.body)).toEqual([]);
      expect(fresh.headers['x-a11y-gate-failures']).toBe('1');
      expect(fresh.body).toMatch(/<failure message="1 element fail label/);
      expect(
        (await request(t.server).get(`/api/scan/${second.id}/junit.xml?fail_on=urgent`).expect(400)).body,
      ).toMatchObject({ error: 'bad_request', field: 'fail_on' });
      expect(
        (await request(t.server).get(`/api/scan/${second.id}/junit.xml?new_only=maybe`).expect(400)).body.field,
      ).toBe('new_only');
    });

    it('SARIF 2.1.0: valid against the schema; one result per element with fingerprints and baseline state', async () => {
      const res = await text(`/api/scan/${second.id}/sarif?new_only=true&fail_on=serious`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/sarif\+json/);
      const log = JSON.parse(res.body as string);
      expect(sarifErrors(log)).toEqual([]);
      const results = log.runs[0].results as {
        ruleId: string;
        level: string;
        baselineState: string;
        partialFingerprints: Record<string, string>;
      }[];
      const report = (await request(t.server).get(`/api/scan/${second.id}`)).body;
      expect(results).toHaveLength(report.totalNodes);
      expect(results.filter((r) => r.level === 'error').map((r) => r.ruleId)).toEqual(['label']);
      expect(results.find((r) => r.ruleId === 'label')!.baselineState).toBe('new');
      expect(results.find((r) => r.ruleId === 'color-contrast')!.baselineState).toBe('unchanged');
      for (const r of results) expect(r.partialFingerprints['beaconElement/v1']).toMatch(/^[0-9a-f]{24}$/);
      expect(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id).sort()).toEqual(
        [...new Set(results.map((r) => r.ruleId))].sort(),
      );
    });

    it('the PDF has the score breakdown and the "since the last scan" section', async () => {
      const res = await request(t.server).get(`/api/report.pdf?id=${second.id}`).buffer(true).parse(bytes).expect(200);
      const pdf = await pdfText(res.body as Buffer);
      expect(pdf.text).toContain('What each fix is worth');
      expect(pdf.text).toMatch(/fix label: \+\d+/);
      expect(pdf.text).toContain('Since the last scan');
      expect(pdf.text).toContain('image-alt (fixed): 0 new, 1 fixed, 0 still failing');
    });
  });

  describe('pages that render late', () => {
    it('a client-rendered page that appears after 800 ms is scanned with its content; the wait is recorded', async () => {
      const r = await scan(`${site.origin}/late`);
      const img = r.pages[0].violations.find((v: { id: string }) => v.id === 'image-alt');
      expect(img.nodes.map((n: { target: string[] }) => n.target)).toEqual([['#late-img']]);
      expect(r.pages[0].render).toMatchObject({ state: 'complete', domStable: true, fontsLoaded: true });
      expect(r.pages[0].render.waitMs).toBeGreaterThanOrEqual(500);
      expect(r.meta).toMatchObject({ render: 'complete' });
      expect(r.meta.renderWaitMs).toBe(r.pages[0].render.waitMs);
      expect(r.score).toBeLessThan(100);
    });

    it('a page that never renders is flagged incomplete, scores 0 (not clean) and fails the CI gate', async () => {
      const r = await scan(`${site.origin}/never-renders`);
      expect(r.meta.render).toBe('incomplete');
      expect(r.pages[0].render).toMatchObject({ state: 'incomplete' });
      expect(['nearly empty body', 'loading indicator']).toContain(r.pages[0].render.reason);
      expect(r.pages[0].render.waitMs).toBeGreaterThanOrEqual(4500);
      expect(r.score).toBe(0);
      expect(r.scoreBreakdown.reduce((s: number, c: { points: number }) => s + c.points, 0)).toBe(100);
      const junit = await text(`/api/scan/${r.id}/junit.xml`).expect(200);
      expect(await junitErrors(junit.body)).toEqual([]);
      expect(junit.body).toMatch(/<testcase name="render-incomplete: [^"]*"[^>]*>\n<failure/);
      const sarif = JSON.parse((await text(`/api/scan/${r.id}/sarif`).expect(200)).body as string);
      expect(sarifErrors(sarif)).toEqual([]);
      expect(
        sarif.runs[0].results.some(
          (x: { ruleId: string; level: string }) => x.ruleId === 'render-incomplete' && x.level === 'error',
        ),
      ).toBe(true);
      expect((await text(`/r/${r.id}`).expect(200)).body).toContain('Not a clean result');
    });

    it('a static page is judged rendered without waiting for the bound', async () => {
      const r = await scan(`${site.origin}/bad?static`);
      expect(r.pages[0].render).toMatchObject({ state: 'complete', domStable: true });
      expect(r.pages[0].render.waitMs).toBeLessThan(4500);
    });
  });

  describe('pictures of the failing elements', () => {
    const png = (url: string) =>
      request(t.server)
        .get(new URL(url).pathname)
        .buffer(true)
        .parse(bytes)
        .expect(200)
        .expect('Content-Type', 'image/png');
    const pixel = async (buf: Buffer, x: number, y: number) => {
      const { data, info } = await sharp(buf).raw().toBuffer({ resolveWithObject: true });
      const i = (y * info.width + x) * info.channels;
      return [data[i], data[i + 1], data[i + 2]];
    };

    it('a crop of each failing element (box outlined, context around) and an annotated full page, as valid PNGs', async () => {
      const r = await scan(`${site.origin}/boxes`);
      const node = r.pages[0].violations.find((v: { id: string }) => v.id === 'image-alt').nodes[0];
      expect(node.box).toEqual({ x: 300, y: 1200, width: 120, height: 40 });
      expect(node.marker).toBe(1);
      expect(node.screenshot).toMatch(/\/api\/screenshots\/[A-Za-z0-9_-]{16}\.png$/);
      const crop = (await png(node.screenshot)).body as Buffer;
      const meta = await sharp(crop).metadata();
      expect(meta.format).toBe('png');
      expect([meta.width, meta.height]).toEqual([120 + 32, 40 + 32]);
      expect(node.crop).toEqual({ x: 284, y: 1184, width: 152, height: 72 });
      expect(await pixel(crop, 76, 36)).toEqual([0, 255, 0]); // the element itself
      expect(await pixel(crop, 17, 36)).toEqual([0xd4, 0x14, 0x5a]); // its outline
      expect(await pixel(crop, 4, 4)).toEqual([255, 255, 255]); // the context around it
      const full = r.pages[0].screenshot;
      expect(full).toMatchObject({ width: 1280, cut: false });
      expect(full.height).toBeGreaterThanOrEqual(1240);
      const page = (await png(full.url)).body as Buffer;
      expect(await sharp(page).metadata()).toMatchObject({ format: 'png', width: full.width, height: full.height });
      expect(await pixel(page, 360, 1220)).toEqual([0, 255, 0]);
      expect(await pixel(page, 301, 1220)).toEqual([0xd4, 0x14, 0x5a]);
      const html = (await text(`/r/${r.id}`).expect(200)).body as string;
      // same-site paths on the page (it works under any host name; the JSON keeps absolute addresses)
      expect(html).toContain(`src="${new URL(node.screenshot).pathname}"`);
      expect(html).toContain(`src="${new URL(full.url).pathname}"`);
      const pdf = await request(t.server)
        .get(`/api/report.pdf?id=${r.id}`)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect(((pdf.body as Buffer).toString('latin1').match(/\/Subtype \/Image/g) ?? []).length).toBeGreaterThanOrEqual(
        2,
      ); // crop + full page
      await request(t.server).get('/api/screenshots/AAAAAAAAAAAAAAAA.png').expect(404);
      await request(t.server).get('/api/screenshots/nope').expect(404);
    });
  });

  describe('element facts and boxes are read where the page cannot tamper', () => {
    type FactsNode = {
      fingerprint: string;
      facts?: { path: string; tag: string; name: string };
      box?: unknown;
      screenshot?: string;
    };
    const nodeOf = (r: { pages: { violations: { id: string; nodes: FactsNode[] }[] }[] }, rule: string) =>
      r.pages[0].violations.find((v) => v.id === rule)!.nodes[0];

    it('a page that rewrites DOM APIs in its own world gets the same fingerprints, facts, boxes and pictures as an honest one', async () => {
      const honest = await scan(`${site.origin}/facts?honest`);
      const hostile = await scan(`${site.origin}/facts?hostile`);
      for (const r of [honest, hostile]) {
        const text = nodeOf(r, 'color-contrast');
        expect(text.facts).toEqual({
          path: 'html>body>main>div>p#faint',
          tag: 'p',
          name: 'Low contrast text',
          textHash: expect.stringMatching(/^[0-9a-f]+$/),
        });
        const img = nodeOf(r, 'image-alt');
        expect(img.facts).toMatchObject({ path: 'html>body>main>div>img#pic', tag: 'img', name: '' });
        expect(img.box).toEqual({ x: 200, y: 600, width: 80, height: 30 });
        const crop = (
          await request(t.server)
            .get(new URL(img.screenshot!).pathname)
            .buffer(true)
            .parse((res, cb) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => cb(null, Buffer.concat(chunks)));
            })
            .expect(200)
        ).body as Buffer;
        const { data, info } = await sharp(crop).raw().toBuffer({ resolveWithObject: true });
        expect([info.width, info.height]).toEqual([80 + 32, 30 + 32]);
        const i = (31 * info.width + 56) * info.channels; // the middle of the element
        expect([data[i], data[i + 1], data[i + 2]]).toEqual([0, 0, 255]);
      }
      // (read with page.evaluate, in the page's world, the facts, boxes and this comparison fail)
      for (const rule of ['color-contrast', 'image-alt'])
        expect(nodeOf(hostile, rule).fingerprint).toBe(nodeOf(honest, rule).fingerprint);
    });
  });

  describe('rate limits', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await createTestApp({ env: { REPORT_RATE_LIMIT: '4' } });
    });
    afterAll(async () => limited?.close());

    it('the JSON report, diff, JUnit, SARIF and screenshots share the per-IP REPORT_RATE_LIMIT bucket with /r, the PDF and the badge: 429 with Retry-After', async () => {
      const id = 'E'.repeat(32);
      const answers: number[] = [];
      for (const path of [
        `/api/scan/${id}/diff`,
        `/api/scan/${id}/junit.xml`,
        `/api/scan/${id}/sarif`,
        '/api/screenshots/AAAAAAAAAAAAAAAA.png',
      ]) {
        const res = await request(limited.server).get(path);
        answers.push(res.status);
        expect(res.headers['ratelimit-limit']).toBe('4');
      }
      expect(answers).toEqual([404, 404, 404, 404]);
      // GET /api/scan/{id} is in this bucket too (issue #20: it was not limited).
      for (const path of [
        `/r/${id}`,
        `/api/scan/${id}`,
        `/api/scan/${id}/diff`,
        `/api/scan/${id}/junit.xml?fail_on=serious`,
        `/api/scan/${id}/sarif`,
        '/api/screenshots/AAAAAAAAAAAAAAAA.png',
      ]) {
        const res = await request(limited.server).get(path);
        expect([path, res.status]).toEqual([path, 429]);
        expect(res.body).toMatchObject({
          ok: false,
          error: 'rate_limited',
          message: expect.any(String),
          retry_after: expect.any(Number),
        });
        expect(Number(res.headers['retry-after'])).toBe(res.body.retry_after);
        expect(res.body.retry_after).toBeGreaterThanOrEqual(1);
        expect(res.body.retry_after).toBeLessThanOrEqual(limited.config.REPORT_RATE_WINDOW_S);
      }
    });
  });

  it('the schema checks reject what they should (they can fail)', async () => {
    expect(sarifErrors({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).not.toEqual([]);
    expect(sarifErrors({ version: '2.0.0', runs: [] })).not.toEqual([]);
    expect(
      await junitErrors('<testsuites tests="1" failures="0"><testsuite name="x"><testcase/></testsuite></testsuites>'),
    ).not.toEqual([]);
  });
});
