import request from 'supertest';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { SiteLogin } from '../../src/a11y/sites/site-login';
import type { SiteScan } from '../../src/a11y/sites/site.types';
import { SitesService } from '../../src/a11y/sites/sites.service';
import { WebClient } from '../web/web-client';
import { bytes } from '../utils/body-parsers';
import { pdfText } from './pdf-text';
import type { ReportPage } from '../../src/a11y/report/report.types';
import { createTestApp, TestApp } from '../utils/test-app';
import { siteAdmin } from './site-admin';
import { SiteChecksFixture, startSiteChecksFixture } from './site-checks-fixture';
import { scanEnded as siteScanEnded } from './sites-fixture';

/**
 * A site scan's options through the engine (viewport, checks beyond axe, cookies) and the checks
 * themselves, in real Chromium on loopback pages (test/a11y/site-checks-fixture.ts).
 */
describe('Site scan options and checks beyond axe (e2e)', () => {
  let t: TestApp;
  let site: SiteChecksFixture;
  let scans: ScanService;
  let sites: SitesService;
  let admin: WebClient;
  let workspaceId = '';
  const idOf = (path: string): string => path.split('/').pop()!;

  beforeAll(async () => {
    site = await startSiteChecksFixture();
    t = await createTestApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true' } });
    scans = t.app.get(ScanService);
    sites = t.app.get(SitesService);
    ({ workspaceId, admin } = await siteAdmin(t, 'checks'));
  }, 120_000);

  /** Waits (polling the condition, no fixed sleep) until the site's newest scan has ended. */
  const scanEnded = (siteId: string, count: number): Promise<SiteScan> => siteScanEnded(sites, siteId, count, 90_000);

  /** Adds a site through the form; answers its page's path. */
  async function addSite(form: Record<string, string>): Promise<string> {
    await admin.get('/dashboard/sites');
    const added = await admin.post('/dashboard/sites', form);
    expect(added.status).toBe(303);
    return added.location!.replace(/\?.*$/, '');
  }

  async function run(path: string, count: number): Promise<SiteScan> {
    await admin.get(path);
    expect((await admin.post(`${path}/run`)).status).toBe(303);
    return scanEnded(idOf(path), count);
  }

  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  const scanned = async (path: string, options: Parameters<ScanService['scan']>[3]): Promise<ReportPage> =>
    (await scans.scan(`${site.origin}${path}`, false, undefined, { fresh: true, ...options })).pages[0];

  it('scans at the phone viewport when asked, and keeps the public scan at desktop with its own cache key', async () => {
    const phone = await scans.scan(`${site.origin}/width`, false, undefined, { options: { viewport: 'phone' } });
    expect(phone.meta.viewport).toEqual({ width: 375, height: 812 });
    expect(phone.pages[0].violations.map((v) => v.id)).toContain('image-alt'); // shown below 600 px only
    const desktop = await scans.scan(`${site.origin}/width`, false);
    expect(desktop.cached).toBe(false); // the phone run is not the public scan's cache entry
    expect(desktop.meta.viewport).toEqual({ width: 1280, height: 800 });
    expect(desktop.pages[0].review).toBeUndefined();
    expect(desktop.pages[0].violations.map((v) => v.id)).not.toContain('image-alt');
    expect(phone.id).not.toBe(desktop.id);
    const again = await scans.scan(`${site.origin}/width`, false, undefined, { options: { viewport: 'phone' } });
    expect(again).toMatchObject({ id: phone.id, cached: true });
  }, 60_000);

  it('finds the page that breaks only at 320 px (which axe does not flag), and leaves a page that reflows clean', async () => {
    const bad = await scanned('/reflow-bad', { options: { reflow: true } });
    expect(bad.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')))).not.toContain('#wide');
    expect(bad.score).toBe(100);
    expect(bad.review?.reflow).toMatchObject({ width: 320, horizontalScroll: true });
    expect(bad.review!.reflow!.scrollWidth).toBeGreaterThan(320);
    expect(bad.review!.reflow!.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'horizontal-scroll', selector: '#wide' }),
        expect.objectContaining({ kind: 'clipped', selector: '#third', name: 'Print' }),
      ]),
    );
    expect(bad.review!.reflow!.findings.find((f) => f.selector === '#third')!.message).toMatch(/^Cut off by #bar/);
    expect(bad.review!.needsReview).toBe(bad.review!.reflow!.findings.length);
    // At the phone width (375) the same page does not scroll sideways: only 320 breaks it.
    const phone = await scanned('/reflow-bad', { options: { viewport: 'phone' } });
    expect(phone.review).toBeUndefined();
    const ok = await scanned('/reflow-ok', { options: { reflow: true } });
    expect(ok.review?.reflow).toMatchObject({ horizontalScroll: false, findings: [] });
    expect(ok.review!.needsReview).toBe(0);
  }, 60_000);

  it('walks the keyboard: finds the trap, the control without a focus indicator and the controls never reached', async () => {
    const trap = await scanned('/trap', { options: { keyboard: true } });
    const walk = trap.review!.keyboard!;
    expect(walk.ended).toBe('trapped');
    expect(walk.stops.map((s) => s.selector).slice(0, 3)).toEqual([
      'body > header > a',
      'body > main > p:nth-of-type(1) > a',
      '#plain',
    ]);
    const found = walk.findings.map((f) => `${f.kind} ${f.selector}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'keyboard-trap #t1',
        'no-focus-indicator #plain',
        'unreached #after1',
        'unreached #after2',
      ]),
    );
    expect(walk.findings.find((f) => f.kind === 'keyboard-trap')!.message).toMatch(/Shift\+Tab does not leave either/);
    expect(found).not.toContain('no-focus-indicator #t1');
    expect(walk.stops[0].screenshot).toMatch(/\/api\/screenshots\/[A-Za-z0-9_-]{16}\.png$/);
    const shot = await request(t.server).get(new URL(walk.stops[0].screenshot!).pathname);
    expect(shot.status).toBe(200);
    expect(shot.headers['content-type']).toBe('image/png');
    // The score is axe's alone.
    expect(trap.score).toBe((await scanned('/trap', {})).score);

    const keys = await scanned('/keys', { options: { keyboard: true } });
    expect(keys.review!.keyboard).toMatchObject({ ended: 'cycled', findings: [] });
    expect(keys.review!.keyboard!.stops.map((s) => s.name)).toEqual([
      'Home',
      'One',
      'Two',
      'Three',
      'Search',
      'Embedded',
    ]);
    // A page that sends the focus back once is walked to its end: no trap, every link reached.
    const bounce = await scanned('/bounce', { options: { keyboard: true } });
    expect(bounce.review!.keyboard).toMatchObject({ ended: 'cycled', findings: [] });
    expect(bounce.review!.keyboard!.stops.map((s) => s.name)).toEqual(['Home', 'Alpha', 'Beta', 'Gamma', 'Delta']);
  }, 90_000);

  it('scans a site at both viewports with the reflow check and keyboard walk: each page per viewport, findings as needs review', async () => {
    const path = await addSite({
      name: 'Checks site',
      start_url: `${site.origin}/`,
      urls: `${site.origin}/reflow-bad\n${site.origin}/trap`,
      viewport_desktop: 'yes',
      viewport_phone: 'yes',
      reflow_check: 'yes',
      keyboard_walk: 'yes',
    });
    const saved = await sites.get(workspaceId, idOf(path));
    expect(saved).toMatchObject({
      viewports: ['desktop', 'phone'],
      reflow_check: true,
      keyboard_walk: true,
      login: null,
    });
    const scan = await run(path, 1);
    expect(scan.status).toBe('done');
    const pages = scan.summary!.pages;
    expect(pages.map((p) => `${new URL(p.url).pathname} ${p.viewport}`).sort()).toEqual([
      '/ desktop',
      '/ phone',
      '/reflow-bad desktop',
      '/reflow-bad phone',
      '/trap desktop',
      '/trap phone',
    ]);
    expect(pages.filter((p) => p.secondary).map((p) => p.viewport)).toEqual(['phone', 'phone', 'phone']);
    const bad = pages.find((p) => p.url === `${site.origin}/reflow-bad` && !p.secondary)!;
    expect(bad.score).toBe(100); // the reflow failure is for review, not in the score
    expect(bad.review!.reflow).toBeGreaterThan(0);
    expect(pages.find((p) => p.url === `${site.origin}/trap` && !p.secondary)!.review).toMatchObject({ trapped: true });
    expect(pages.find((p) => p.secondary)!.review).toBeUndefined(); // the checks run at the first viewport only
    const page = await admin.get(path);
    expect(page.text).toContain(`${site.origin}/trap (phone 375)`);
    expect(page.text).toMatch(/<caption>Reflow and keyboard findings per page<\/caption>/);
    expect(page.text).toMatch(/id="viewport_phone" name="viewport_phone" value="yes" checked/);
    const report = await admin.get(`/r/${bad.reportId}`);
    expect(report.text).toContain('Reflow at 320 px');
    expect(report.text).toContain('#wide');
    const pdf = await request(t.server).get(`/api/report.pdf?id=${bad.reportId}`).buffer(true).parse(bytes);
    expect(pdf.status).toBe(200);
    expect((await pdfText(pdf.body as Buffer)).text).toMatch(/Checks beyond axe: needs review[\s\S]*#wide/);
  }, 120_000);

  it('signs in before the scan (values sealed, never shown), scans the signed-in pages, and fails with the reason on a wrong password', async () => {
    t.app.get(SiteLogin).checkWithinMs = 3000; // the failing check below gives up sooner than in production
    /** The members site's form with the login's two values (a box left empty keeps the stored value). */
    const membersSite = (user: string, pass: string): Record<string, string> => ({
      name: 'Members site',
      start_url: `${site.origin}/account`,
      urls: `${site.origin}/members`,
      login_url: `${site.origin}/login`,
      login_field1_selector: '#user',
      login_field1_value: user,
      login_field2_selector: '#pass',
      login_field2_value: pass,
      login_submit: '#go',
      login_check: '#account',
    });
    const path = await addSite(membersSite('member@example.com', site.password));
    const id = idOf(path);
    const rows = await t.dataSource.query<{ login: unknown }[]>(`SELECT login FROM a11y_sites WHERE id = $1`, [id]);
    expect(JSON.stringify(rows[0].login)).not.toContain(site.password);
    expect(JSON.stringify(rows[0].login)).not.toContain('member@example.com');
    const shown = await admin.get(path);
    expect(shown.text).not.toContain(site.password);
    expect(shown.text).toContain('Set: stored encrypted, never shown again.');

    const scan = await run(path, 1);
    expect(scan.status).toBe('done');
    expect(site.logins.at(-1)).toEqual({ user: 'member@example.com', pass: site.password });
    const byPath = Object.fromEntries(scan.summary!.pages.map((p) => [new URL(p.url).pathname, p]));
    expect(byPath['/account'].reportId).toBeDefined(); // signed out, it would have been sent to /login
    const members = await scans.scan(`${site.origin}/members`, false); // the public, signed-out scan
    expect(members.pages[0].violations.map((v) => v.id)).not.toContain('image-alt');
    expect(scan.summary!.groups.find((g) => g.rule === 'image-alt')?.pages).toEqual([`${site.origin}/members`]);

    // A new value for the password only; the e-mail's stored value is kept (its box left empty).
    await admin.get(path);
    const saved = await admin.post(path, membersSite('', 'a wrong password'));
    expect(saved.status).toBe(303);
    const failed = await run(path, 2);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe("Login failed: the check '#account' was not found after pressing 'Sign in'.");
    expect(site.logins.at(-1)).toEqual({ user: 'member@example.com', pass: 'a wrong password' });
    expect((await admin.get(path)).text).toContain(
      'The last scan failed: Login failed: the check &#39;#account&#39; was not found after pressing &#39;Sign in&#39;.',
    );
  }, 120_000);
});
