import request from 'supertest';
import { ScanService } from '../../src/a11y/scan/scan.service';
import type { ReportPage } from '../../src/a11y/report/report.types';
import { createTestApp, TestApp } from '../utils/test-app';
import { SiteChecksFixture, startSiteChecksFixture } from './site-checks-fixture';

/**
 * A site scan's options through the engine (viewport, checks beyond axe, cookies) and the checks
 * themselves, in real Chromium on loopback pages (test/a11y/site-checks-fixture.ts).
 */
describe('Site scan options and checks beyond axe (e2e)', () => {
  let t: TestApp;
  let site: SiteChecksFixture;
  let scans: ScanService;

  beforeAll(async () => {
    site = await startSiteChecksFixture();
    t = await createTestApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true' } });
    scans = t.app.get(ScanService);
  }, 120_000);

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
      expect.arrayContaining([expect.objectContaining({ kind: 'horizontal-scroll', selector: '#wide' })]),
    );
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
    expect(keys.review!.keyboard!.stops.map((s) => s.name)).toEqual(['Home', 'One', 'Two', 'Three', 'Search']);
  }, 90_000);
});
