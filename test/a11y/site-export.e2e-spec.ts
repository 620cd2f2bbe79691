import { AccountsService } from '../../src/accounts/accounts.service';
import { SITE_EXPORTS } from '../../src/a11y/sites/site-export';
import { SitesService } from '../../src/a11y/sites/sites.service';
import type { SiteScan } from '../../src/a11y/sites/site.types';
import { createTestApp, TestApp } from '../utils/test-app';
import { signedInUser } from '../utils/web-users';
import { WebClient } from '../web/web-client';
import { junitErrors, sarifErrors } from './ci-schemas';
import { pdfText } from './pdf-text';
import { firstScanOf, scanEnded, SITE_PAGES, SitesFixture, startSitesFixture } from './sites-fixture';

/** The exports of a whole site scan (CSV, JUnit XML, SARIF 2.1.0, PDF) as download links of the site's page. */
describe('Site scan exports (e2e)', () => {
  let t: TestApp;
  let site: SitesFixture;
  let member: WebClient;
  let other: WebClient;
  let scan: SiteScan;
  let base = '';
  let workspaceId = '';
  let siteId = '';

  beforeAll(async () => {
    site = await startSitesFixture();
    t = await createTestApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true' } });
    await t.createKey('siteexport');
    await t.createKey('siteexport-other');
    const a = await t.app.get(AccountsService).createUser('siteexport', 'site-export-admin@example.com', 'admin');
    member = (await signedInUser(t, 'siteexport', 'site-export-member@example.com', 'member')).client;
    other = (await signedInUser(t, 'siteexport-other', 'site-export-other@example.com', 'admin')).client;
    const sites = t.app.get(SitesService);
    workspaceId = a.workspace_id;
    const s = await sites.create(a.workspace_id, {
      name: 'Export site',
      start_url: `${site.origin}/`,
      sitemap_url: `${site.origin}/sitemap.xml`,
      ignore_rules: 'region',
    });
    site.token = s.verification_token;
    expect(await sites.verify(s)).toBe(true);
    await sites.runNow(await sites.get(a.workspace_id, s.id));
    scan = await scanEnded(sites, s.id, 1);
    expect(scan.status).toBe('done');
    siteId = s.id;
    base = `/dashboard/sites/${s.id}/scans/${scan.id}`;
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  const download = async (c: WebClient, file: string, at = base) => {
    const res = await fetch(`${c.origin}${at}/${file}`, {
      headers: { cookie: c.cookieHeader() },
      redirect: 'manual',
    });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  it("links the four exports on the site's page", async () => {
    const page = await member.get(base.replace(/\/scans\/.*$/, ''));
    for (const f of Object.values(SITE_EXPORTS)) expect(page.text).toContain(`href="${base}/${f.file}"`);
  });

  it('CSV: one row per failing element of every page, the template defect on each page, ignored rules left out', async () => {
    const res = await download(member, SITE_EXPORTS.csv.file);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/csv/);
    const rows = res.body.toString('utf8').trimEnd().split('\r\n');
    expect(rows[0]).toBe('page,rule,impact,outcome,help,help_url,selector,html,fingerprint,new,viewport');
    const imageAlt = rows.filter((r) => r.includes(',image-alt,critical,failed,'));
    expect(imageAlt.map((r) => r.split(',')[0]).sort()).toEqual(SITE_PAGES.map((p) => `${site.origin}${p}`).sort());
    expect(rows.filter((r) => r.includes(',button-name,'))).toHaveLength(1);
    expect(rows.some((r) => r.includes(',region,'))).toBe(false);
    // the first scan: nothing to be new against (`new` empty); the site's one viewport on every row
    expect(rows.slice(1).every((r) => r.endsWith(',,desktop'))).toBe(true);
  });

  it('JUnit XML: valid, one suite per page, the template defect failing on each', async () => {
    const res = await download(member, SITE_EXPORTS.junit.file);
    expect(res.status).toBe(200);
    const xml = res.body.toString('utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml.match(/<testsuite /g)).toHaveLength(SITE_PAGES.length);
    expect(xml.match(/<testcase name="image-alt: [^"]*"[^>]*>\n<failure/g)).toHaveLength(SITE_PAGES.length);
  });

  it('SARIF 2.1.0: valid, one result per failing element, the same fingerprint for the template defect on every page', async () => {
    const res = await download(member, SITE_EXPORTS.sarif.file);
    expect(res.status).toBe(200);
    const log = JSON.parse(res.body.toString('utf8')) as {
      runs: { results: { ruleId: string; partialFingerprints: Record<string, string> }[] }[];
    };
    expect(sarifErrors(log)).toEqual([]);
    const alt = log.runs[0].results.filter((r) => r.ruleId === 'image-alt');
    expect(alt).toHaveLength(SITE_PAGES.length);
    expect(new Set(alt.map((r) => r.partialFingerprints['beaconElement/v1'])).size).toBe(1);
  });

  it('PDF: the report of the whole site', async () => {
    const res = await download(member, SITE_EXPORTS.pdf.file);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    const pdf = await pdfText(res.body);
    expect(pdf.text).toContain(`${site.origin}/`);
    expect(pdf.text).toContain('image-alt');
    expect(pdf.text).toContain(`${site.origin}/p3`);
    expect(pdf.text).toContain(`Pages scanned: ${SITE_PAGES.length}\n`);
  }, 60_000);

  it('another workspace gets 404; an unknown export is 404', async () => {
    expect((await download(other, SITE_EXPORTS.csv.file)).status).toBe(404);
    expect((await download(member, 'report.docx')).status).toBe(404);
  });

  it("a second scan's CSV says which elements are new since the first, as the site page counts them", async () => {
    const sites = t.app.get(SitesService);
    site.extra = '<input type="text">'; // a new defect (label) on every page; the template defect stays
    try {
      await sites.runNow(await sites.get(workspaceId, siteId));
      const second = await scanEnded(sites, siteId, 2);
      expect(second.status).toBe('done');
      const res = await download(member, SITE_EXPORTS.csv.file, `/dashboard/sites/${siteId}/scans/${second.id}`);
      const rows = res.body.toString('utf8').trimEnd().split('\r\n').slice(1);
      const newOf = (rule: string) => rows.filter((r) => r.includes(`,${rule},`)).map((r) => r.split(',').at(-2));
      expect(newOf('image-alt')).toEqual(SITE_PAGES.map(() => 'no'));
      expect(newOf('label')).toEqual(SITE_PAGES.map(() => 'yes'));
      const p1 = second.summary!.pages.find((p) => p.url === `${site.origin}/p1`)!;
      expect(p1.diff).toMatchObject({ new: 1, unchanged: 1 });
    } finally {
      site.extra = '';
    }
  }, 180_000);

  it('a site scanned at two viewports: the PDF counts its pages once and names each row with its viewport', async () => {
    const sites = t.app.get(SitesService);
    const done = await firstScanOf(sites, workspaceId, {
      name: 'Two viewports',
      start_url: `${site.origin}/`,
      page_source: 'list',
      urls: '/p1',
      viewport_desktop: 'yes',
      viewport_phone: 'yes',
    });
    expect(done.status).toBe('done');
    expect(done.summary!.pages).toHaveLength(4);
    const at = `/dashboard/sites/${done.site_id}/scans/${done.id}`;
    const res = await download(member, SITE_EXPORTS.pdf.file, at);
    const text = (await pdfText(res.body)).text.replace(/\s+/g, ' ');
    expect(text).toContain('Pages scanned: 2, each at desktop 1280 and phone 375 (4 results)');
    expect(text).toContain(`Page 2: ${site.origin}/p1 (phone 375)`);
    expect(text).toContain(`Page 1: ${site.origin}/ (desktop 1280)`);

    // CSV: the viewport of each row in the appended last column
    const csv = (await download(member, SITE_EXPORTS.csv.file, at)).body.toString('utf8').trimEnd().split('\r\n');
    expect(csv[0].split(',').at(-1)).toBe('viewport');
    const alt = csv.filter((r) => r.includes(',image-alt,critical,failed,'));
    expect(alt.map((r) => `${r.split(',')[0]} ${r.split(',').at(-1)}`).sort()).toEqual(
      [
        `${site.origin}/ desktop`,
        `${site.origin}/ phone`,
        `${site.origin}/p1 desktop`,
        `${site.origin}/p1 phone`,
      ].sort(),
    );

    // JUnit: valid; one suite per page and viewport, each with its own cases; the phone's names say so
    const xml = (await download(member, SITE_EXPORTS.junit.file, at)).body.toString('utf8');
    expect(await junitErrors(xml)).toEqual([]);
    const suites = xml.split('<testsuite ').slice(1);
    expect(suites.map((x) => /^name="([^"]*)"/.exec(x)![1])).toEqual([
      `accessibility: ${site.origin}/`,
      `accessibility: ${site.origin}/ (phone 375)`,
      `accessibility: ${site.origin}/p1`,
      `accessibility: ${site.origin}/p1 (phone 375)`,
    ]);
    expect(suites.map((x) => /<property name="viewport" value="([^"]*)"\/>/.exec(x)![1])).toEqual([
      'desktop',
      'phone',
      'desktop',
      'phone',
    ]);
    const tests = suites.map((x) => Number(/ tests="(\d+)"/.exec(x)![1]));
    expect(tests.reduce((a, b) => a + b, 0)).toBe(Number(/<testsuites [^>]* tests="(\d+)"/.exec(xml)![1]));
    expect(suites[3]).toMatch(/<testcase name="image-alt: [^"]* \(phone 375\)" classname="[^"]*\/p1"[^>]*>\n<failure/);

    // SARIF: valid; each result's viewport in its property bag, the phone's in its message
    const log = JSON.parse((await download(member, SITE_EXPORTS.sarif.file, at)).body.toString('utf8')) as {
      runs: {
        results: {
          ruleId: string;
          message: { text: string };
          properties: Record<string, string>;
          partialFingerprints: Record<string, string>;
        }[];
      }[];
    };
    expect(sarifErrors(log)).toEqual([]);
    const altResults = log.runs[0].results.filter((r) => r.ruleId === 'image-alt');
    expect(altResults.map((r) => `${r.properties.page} ${r.properties.viewport}`).sort()).toEqual(
      alt.map((r) => `${r.split(',')[0]} ${r.split(',').at(-1)}`).sort(),
    );
    for (const r of altResults) expect(r.message.text.endsWith(' (phone 375)')).toBe(r.properties.viewport === 'phone');
    // One alert per page and viewport in code scanning (matched by rule, file and fingerprint): the
    // desktop fingerprint is the element's, as in the CSV; the phone's says its viewport.
    expect(csv[0].split(',').slice(-3)).toEqual(['fingerprint', 'new', 'viewport']);
    const elementFingerprint = alt[0].split(',').at(-3)!;
    expect(elementFingerprint).toMatch(/^\w+$/);
    for (const r of altResults)
      expect(r.partialFingerprints['beaconElement/v1']).toBe(
        r.properties.viewport === 'phone' ? `${elementFingerprint}/phone` : elementFingerprint,
      );
  }, 180_000);
});
