import { ScanService } from '../../src/a11y/scan/scan.service';
import { LOST_TWICE } from '../../src/a11y/sites/site-run';
import { SitesService } from '../../src/a11y/sites/sites.service';
import { SitesStore } from '../../src/a11y/sites/sites.store';
import { WebClient } from '../web/web-client';
import { createTestApp, TestApp } from '../utils/test-app';
import { siteAdmin } from './site-admin';
import { SiteChecksFixture, startSiteChecksFixture } from './site-checks-fixture';
import { firstScanOf, scanEnded, SitesFixture, startSitesFixture } from './sites-fixture';

/**
 * A site scan's rows in real Chromium on loopback sites (in process; the worker-process kill is in
 * site-worker.e2e-spec.ts): a scan run again after its worker was lost scans only what has no result,
 * every viewport counts in the score and the fix plan, and the checks beyond axe run once per page.
 */
describe('Site scans: resumed, every viewport counted, checks once per page (e2e)', () => {
  let t: TestApp;
  let plain: SitesFixture;
  let checks: SiteChecksFixture;
  let sites: SitesService;
  let store: SitesStore;
  let admin: WebClient;
  let workspaceId = '';

  beforeAll(async () => {
    plain = await startSitesFixture();
    checks = await startSiteChecksFixture();
    t = await createTestApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true' } });
    sites = t.app.get(SitesService);
    store = t.app.get(SitesStore);
    ({ workspaceId, admin } = await siteAdmin(t, 'resume'));
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await plain?.close();
    await checks?.close();
  });

  it('run again, a scan scans only the pages without a result: one lost once is tried again, one lost twice fails with its reason', async () => {
    const s = await sites.create(workspaceId, { name: 'Resumed', start_url: `${plain.origin}/p1` });
    const urls = ['/p1', '/p2', '/p3', '/p4', '/p5'].map((p) => `${plain.origin}${p}`);
    // What a killed worker leaves: the plan fixed, /p1 finished (its report stored), /p2 started once,
    // /p3 started twice (lost both times), /p4 and /p5 not started yet.
    const p1 = await t.app.get(ScanService).scan(urls[0], false, undefined, { fresh: true });
    const scan = (await store.createScan(s.id, 'manual'))!;
    await store.savePlan(scan.id, { pages: urls, skipped: [], gapMs: 0, viewports: ['desktop'] });
    await store.startRow(scan.id, 0, 'desktop');
    await store.finishRow(scan.id, 0, 'desktop', { url: urls[0], reportId: p1.id, score: p1.pages[0].score });
    await store.startRow(scan.id, 1, 'desktop');
    await store.startRow(scan.id, 2, 'desktop');
    await store.startRow(scan.id, 2, 'desktop');
    await store.progress(scan.id, 'running', 1, urls.length);
    const requests = (path: string) => plain.times.get(path)?.length ?? 0;
    const before = Object.fromEntries(['/p1', '/p2', '/p3', '/p4'].map((p) => [p, requests(p)]));

    await sites.runScan(scan.id); // as the stalled job's second run does

    const ended = await sites.scanOf(s, scan.id);
    expect(ended).toMatchObject({ status: 'done', pages_done: 5, pages_total: 5 });
    const pages = ended.summary!.pages;
    expect(pages.map((p) => p.url)).toEqual(urls); // each page once, in the plan's order
    expect(pages[0]).toMatchObject({ reportId: p1.id, score: p1.pages[0].score });
    expect(pages[2]).toEqual({ url: urls[2], error: LOST_TWICE });
    expect(pages.filter((p) => p.error)).toHaveLength(1);
    expect(requests('/p1')).toBe(before['/p1']); // finished: not requested again
    expect(requests('/p3')).toBe(before['/p3']); // lost twice: not requested a third time
    expect(requests('/p2')).toBeGreaterThan(before['/p2']);
    expect(requests('/p4')).toBeGreaterThan(before['/p4']);
    // The finished page's issues come from its stored report: the template defect on all four scanned pages.
    const logo = ended.summary!.groups.find((g) => g.rule === 'image-alt')!;
    expect([...logo.pages].sort()).toEqual([urls[0], urls[1], urls[3], urls[4]]);
    const rows = await t.dataSource.query<{ idx: number; attempts: number }[]>(
      `SELECT idx, attempts FROM a11y_site_scan_pages WHERE scan_id = $1 ORDER BY idx`,
      [scan.id],
    );
    expect(rows.map((r) => r.attempts)).toEqual([1, 2, 2, 1, 1]);
  }, 120_000);

  it('counts the phone viewport: a defect shown only at 375 px is in the score, the groups and the fix plan with its viewport', async () => {
    const scan = await firstScanOf(sites, workspaceId, {
      name: 'Both viewports',
      start_url: `${checks.origin}/width`,
      urls: '/width',
      viewport_desktop: 'yes',
      viewport_phone: 'yes',
    });
    expect(scan.status).toBe('done');
    const sum = scan.summary!;
    expect(sum.viewports).toEqual(['desktop', 'phone']);
    const desk = sum.pages.find((p) => p.viewport === 'desktop')!;
    const phone = sum.pages.find((p) => p.viewport === 'phone')!;
    expect(phone.secondary).toBe(true);
    expect(phone.score!).toBeLessThan(desk.score!);
    expect(scan.score).toBe(Math.round((desk.score! + phone.score!) / 2)); // the mean over page x viewport reports
    const alt = sum.groups.find((g) => g.rule === 'image-alt')!;
    expect(alt).toMatchObject({ viewports: ['phone'], pages: [`${checks.origin}/width`], occurrences: 1 });
    expect(alt.points).toBeGreaterThan(0);
    expect(sum.groups[0].rule).toBe('image-alt');
    const page = await admin.get(`/dashboard/sites/${scan.site_id}`);
    expect(page.text).toMatch(/>image-alt<\/a>[^]*?<td role="cell" data-label="Viewports">phone 375<\/td>/);
  }, 120_000);

  it('runs the reflow check and the keyboard walk once per page: at desktop, or at the phone viewport when it is the only one', async () => {
    const [both, phoneOnly] = await Promise.all(
      [{ viewport_desktop: 'yes', name: 'Checks at desktop' }, { name: 'Phone only' }].map((o) =>
        sites.create(workspaceId, {
          start_url: `${checks.origin}/reflow-bad`,
          urls: '/reflow-bad', // a list: no crawl
          viewport_phone: 'yes',
          reflow_check: 'yes',
          keyboard_walk: 'yes',
          ...o,
        }),
      ),
    );
    await sites.runNow(both);
    const a = await scanEnded(sites, both.id, 1);
    expect(a.summary!.pages.filter((p) => p.review).map((p) => p.viewport)).toEqual(['desktop']);
    await sites.runNow(phoneOnly);
    const b = await scanEnded(sites, phoneOnly.id, 1);
    expect(b.summary!.viewports).toEqual(['phone']);
    expect(b.summary!.pages).toHaveLength(1);
    expect(b.summary!.pages[0].review!.reflow).toBeGreaterThan(0);
    expect(b.summary!.pages[0].review!.keyboard).toBeGreaterThanOrEqual(0);
  }, 120_000);
});
