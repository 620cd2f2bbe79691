import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../src/a11y/browser/browser-pool';
import { AccountsService } from '../../src/accounts/accounts.service';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { TrackingService } from '../../src/visibility/tracking/tracking.service';
import { createTestApp, TestApp } from '../utils/test-app';
import { signedInUser, USER_PASSWORD } from '../utils/web-users';
import { WebClient } from '../web/web-client';
import { scan2 } from './fixtures';

type Form = Record<string, string>;

/** Bulk add through the page's own multipart form (CSRF token in the query string, as the form's action has it). */
async function bulk(c: WebClient, o: { lines?: string; csv?: string }) {
  await c.get('/dashboard/tracking/prompts');
  const action = /action="(\/dashboard\/tracking\/prompts\/bulk[^"]*)"/.exec(c.lastPage)![1].replace(/&amp;/g, '&');
  const form = new FormData();
  form.set('lines', o.lines ?? '');
  if (o.csv !== undefined) form.set('file', new Blob([o.csv], { type: 'text/csv' }), 'prompts.csv');
  return c.request('POST', action, { body: form });
}

/** What to track, in the dashboard (issue 22 item 2): admins edit, members read, the API stays read-only. */
describe('Tracking set-up (e2e)', () => {
  let t: TestApp;
  let admin: WebClient;
  let member: WebClient;
  let workspaceId: string;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.createKey('track')).key;
    admin = (await signedInUser(t, 'track', 'track-admin@example.com', 'admin')).client;
    member = (await signedInUser(t, 'track', 'track-member@example.com', 'member')).client;
    workspaceId = (
      await t.app
        .get(AccountsService)
        .listInWorkspace(
          (await t.dataSource.query<Array<{ id: string }>>(`SELECT id FROM workspaces WHERE slug = 'track'`))[0].id,
        )
    )[0].workspace_id;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('starts from the latest import: its brand, competitors and prompts with their ids', async () => {
    await t.app.get(VisibilityIngestService).importScan('track', scan2);
    const r = await admin.get('/dashboard/tracking');
    expect(r.status).toBe(200);
    expect(r.text).toContain('value="Acme"');
    expect(r.text).toContain('Globex');
    const p = await admin.get('/dashboard/tracking/prompts');
    expect(p.text).toContain('best crm for startups');
    expect(p.text).toContain('<code>p3</code>');
    expect(p.text).toContain('3 prompts, 2 enabled');
  });

  it('saves the brand, a competitor and the scan settings; a bad value is named on the form and nothing changes', async () => {
    // Each form sent right (saved: 303 to the page with its notice), then with a bad value (400, named on the form).
    const forms: Array<{ action: string; right: Form; saved: string; wrong: Form; says: string[] }> = [
      {
        action: 'brand',
        right: { business: 'Acme Inc', name: 'Acme', aliases: 'Acme Inc, ACME Corp', domains: 'acme.com\nacme.io' },
        saved: '/dashboard/tracking?saved=brand',
        wrong: { business: 'Acme Inc', name: 'Acme', aliases: '', domains: 'not a domain' },
        says: [
          '<a href="#brand-domains">&quot;not&quot; is not a domain such as acme.com.</a>',
          'id="brand-domains" name="domains" rows="2" aria-invalid="true"',
        ],
      },
      {
        action: 'competitors',
        right: { name: 'Umbrella', aliases: 'Umbrella Corp', domains: 'umbrella.example' },
        saved: '/dashboard/tracking?saved=competitor',
        wrong: { name: 'globex', aliases: '', domains: '' },
        says: ['is already the brand or a competitor'],
      },
      {
        action: 'scans',
        right: { platforms: 'openai', samples: '3', schedule: 'daily', budget_calls: '500', budget_usd: '12.50' },
        saved: '/dashboard/tracking?saved=scans#scans-settings',
        wrong: { samples: '0', schedule: 'weekly', budget_calls: '10', budget_usd: '1' },
        says: ['The number of samples must be a whole number from 1 to 10.'],
      },
    ];
    for (const f of forms) {
      await admin.get('/dashboard/tracking');
      const saved = await admin.post(`/dashboard/tracking/${f.action}`, f.right);
      expect([saved.status, saved.location]).toEqual([303, f.saved]);
      await admin.get('/dashboard/tracking');
      const refused = await admin.post(`/dashboard/tracking/${f.action}`, f.wrong);
      expect(refused.status).toBe(400);
      for (const text of f.says) expect(refused.text).toContain(text);
    }
    const s = await t.app.get(TrackingService).settings(workspaceId);
    expect(s).toMatchObject({
      business: 'Acme Inc',
      brand: { name: 'Acme', aliases: ['Acme Inc', 'ACME Corp'], domains: ['acme.com', 'acme.io'] },
      platforms: ['openai'],
      samples: 3,
      schedule: 'daily',
      budget_calls: 500,
      budget_usd: 12.5,
    });
    expect(s.competitors.map((c) => c.name)).toEqual(['Globex', 'Initech', 'Umbrella']);
  });

  it('lets a member read the set-up but change nothing', async () => {
    const r = await member.get('/dashboard/tracking');
    expect(r.status).toBe(200);
    expect(r.text).toContain('an admin changes it');
    expect(r.text).not.toContain('action="/dashboard/tracking/brand"');
    expect(r.text).toContain('Umbrella');
    const p = await member.post('/dashboard/tracking/prompts', { text: 'sneaky prompt' });
    expect(p.status).toBe(403);
    expect((await member.get('/dashboard/tracking/prompts')).text).not.toContain('sneaky prompt');
  });

  it('adds, edits and deletes one prompt', async () => {
    await admin.get('/dashboard/tracking/prompts');
    let r = await admin.post('/dashboard/tracking/prompts', {
      text: 'crm for   agencies',
      tags: 'crm, agency',
      intent: 'commercial',
      country: 'de',
      enabled: 'yes',
    });
    expect(r.status).toBe(303);
    await admin.get('/dashboard/tracking/prompts');
    r = await admin.post('/dashboard/tracking/prompts', { text: 'CRM for agencies' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('This prompt is already tracked.');
    r = await admin.post('/dashboard/tracking/prompts', { text: 'crm in spain', country: 'ESP' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('the country &quot;ESP&quot; is not a two-letter code');
    const added = (await t.app.get(TrackingService).allPrompts(workspaceId)).find(
      (p) => p.text === 'crm for agencies',
    )!;
    expect(added).toMatchObject({ tags: ['crm', 'agency'], intent: 'commercial', country: 'DE', enabled: true });
    await admin.get(`/dashboard/tracking/prompts/${added.id}/edit`);
    r = await admin.post(`/dashboard/tracking/prompts/${added.id}`, {
      text: 'crm for agencies',
      tags: '',
      intent: '',
      country: '',
    });
    expect(r.status).toBe(303);
    expect(await t.app.get(TrackingService).prompt(workspaceId, added.id)).toMatchObject({
      tags: [],
      intent: null,
      country: null,
      enabled: false,
    });
    await admin.get('/dashboard/tracking/prompts');
    r = await admin.post(`/dashboard/tracking/prompts/${added.id}/delete`);
    expect(r.status).toBe(303);
    expect((await admin.get(`/dashboard/tracking/prompts/${added.id}/edit`)).status).toBe(404);
  });

  it('adds prompts in bulk from a CSV file; a bad row is named with its reason and nothing is added', async () => {
    const before = (await t.app.get(TrackingService).settings(workspaceId)).prompts_total;
    let r = await bulk(admin, { csv: 'text,tags,country\n"crm, for dentists",crm;dental,US\ncrm for lawyers,,FRA\n' });
    expect(r.status).toBe(400);
    expect(r.text).toContain(
      'CSV row 3: the country &quot;FRA&quot; is not a two-letter code such as US or DE. Nothing was added.',
    );
    expect(r.text).toContain('href="#file"');
    r = await bulk(admin, { csv: 'text,colour\nx,red\n' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('&quot;colour&quot; is not one of them');
    expect((await t.app.get(TrackingService).settings(workspaceId)).prompts_total).toBe(before);
    r = await bulk(admin, {
      csv: 'text,tags,country,enabled\n"crm, for dentists",crm;dental,US,yes\ncrm for lawyers,,FR,no\nbest crm for startups,,,\n',
    });
    expect([r.status, r.location]).toEqual([303, '/dashboard/tracking/prompts?added=2&skipped=1']);
    const all = await t.app.get(TrackingService).allPrompts(workspaceId);
    expect(all.find((p) => p.text === 'crm, for dentists')).toMatchObject({
      tags: ['crm', 'dental'],
      country: 'US',
      enabled: true,
    });
    expect(all.find((p) => p.text === 'crm for lawyers')).toMatchObject({ enabled: false, country: 'FR' });
  });

  it('adds 5,000 pasted lines at once, and refuses the lines past the limit without adding any', async () => {
    const service = t.app.get(TrackingService);
    const before = (await service.settings(workspaceId)).prompts_total;
    const lines = Array.from(
      { length: 5000 - before },
      (_, i) => `which crm tool number ${i} is best for a team of ${i % 50} people?`,
    ).join('\n');
    const started = Date.now();
    let r = await bulk(admin, { lines });
    expect(r.status).toBe(303);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await service.settings(workspaceId)).prompts_total).toBe(5000);
    r = await bulk(admin, { lines: 'one more prompt\nand another' });
    expect(r.status).toBe(400);
    expect(r.text).toContain(
      'A workspace tracks at most 5,000 prompts: 5,000 are tracked and 2 would be added. Nothing was added.',
    );
    const page2 = await admin.get('/dashboard/tracking/prompts?offset=100');
    expect(page2.text).toContain('Previous page');
  }, 30_000);

  it('shows the prompts the dashboard set in the API at once (the API itself stays read-only)', async () => {
    const edited = { text: 'crm pricing in 2027', tags: 'pricing', intent: 'commercial', country: 'GB' };
    await admin.get('/dashboard/tracking/prompts');
    expect((await admin.post('/dashboard/tracking/prompts/p2', edited)).status).toBe(303);
    const deadline = Date.now() + 3000;
    let texts: string[] = [];
    while (Date.now() < deadline) {
      const body = (await (
        await fetch(`${admin.origin}/api/v1/prompts?country=${edited.country}&limit=500`, {
          headers: { authorization: `Bearer ${key}` },
        })
      ).json()) as { prompts?: Array<{ text: string; enabled: boolean }>; items?: Array<{ text: string }> };
      texts = (body.prompts ?? body.items ?? []).map((p) => p.text);
      if (texts.includes(edited.text)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(texts).toContain(edited.text);
    expect(texts).not.toContain('crm pricing');
  });

  it('keeps the API read-only', async () => {
    const r = await fetch(`${admin.origin}/api/v1/prompts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(r.status).toBe(405);
  });

  it('works in Chromium: the brand and scan settings saved through the forms, the scans page saying why it cannot run', async () => {
    const browser = await puppeteer.launch({
      executablePath: t.config.CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      protocolTimeout: 40_000,
    });
    try {
      const page = await (await browser.createBrowserContext()).newPage();
      await page.goto(`${admin.origin}/signin`);
      await page.type('#email', 'track-admin@example.com');
      await page.type('#password', USER_PASSWORD);
      await Promise.all([page.waitForNavigation(), page.click('form.stack button[type=submit]')]);
      await page.goto(`${admin.origin}/dashboard/tracking`);
      await page.$eval('#brand-aliases', (e) => ((e as unknown as { value: string }).value = ''));
      await page.type('#brand-aliases', 'Acme Corporation');
      await Promise.all([
        page.waitForNavigation(),
        page.click('form[action="/dashboard/tracking/brand"] button[type=submit]'),
      ]);
      expect(page.url()).toBe(`${admin.origin}/dashboard/tracking?saved=brand`);
      expect(await page.$eval('p.notice[role=status]', (e) => e.textContent)).toContain('The brand is saved.');
      await page.click('#schedule-weekly');
      await page.click('#platform-gemini');
      await Promise.all([
        page.waitForNavigation(),
        page.click('form[action="/dashboard/tracking/scans"] button[type=submit]'),
      ]);
      expect(await page.$eval('#schedule-weekly', (e) => (e as unknown as { checked: boolean }).checked)).toBe(true);
      expect(await page.$eval('#platform-gemini', (e) => (e as unknown as { checked: boolean }).checked)).toBe(true);
      expect((await t.app.get(TrackingService).settings(workspaceId)).brand.aliases).toEqual(['Acme Corporation']);
      await page.goto(`${admin.origin}/dashboard/scans`);
      const reasons = await page.$eval('#not-ready', (e) => e.textContent ?? '');
      expect(reasons).toContain('No AI platform is configured on this instance');
      expect(reasons).toContain('Google Gemini needs GEMINI_API_KEY');
      expect(await page.$('form[action="/dashboard/scans/run"]')).toBeNull();
    } finally {
      await browser.close();
    }
  }, 60_000);
});
