import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import escapeHtml from 'escape-html';
import { join } from 'node:path';
import { PDFDocument, degrees } from 'pdf-lib';
import puppeteer, { Browser, Page } from 'puppeteer-core';
import { ScanService } from '../../src/a11y/scan/scan.service';
import { SitesService } from '../../src/a11y/sites/sites.service';
import { AccountsService } from '../../src/accounts/accounts.service';
import { WorkspaceAiKeysService } from '../../src/common/ai/workspace-ai-keys.service';
import { ApiKeysService } from '../../src/common/api-keys/api-keys.service';
import { AlertsStore } from '../../src/common/notify/alerts.store';
import { PDF_TOOLS } from '../../src/pdf-tools/tools';
import { DemoSeedService } from '../../src/visibility/demo/demo-seed.service';
import { TrackingService } from '../../src/visibility/tracking/tracking.service';
import { CSS, JS } from '../../src/common/html/assets';
import { html as fixtureHtml, send, startFixtureServer, FixtureServer } from '../a11y/fixture-server';
import { gradeAt } from '../utils/axe-score';
import { docShot } from '../utils/screenshots';
import { createTestApp, TestApp } from '../utils/test-app';
import { CHROMIUM_ARGS } from '../../src/a11y/browser/browser-pool';
import { WebClient } from './web-client';

const PASSWORD = 'a long enough password';
const PDF_LIMIT = 2;
const LOGIN_MAX = 3;

async function samplePdf(pages = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([300, 400]).drawText(`Page ${i + 1}`, { x: 40, y: 300, size: 24 });
  return doc.save();
}

/** A 2-page PDF encrypted with the user password "user" (`qpdf --encrypt user owner 256`). */
async function lockedPdf(): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'web-locked-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), await samplePdf(2));
    execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', join(dir, 'in.pdf'), join(dir, 'out.pdf')], {
      stdio: 'pipe',
    });
    return readFileSync(join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `qpdf <option> file` prints about a PDF (--check, --show-encryption). */
function qpdfSays(bytes: Uint8Array, option: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'web-qpdf-'));
  try {
    writeFileSync(join(dir, 'f.pdf'), bytes);
    return execFileSync('qpdf', [option, join(dir, 'f.pdf')], { stdio: 'pipe' }).toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every page a visitor reaches without signing in. */
const ANONYMOUS_PAGES = [
  '/',
  '/signin',
  '/signup',
  '/scan',
  '/pdf',
  '/pdf/images',
  '/pdf/ocr',
  ...PDF_TOOLS.map((tool) => `/pdf/${tool.name.replace(/_/g, '-')}`),
];

/** The website in real Chromium on the full app, and every page graded by Beacon's own scanner. */
describe('Website in Chromium (e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let demoKey: string;
  let fixture: FixtureServer;

  /** WEB_SCREENSHOTS=1 writes the documentation screenshots (docs/screenshots/). */
  const shot = docShot;

  /** A page in a browser context of its own (its own cookies: one visitor). */
  const fresh = async (): Promise<Page> => (await browser.createBrowserContext()).newPage();

  const signIn = async (page: Page, email: string, password: string): Promise<void> => {
    await page.goto(`${origin}/signin`);
    await page.type('#email', email);
    await page.type('#password', password);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  };

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        SCAN_RATE_LIMIT: '100',
        PDF_DAILY_LIMIT: String(PDF_LIMIT),
        PDF_MAX_FILE_BYTES: '300000',
        LOGIN_MAX_FAILURES: String(LOGIN_MAX),
        LOGIN_IP_MAX_FAILURES: '1000',
        PDF_UPLOAD_RATE_LIMIT: '1000',
      },
    });
    origin = WebClient.of(t.server).origin;
    demoKey = (await t.app.get(DemoSeedService).seed()).key;
    const accounts = t.app.get(AccountsService);
    const admin = await accounts.createUser('demo', 'admin@example.com', 'admin');
    const member = await accounts.createUser('demo', 'member@example.com', 'member');
    // Members and admins past their first sign-in (the one-time password flow is tested below and in accounts.e2e-spec).
    for (const u of [member]) {
      const c = WebClient.of(t.server);
      await c.signIn(u.email, u.one_time_password, PASSWORD);
    }
    (globalThis as { adminOtp?: string }).adminOtp = admin.one_time_password;
    browser = await puppeteer.launch({
      executablePath: t.config.CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      protocolTimeout: 40_000,
    });
    fixture = await startFixtureServer({
      '/': (_req, res) =>
        send(res, 200, fixtureHtml('<main><h1>Fixture home</h1><p>Hello.</p></main>', 'Fixture home')),
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
    await t?.close();
  });

  it('keeps each page under 100 KB of JavaScript and CSS', () => {
    expect(CSS.body.length + JS.body.length).toBeLessThan(100 * 1024);
  });

  it('signs in with the one-time password, changes it, and the dashboard shows the mention rate the API returns', async () => {
    const page = await fresh();
    await page.setViewport({ width: 1100, height: 800 });
    await page.goto(`${origin}/`);
    await shot(page, 'home');
    await page.goto(`${origin}/dashboard`);
    expect(page.url()).toBe(`${origin}/signin?next=%2Fdashboard`);
    await shot(page, 'signin');
    await page.type('#email', 'admin@example.com');
    await page.type('#password', (globalThis as { adminOtp?: string }).adminOtp!);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(page.url()).toBe(`${origin}/account/password`);
    await shot(page, 'account-password');
    // The sign-in just proved the one-time password: the page does not ask for it again.
    expect(await page.$('#current_password')).toBeNull();
    await page.type('#new_password', PASSWORD);
    await page.type('#confirm_password', PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('form.stack button[type=submit]')]);
    expect(page.url()).toBe(`${origin}/dashboard`);
    const shown = await page.$eval('#mention-rate', (e) => e.textContent);
    const api = (await (
      await fetch(`${origin}/api/v1/visibility`, { headers: { authorization: `Bearer ${demoKey}` } })
    ).json()) as {
      latest: { mention_rate: number; mention_rate_ci: { low: number; high: number } };
      comparison: { mention_rate: { significant: boolean; p_value: number } };
    };
    expect(shown).toBe(`${api.latest.mention_rate}%`);
    // The API's 95 % Wilson interval under the rate, and whether the week-over-week change is significant, in words.
    expect(await page.$eval('#mention-rate-ci', (e) => e.textContent)).toBe(
      `95 % interval ${api.latest.mention_rate_ci.low}–${api.latest.mention_rate_ci.high} %`,
    );
    const significance = await page.$$eval('table tr', (rows) =>
      rows
        .filter((r) => r.querySelector('th')?.textContent === 'Mention rate (%)')
        .map((r) => r.querySelector('td:last-child')?.textContent),
    );
    expect(significance).toEqual([
      `${api.comparison.mention_rate.significant ? 'yes' : 'no'} (p = ${api.comparison.mention_rate.p_value})`,
    ]);
    expect(await page.$('header.site form.signout[action="/signout"] button')).not.toBeNull();
    expect(await page.$('svg.chart[role=img]')).not.toBeNull();
    // Every label of the history chart inside the picture; the first grade clear of the y axis.
    const chart = (await page.evaluate(`(() => {
      const svg = document.querySelector('svg.chart');
      const width = svg.viewBox.baseVal.width;
      const axis = Number(svg.querySelector('line.axis').getAttribute('x1'));
      const boxes = [...svg.querySelectorAll('text')].map((t) => t.getBBox());
      const notes = [...svg.querySelectorAll('circle.dot + text')].map((t) => t.getBBox());
      return { outside: boxes.filter((b) => b.x < 0 || b.x + b.width > width).length, firstNoteGap: notes.length ? notes[0].x - axis : null };
    })()`)) as { outside: number; firstNoteGap: number | null };
    expect(chart.outside).toBe(0);
    expect(chart.firstNoteGap).toBeGreaterThan(8);
    // The history's changes in words, as the summary above says them: never the API's codes.
    const changes = await page.$$eval('table tbody tr td:last-child', (cells) => cells.map((c) => c.textContent ?? ''));
    expect(changes.join(' ')).toContain('gaps gained');
    expect(changes.join(' ')).not.toMatch(/\w_\w/);
    await shot(page, 'dashboard');
    for (const tab of ['prompts', 'answers', 'sources', 'urls', 'gaps']) {
      await page.goto(`${origin}/dashboard/${tab}`);
      await shot(page, `dashboard-${tab}`);
    }
    await page.goto(`${origin}/dashboard/settings/members`);
    await shot(page, 'settings-members');
    await page.browserContext().close();
  }, 60_000);

  it('creates a key, the API accepts it, revocation makes the very next call 401', async () => {
    const page = await fresh();
    await page.setViewport({ width: 1100, height: 800 });
    await signIn(page, 'admin@example.com', PASSWORD);
    await page.goto(`${origin}/dashboard/settings/api-keys`);
    await page.type('#label', 'Browser test');
    await Promise.all([page.waitForNavigation(), page.click('form.inline button[type=submit]')]);
    const key = (await page.$eval('#new-key', (e) => e.textContent))!.trim();
    expect(key).toMatch(/^bcn_/);
    expect(await page.$eval('button[data-copy]', (b) => (b as unknown as { hidden: boolean }).hidden)).toBe(false);
    await shot(page, 'settings-api-keys');
    const call = () => fetch(`${origin}/api/v1/visibility`, { headers: { authorization: `Bearer ${key}` } });
    expect((await call()).status).toBe(200);
    await page.goto(`${origin}/dashboard/settings/api-keys`);
    const revokeLink = await page.$$eval('a', (as) =>
      as.filter((a) => a.textContent?.includes('Browser test')).map((a) => a.getAttribute('href')),
    );
    await page.goto(`${origin}${revokeLink[0]}`);
    await shot(page, 'settings-api-keys-revoke');
    await Promise.all([page.waitForNavigation(), page.click('button.danger')]);
    expect(page.url()).toContain('/dashboard/settings/api-keys?revoked=');
    expect((await call()).status).toBe(401);
    await page.browserContext().close();
  }, 60_000);

  it('a member sees the keys without a create form; a forged create is refused', async () => {
    const page = await fresh();
    await signIn(page, 'member@example.com', PASSWORD);
    await page.goto(`${origin}/dashboard/settings/api-keys`);
    expect(await page.$('#label')).toBeNull();
    expect(await page.content()).toContain('an admin creates and revokes them');
    const status = await page.evaluate(`(async () => {
      const token = document.querySelector('input[name=_csrf]').value;
      const r = await fetch('/dashboard/settings/api-keys', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '_csrf=' + encodeURIComponent(token) + '&label=x' });
      return r.status;
    })()`);
    expect(status).toBe(403);
    // Without the token, even an admin's browser is refused.
    const noToken = await page.evaluate(async () => (await fetch('/signout', { method: 'POST' })).status);
    expect(noToken).toBe(403);
    await page.browserContext().close();
  }, 60_000);

  const pdfFile = async (name: string, bytes: Uint8Array): Promise<string> => {
    const dir = join(__dirname, '..', '..', 'node_modules', '.cache', 'web-test');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, name);
    writeFileSync(file, bytes);
    return file;
  };
  const choose = async (page: Page, selector: string, file: string): Promise<void> => {
    const input = await page.$(selector);
    await (input as unknown as { uploadFile: (p: string) => Promise<void> }).uploadFile(file);
  };
  /** POST /files as an agent sends it: the JSON answer and its status. */
  const agentUpload = async (
    bytes: Uint8Array,
    name: string,
  ): Promise<{ status: number; body: { file_id?: string; message?: string } }> => {
    const form = new FormData();
    form.set('file', new Blob([Buffer.from(bytes)], { type: 'application/pdf' }), name);
    const r = await fetch(`${origin}/files`, { method: 'POST', body: form });
    return { status: r.status, body: (await r.json()) as { file_id?: string; message?: string } };
  };

  it('uploads a PDF through POST /files with progress, runs the tool with its file_id and downloads a valid result', async () => {
    const page = await fresh();
    await page.setViewport({ width: 1100, height: 900 });
    await page.goto(`${origin}/pdf`);
    await shot(page, 'pdf');
    await page.goto(`${origin}/pdf/rotate-pages`);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
    });
    // With the script, the no-JS upload button is hidden: choosing the file uploads it at once.
    expect(await page.$eval('#upload-form [data-nojs]', (e) => (e as unknown as { hidden: boolean }).hidden)).toBe(
      true,
    );
    await choose(page, '#file', await pdfFile('sample.pdf', await samplePdf(2)));
    await page.waitForSelector('#chosen li input[name=file_id]', { timeout: 30_000 });
    expect(await page.$eval('#upload-status', (e) => e.textContent)).toContain('sample.pdf uploaded (2 pages)');
    expect(
      await page.$eval('#upload-form progress', (e) => [
        (e as unknown as { value: number }).value,
        (e as unknown as { max: number }).max,
      ]),
    ).toEqual([expect.any(Number), expect.any(Number)]);
    await page.select('#opt-angle', '90');
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result', { timeout: 30_000 });
    expect(posts).toEqual(['/files', '/pdf/rotate-pages']);
    await shot(page, 'pdf-rotate-pages');
    expect(await page.$eval('#quota', (e) => e.textContent)).toContain(`${PDF_LIMIT - 1} of ${PDF_LIMIT}`);
    expect(await page.$eval('#quota', (e) => e.textContent)).toMatch(
      /resets at 00:00 UTC on \d{4}-\d\d-\d\d, in about \d+ h/,
    );
    const href = await page.$eval('#result a[href^="/files/"]', (a) => a.getAttribute('href'));
    const res = await fetch(`${origin}${href}`);
    expect(res.status).toBe(200);
    const doc = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getPage(0).getRotation()).toEqual(degrees(90));
    // The result's details for people: what was done to which pages.
    expect(await page.$$eval('#result dl.pairs dt, #result dl.pairs dd', (e) => e.map((x) => x.textContent))).toEqual([
      'Pages rotated',
      '1-2',
      'Rotation of each page now',
      '90° on pages 1-2',
    ]);
    expect(await page.$eval('#run-form button[type=submit]', (b) => b.textContent)).toBe('Rotate the pages');
    // The uploaded file stays chosen: the tool can run again with other options.
    expect(await page.$$eval('#chosen li', (l) => l.length)).toBe(1);
    await page.browserContext().close();
  }, 60_000);

  it('merges files dropped one after the other (each through POST /files)', async () => {
    const page = await fresh();
    await page.goto(`${origin}/pdf/merge-pdfs`);
    await choose(page, '#file', await pdfFile('one.pdf', await samplePdf(1)));
    await page.waitForFunction("document.querySelectorAll('#chosen li').length === 1");
    await choose(page, '#file', await pdfFile('two.pdf', await samplePdf(2)));
    await page.waitForFunction("document.querySelectorAll('#chosen li').length === 2");
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result a[href^="/files/"]', { timeout: 30_000 });
    const href = await page.$eval('#result a[href^="/files/"]', (a) => a.getAttribute('href'));
    const doc = await PDFDocument.load(new Uint8Array(await (await fetch(`${origin}${href}`)).arrayBuffer()));
    expect(doc.getPageCount()).toBe(3);
    await page.browserContext().close();
  }, 60_000);

  it('works without JavaScript: the upload form goes through the same upload service, then the tool runs', async () => {
    const page = await fresh();
    await page.setJavaScriptEnabled(false);
    await page.goto(`${origin}/pdf/compress-pdf`);
    expect(await page.$eval('#upload-form [data-nojs]', (e) => (e as unknown as { hidden: boolean }).hidden)).toBe(
      false,
    );
    await choose(page, '#file', await pdfFile('plain.pdf', await samplePdf(1)));
    await Promise.all([page.waitForNavigation(), page.click('#upload-form button[type=submit]')]);
    expect(await page.$eval('#chosen', (e) => e.textContent)).toContain('plain.pdf');
    await Promise.all([page.waitForNavigation(), page.click('#run-form button[type=submit]')]);
    const href = await page.$eval('#result a[href^="/files/"]', (a) => a.getAttribute('href'));
    expect((await fetch(`${origin}${href}`)).status).toBe(200);
    await page.browserContext().close();
  }, 60_000);

  it('a password-protected PDF: the page says so, asks for its password, names the field when it is missing or wrong, and the right one decrypts it (with and without JavaScript)', async () => {
    const file = await pdfFile('report.pdf', await lockedPdf());
    const page = await fresh();
    await page.setViewport({ width: 1100, height: 900 });
    await page.goto(`${origin}/pdf/rotate-pages`);
    await choose(page, '#file', file);
    await page.waitForSelector('#chosen li #password-1', { timeout: 30_000 });
    expect(await page.$eval('#upload-status', (e) => e.textContent)).toBe(
      'report.pdf uploaded (password-protected: enter its password below). Set the options and run the tool.',
    );
    expect(await page.$eval('#chosen li .hint', (e) => e.textContent)).toMatch(/^\(password-protected, \d+ KB\)$/);
    const field = () =>
      page.$eval('#password-1', (e) => [
        e.getAttribute('type'),
        e.getAttribute('autocomplete'),
        e.getAttribute('aria-invalid'),
        (e as unknown as { labels: { textContent: string }[] }).labels[0].textContent,
      ]);
    expect(await field()).toEqual(['password', 'off', null, 'Password of report.pdf']);
    await shot(page, 'pdf-password');
    // Wrong: the summary names the field and links to it; focus moves to it; the typed password is gone.
    await page.type('#password-1', 'not the password');
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('.error-summary', { timeout: 30_000 });
    expect(await page.$eval('.error-summary a', (a) => [a.getAttribute('href'), a.textContent])).toEqual([
      '#password-1',
      expect.stringMatching(
        /^The password of report\.pdf is not correct: type it again in "Password of report\.pdf"\./,
      ),
    ]);
    expect(await page.evaluate('document.activeElement.className')).toBe('error-summary');
    expect(await field()).toEqual(['password', 'off', 'true', 'Password of report.pdf']);
    expect(await page.$eval('#password-1', (e) => (e as unknown as { value: string }).value)).toBe('');
    expect(await page.content()).not.toContain('not the password');
    await shot(page, 'pdf-password-wrong');
    // Right: the result says the file was decrypted; the download is a valid PDF without encryption.
    await page.type('#password-1', 'user');
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result', { timeout: 30_000 });
    expect(await page.$eval('#result-note', (e) => e.textContent)).toBe(
      'report.pdf was decrypted with your password: the result has no password.',
    );
    await shot(page, 'pdf-password-result');
    const href = await page.$eval('#result a[href^="/files/"]', (a) => a.getAttribute('href'));
    const out = new Uint8Array(await (await fetch(`${origin}${href}`)).arrayBuffer());
    expect(qpdfSays(out, '--check')).toMatch(/No syntax or stream encoding errors found/);
    expect(qpdfSays(out, '--show-encryption')).toMatch(/File is not encrypted/);
    expect((await PDFDocument.load(out)).getPage(0).getRotation()).toEqual(degrees(90));
    await page.browserContext().close();

    // Without JavaScript: the upload form, then the same field and run.
    const noJs = await fresh();
    await noJs.setJavaScriptEnabled(false);
    await noJs.goto(`${origin}/pdf/rotate-pages`);
    await choose(noJs, '#file', file);
    await Promise.all([noJs.waitForNavigation(), noJs.click('#upload-form button[type=submit]')]);
    expect(await noJs.$eval('#chosen li .hint', (e) => e.textContent)).toMatch(/^\(password-protected, /);
    const [missing] = await Promise.all([noJs.waitForNavigation(), noJs.click('#run-form button[type=submit]')]);
    expect(missing!.status()).toBe(400);
    expect(await noJs.$eval('.error-summary a', (a) => [a.getAttribute('href'), a.textContent])).toEqual([
      '#password-1',
      'report.pdf is protected by a password: enter it in "Password of report.pdf".',
    ]);
    await noJs.type('#password-1', 'user');
    const [done] = await Promise.all([noJs.waitForNavigation(), noJs.click('#run-form button[type=submit]')]);
    expect(done!.status()).toBe(200);
    expect(await noJs.$eval('#result-note', (e) => e.textContent)).toContain('was decrypted with your password');
    await noJs.browserContext().close();
  }, 90_000);

  it('counts per device with an IP pool cap of 4x the daily limit, and shows the quota', async () => {
    const up = await agentUpload(await samplePdf(1), 'a.pdf');
    expect(up.status).toBe(201);
    const run = async (c: WebClient) => {
      await c.get('/pdf/flatten-form');
      return c.post('/pdf/flatten-form', { file_id: up.body.file_id! });
    };
    const statuses: number[][] = [];
    for (let d = 0; d < 5; d++) {
      const device = WebClient.of(t.server);
      const s: number[] = [];
      for (let i = 0; i < PDF_LIMIT + 1; i++) s.push((await run(device)).status);
      statuses.push(s);
      if (d === 0) {
        const last = await run(device);
        expect(last.text).toContain(`0 of ${PDF_LIMIT}`);
        expect(last.text).toContain(`You have used all ${PDF_LIMIT} runs of this tool for today on this device.`);
        expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    // Each device gets the daily limit; the IP's pool (4 x limit) runs out on the fifth device.
    expect(statuses.slice(0, 4)).toEqual(Array.from({ length: 4 }, () => [200, 200, 429]));
    expect(statuses[4]).toEqual([429, 429, 429]);
  }, 120_000);

  it('refuses oversized and non-PDF uploads with the messages of POST /files, and missing CSRF', async () => {
    const c = WebClient.of(t.server);
    const post = async (bytes: Uint8Array, name: string, token = true) => {
      await c.get('/pdf/compress-pdf');
      const form = new FormData();
      form.set('file', new Blob([Buffer.from(bytes)]), name);
      return c.request('POST', `/pdf/compress-pdf/upload${token ? `?_csrf=${encodeURIComponent(c.csrf())}` : ''}`, {
        body: form,
      });
    };
    const summary = (text: string) => /<div class="error-summary"[\s\S]*?<a href="#file">([^<]*)<\/a>/.exec(text)?.[1];
    for (const [bytes, name, status, words] of [
      [
        new Uint8Array(400_000),
        'big.pdf',
        413,
        /^(?:Your file|big\.pdf) is larger than \d+ KB, the most a file may be here\.$/,
      ],
      [
        Buffer.from('hello, not a PDF'),
        'notes.txt',
        415,
        /^(?:Your file|notes\.txt) is not a PDF file: choose a PDF\.$/,
      ],
      [
        Buffer.from('%PDF-1.7 but nothing else'),
        'broken.pdf',
        400,
        /^(?:Your file|broken\.pdf) is damaged and cannot be read, even after an attempt to repair it\.$/,
      ],
    ] as const) {
      const page = await post(bytes, name);
      const agent = await agentUpload(bytes, name);
      expect([page.status, agent.status]).toEqual([status, status]);
      // One code path with the page's own words: the same refusal, worded for a person (issue #20 item 9).
      expect(summary(page.text)).toMatch(words);
      expect(summary(page.text)).not.toBe(escapeHtml(agent.body.message ?? ''));
      expect(page.text).not.toMatch(/\bat \S+\.(ts|js):\d+/);
    }
    expect((await post(await samplePdf(1), 'ok.pdf', false)).status).toBe(403);
    // A run without a file, or with an expired/unknown file_id.
    await c.get('/pdf/compress-pdf');
    expect((await c.post('/pdf/compress-pdf', {})).status).toBe(400);
    const gone = await c.post('/pdf/compress-pdf', { file_id: 'A'.repeat(43) });
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('There is a problem');
    // In the browser, the script shows the refusal of POST /files.
    const page = await fresh();
    await page.goto(`${origin}/pdf/compress-pdf`);
    await choose(page, '#file', await pdfFile('notes.pdf', Buffer.from('hello, not a PDF')));
    await page.waitForSelector('#upload-status.bad');
    expect(await page.$eval('#upload-status', (e) => e.textContent)).toBe('notes.pdf is not a PDF file: choose a PDF.');
    await shot(page, 'pdf-upload-error');
    await page.browserContext().close();
  }, 60_000);

  it('scans a loopback page from /scan and lands on its report; blocked addresses get a readable message', async () => {
    const page = await fresh();
    await page.setViewport({ width: 1100, height: 800 });
    await page.goto(`${origin}/scan`);
    await shot(page, 'scan');
    await page.type('#url', `${fixture.origin}/`);
    await Promise.all([page.waitForNavigation({ timeout: 60_000 }), page.click('form.stack button[type=submit]')]);
    expect(page.url()).toMatch(new RegExp(`^${origin}/r/[A-Za-z0-9_-]+$`));
    expect(await page.content()).toContain(fixture.origin);
    await page.goto(`${origin}/scan`);
    await page.type('#url', 'http://169.254.169.254/latest/meta-data/');
    const [resp] = await Promise.all([page.waitForNavigation(), page.click('form.stack button[type=submit]')]);
    expect(resp!.status()).toBe(400);
    expect(await page.$eval('.error-summary', (e) => e.textContent)).toContain('public web addresses');
    await shot(page, 'scan-error');
    await page.browserContext().close();
  }, 120_000);

  it('error pages are readable HTML with their status, and Sign out in the header for a signed-in user', async () => {
    const page = await fresh();
    const r = await page.goto(`${origin}/no/such/page`);
    expect(r!.status()).toBe(404);
    expect(await page.$eval('h1', (e) => e.textContent)).toBe('Page not found');
    expect(await page.$('header.site form.signout')).toBeNull();
    await signIn(page, 'member@example.com', PASSWORD);
    await page.setViewport({ width: 1100, height: 800 });
    expect((await page.goto(`${origin}/no/such/page`))!.status()).toBe(404);
    await shot(page, 'error-404');
    await Promise.all([page.waitForNavigation(), page.click('header.site form.signout button')]);
    expect(page.url()).toBe(`${origin}/signin?signed_out=1`);
    expect((await page.goto(`${origin}/dashboard`))!.url()).toContain('/signin?next=');
    await page.browserContext().close();
  }, 60_000);

  it('keeps the console clean under the CSP: the icon loads, nothing 404s', async () => {
    const page = await fresh();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warn') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
    page.on('requestfailed', (q) => problems.push(`failed: ${q.url()}`));
    const icons: number[] = [];
    page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (/^\/(favicon\.ico|assets\/favicon-)/.test(path)) icons.push(res.status());
      else if (res.status() >= 400) problems.push(`${res.status()} ${path}`);
    });
    await signIn(page, 'member@example.com', PASSWORD);
    for (const path of ['/', '/dashboard', '/pdf/split-pdf', '/scan']) {
      await page.goto(`${origin}${path}`, { waitUntil: 'networkidle0' });
    }
    const icon = await page.$eval('link[rel=icon]', (l) => l.getAttribute('href'));
    expect(icon).toMatch(/^\/assets\/favicon-[0-9a-f]{12}\.svg$/);
    expect((await fetch(`${origin}/favicon.ico`)).status).toBe(200);
    expect(icons.length).toBeGreaterThan(0); // Chromium asked for the icon...
    expect(icons.every((s) => s === 200)).toBe(true); // ...and got it
    expect(problems).toEqual([]);
    await page.browserContext().close();
  }, 60_000);

  it('split: the ranges hint and error speak of the comma-separated text the form takes', async () => {
    const page = await fresh();
    await page.setViewport({ width: 1100, height: 900 });
    await page.goto(`${origin}/pdf/split-pdf`);
    expect(await page.$eval('#opt-ranges-hint', (e) => e.textContent)).toBe(
      'Needed when splitting by page ranges: one document per range, separated by commas; e.g. "1-3, 4-10, 11-last" makes three documents.',
    );
    // The page speaks to people: no MCP words, a button saying what it does, and only the field the mode needs.
    const text = (await page.evaluate('document.querySelector("main").innerText')) as string;
    expect(text).not.toMatch(/file_id|download link|Run split/);
    expect(await page.$eval('#run-form button[type=submit]', (b) => b.textContent)).toBe('Split the PDF');
    const shown = async () =>
      page.$$eval('[data-when]', (boxes) =>
        boxes.filter((b) => !(b as unknown as { hidden: boolean }).hidden).map((b) => b.querySelector('input')!.id),
      );
    expect(await shown()).toEqual(['opt-ranges']);
    await page.select('#opt-mode', 'every');
    expect(await shown()).toEqual(['opt-every']);
    await page.select('#opt-mode', 'count');
    expect(await shown()).toEqual(['opt-count']);
    expect(
      await page.$$eval('#run-form label', (ls) =>
        ls
          .filter((l) => /Page ranges|Pages per document|Number of documents/.test(l.textContent ?? ''))
          .map((l) => l.textContent),
      ),
    ).toEqual(['Page ranges', 'Pages per document', 'Number of documents']);
    await choose(page, '#file', await pdfFile('split.pdf', await samplePdf(4)));
    await page.waitForSelector('#chosen li input[name=file_id]', { timeout: 30_000 });
    await page.select('#opt-mode', 'ranges');
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('.error-summary', { timeout: 30_000 });
    const [href, error] = await page.$eval('.error-summary a', (a) => [a.getAttribute('href'), a.textContent]);
    expect(href).toBe('#opt-ranges');
    expect(error).toBe('You chose "By page ranges": fill in "Page ranges".');
    expect(await page.$eval('#opt-ranges', (e) => e.getAttribute('aria-invalid'))).toBe('true');
    // As the form says: comma-separated ranges.
    await page.type('#opt-ranges', '1-3, 4-');
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result', { timeout: 30_000 });
    expect(await page.$$eval('#result a[href^="/files/"]', (as) => as.map((a) => a.textContent))).toHaveLength(2);
    expect(await page.$eval('#result', (e) => e.textContent)).toMatch(
      /\(3 pages, [^)]*pages 1-3 of your file[^)]*\)[\s\S]*\(1 page, [^)]*page 4 of your file/,
    );
    await page.browserContext().close();
  }, 60_000);

  it("split without JavaScript: every mode's field is shown and says when it is needed; the one of the chosen mode is used", async () => {
    const page = await fresh();
    await page.setJavaScriptEnabled(false);
    await page.goto(`${origin}/pdf/split-pdf`);
    const hints = await page.$$eval('[data-when]', (boxes) =>
      boxes
        .filter((b) => !(b as unknown as { hidden: boolean }).hidden)
        .map((b) => b.querySelector('.hint')?.textContent ?? ''),
    );
    expect(hints).toHaveLength(3);
    for (const hint of hints) expect(hint).toMatch(/^Needed when splitting/);
    expect(await page.$$eval('[data-when] label', (ls) => ls.map((l) => l.textContent))).toEqual([
      'Page ranges',
      'Pages per document',
      'Number of documents',
    ]);
    await choose(page, '#file', await pdfFile('split-nojs.pdf', await samplePdf(3)));
    await Promise.all([page.waitForNavigation(), page.click('#upload-form button[type=submit]')]);
    await page.select('#opt-mode', 'every');
    await page.type('#opt-ranges', '1-2'); // filled for another mode: not sent
    await page.type('#opt-every', '1');
    await Promise.all([page.waitForNavigation(), page.click('#run-form button[type=submit]')]);
    expect(await page.$$eval('#result a[href^="/files/"]', (as) => as.length)).toBe(3);
    await page.browserContext().close();
  }, 60_000);

  it("/pdf shows each tool's first sentence whole; tool names and short names redirect (301) to the tool page; the watermark page offers what it can do", async () => {
    const page = await fresh();
    await page.goto(`${origin}/pdf`);
    const summaries = await page.$$eval('ul.tools:not([aria-labelledby=more-tools]) .card p', (ps) =>
      ps.map((p) => p.textContent ?? ''),
    );
    expect(summaries).toHaveLength(PDF_TOOLS.length);
    for (const text of summaries) {
      expect(text).toMatch(/[^.]\.$/); // one full stop, never ".."
      expect(text).not.toMatch(/\be\.g\.$|\(e\.g\.$/); // never cut at an abbreviation
      expect(text.split('(').length).toBe(text.split(')').length);
    }
    expect(summaries.find((x) => x.startsWith('Delete chosen pages'))).toBe(
      'Delete chosen pages from a PDF, for example "1, last" or "even".',
    );
    for (const [from, to] of [
      ['/pdf/rotate_pages', '/pdf/rotate-pages'],
      ['/pdf/rotate', '/pdf/rotate-pages'],
      ['/pdf/merge', '/pdf/merge-pdfs'],
      ['/pdf/split_pdf?x=1', '/pdf/split-pdf?x=1'],
      ['/pdf/Watermark', '/pdf/add-watermark'],
    ]) {
      const r = await fetch(`${origin}${from}`, { redirect: 'manual', headers: { accept: 'text/html' } });
      expect({ from, status: r.status, location: r.headers.get('location') }).toEqual({
        from,
        status: 301,
        location: to,
      });
    }
    expect((await fetch(`${origin}/pdf/rotation-of-doom`, { headers: { accept: 'text/html' } })).status).toBe(404);
    const r = await page.goto(`${origin}/pdf/watermark`);
    expect(r!.status()).toBe(200);
    expect(page.url()).toBe(`${origin}/pdf/add-watermark`);
    const text = (await page.evaluate('document.querySelector("main").innerText')) as string;
    expect(text).not.toMatch(/image_base64|Image scale|file_id/);
    expect(await page.$('#opt-image_scale')).toBeNull();
    expect(await page.$eval('#opt-tiled', (e) => e.getAttribute('type'))).toBe('checkbox');
    expect(await page.$eval('#opt-pages-hint', (e) => e.textContent)).toContain('"1-3, 7, 10-last"');
    expect(await page.$eval('#opt-pages-hint', (e) => e.textContent)).not.toMatch(/N-M|"-M"|N-last/);
    // Tiled, ticked, reaches the tool.
    await choose(page, '#file', await pdfFile('wm.pdf', await samplePdf(1)));
    await page.waitForSelector('#chosen li input[name=file_id]', { timeout: 30_000 });
    // The page picker is drawn above the box once the file is in: wait for it, so the click is not
    // made while the box moves down (seen once under load: the run went without "tiled").
    await page.waitForFunction("document.querySelectorAll('fieldset.page-picker li').length === 1", {
      timeout: 30_000,
    });
    await page.type('#opt-text', 'Draft');
    await page.click('#opt-tiled');
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result', { timeout: 30_000 });
    expect(await page.$eval('#opt-tiled', (e) => (e as unknown as { checked: boolean }).checked)).toBe(true);
    expect(await page.$eval('#result dl.pairs', (e) => e.textContent)).toContain('Pages watermarked1');
    await page.browserContext().close();
  }, 60_000);

  it("scores 100 with Beacon's own scan (ScanService) on every anonymous page", async () => {
    const scans = t.app.get(ScanService);
    const scores: Record<string, number> = {};
    for (const path of ANONYMOUS_PAGES) {
      const report = await scans.scan(`${origin}${path}`, false);
      scores[path] = report.score;
      if (report.score !== 100)
        console.log(path, JSON.stringify(report.pages[0].violations.map((v) => [v.id, v.nodes.map((n) => n.html)])));
    }
    expect(Object.entries(scores).filter(([, s]) => s !== 100)).toEqual([]);
  }, 300_000);

  /**
   * Every page and every error page, in the state a visitor reaches it (forms submitted, uploads
   * refused), graded with the scanner's own axe run and scoring at a desktop width and at a phone's
   * (375 px, where nothing may scroll sideways), on a cold load under 100 KB of JavaScript and CSS.
   */
  it('scores 100 on every page and error page, at desktop and phone width, each under 100 KB of JS and CSS', async () => {
    /** Pages of a signed-in user: each must have Sign out in its header. */
    const signedIn = new Set<Page>();
    const scores: Record<string, number> = {};
    const overflow: Record<string, number> = {};
    const weight: Record<string, number> = {};
    const withoutSignOut: string[] = [];
    const grade = async (page: Page, label: string, phoneShot?: string): Promise<void> => {
      if (signedIn.has(page) && !(await page.$('header.site form.signout button'))) withoutSignOut.push(label);
      const bytes = (await page.evaluate(`performance.getEntriesByType('resource')
        .filter((e) => e.initiatorType === 'script' || e.initiatorType === 'link' || /\\.(js|css)$/.test(e.name))
        .reduce((n, e) => n + e.decodedBodySize, 0)`)) as number;
      weight[label] = bytes;
      for (const width of [1280, 375]) {
        const entry = await gradeAt(t, page, width);
        scores[`${label} @${width}`] = entry.score;
        if (entry.score !== 100)
          console.log(label, width, JSON.stringify(entry.violations.map((v) => [v.id, v.nodes.map((n) => n.html)])));
      }
      const wide = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
      if (wide > 0) overflow[label] = wide;
      // On a phone no table scrolls sideways either: wide tables become one card per row.
      await page.setViewport({ width: 375, height: 800 });
      const tables = (await page.evaluate(
        `[...document.querySelectorAll('.table-wrap')].map((t) => t.scrollWidth - t.clientWidth).filter((d) => d > 0)`,
      )) as number[];
      if (tables.length) overflow[`${label}: tables @375`] = Math.max(...tables);
      if (phoneShot) await shot(page, phoneShot);
      await page.setViewport({ width: 1280, height: 800 });
    };
    /** At 375 px, every element matching `selector` is within the screen (not scrolled off to the side). */
    const onPhoneScreen = async (page: Page, selector: string): Promise<boolean[]> => {
      await page.setViewport({ width: 375, height: 800 });
      const inside = (await page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.left >= 0 && r.right <= document.documentElement.clientWidth;
      })`)) as boolean[];
      await page.setViewport({ width: 1280, height: 800 });
      return inside;
    };
    const open = async (js = true): Promise<Page> => {
      const page = await fresh();
      await page.setCacheEnabled(false); // every load is a cold load
      await page.setBypassCSP(true); // as the scanner's own pages: else the CSP forbids injecting axe
      await page.setJavaScriptEnabled(js);
      await page.setViewport({ width: 1280, height: 800 });
      return page;
    };
    const go = async (page: Page, path: string, status = 200): Promise<void> => {
      const r = await page.goto(`${origin}${path}`);
      expect({ path, status: r!.status() }).toEqual({ path, status });
    };
    const submit = async (page: Page, button: string, status: number): Promise<void> => {
      const [r] = await Promise.all([page.waitForNavigation(), page.click(button)]);
      expect({ button, status: r!.status() }).toEqual({ button, status });
    };

    // Anonymous pages and their error states.
    const anon = await open();
    for (const path of ANONYMOUS_PAGES) {
      await go(anon, path);
      await grade(
        anon,
        path,
        { '/': 'home-phone', '/signin': 'signin-phone', '/pdf/add-watermark': 'pdf-tool-phone' }[path],
      );
    }
    await go(anon, '/no/such/page', 404);
    await grade(anon, '404 page');
    await go(anon, '/pdf/no-such-tool', 404);
    await grade(anon, '404 tool');
    await go(anon, '/signin');
    await anon.type('#email', 'nobody@example.com');
    await anon.type('#password', 'a wrong password');
    await submit(anon, 'form.stack button[type=submit]', 401);
    await grade(anon, 'sign-in refused (401)');
    for (let i = 0; i < LOGIN_MAX; i++) {
      await anon.type('#password', 'a wrong password');
      const [r] = await Promise.all([anon.waitForNavigation(), anon.click('form.stack button[type=submit]')]);
      if (r!.status() === 429) break;
    }
    expect(await anon.$eval('h1', (e) => e.textContent)).toBeTruthy();
    expect(await anon.evaluate('document.body.textContent')).toMatch(/Try again in \d+ minute/);
    await grade(anon, 'sign-in locked (429)', 'error-429-lockout');
    await go(anon, '/scan');
    await anon.$eval('input[name=_csrf]', (e) => e.setAttribute('value', 'forged.token'));
    await anon.type('#url', 'https://example.com/');
    await submit(anon, 'form.stack button[type=submit]', 403);
    expect(await anon.evaluate('document.body.textContent')).toContain('security token');
    await grade(anon, 'CSRF refused (403)', 'error-csrf');
    await go(anon, '/scan');
    await anon.type('#url', 'http://169.254.169.254/latest/meta-data/');
    await submit(anon, 'form.stack button[type=submit]', 400);
    await grade(anon, 'scan refused (400)');
    await go(anon, '/pdf/compress-pdf');
    await choose(anon, '#file', await pdfFile('notes.pdf', Buffer.from('hello, not a PDF')));
    await anon.waitForSelector('#upload-status.bad');
    await grade(anon, 'upload refused by POST /files');
    await go(anon, '/pdf/split-pdf');
    await choose(anon, '#file', await pdfFile('split.pdf', await samplePdf(2)));
    await anon.waitForSelector('#chosen li');
    await anon.select('#opt-mode', 'ranges');
    await anon.click('#run-form button[type=submit]');
    await anon.waitForSelector('.error-summary');
    await grade(anon, 'split without ranges (400)');
    // A result with long lists (200 rotated pages): read as ranges, nothing wider than a phone.
    await go(anon, '/pdf/rotate-pages');
    await choose(anon, '#file', await pdfFile('long.pdf', await samplePdf(200)));
    await anon.waitForSelector('#chosen li');
    await anon.select('#opt-angle', '90');
    await anon.click('#run-form button[type=submit]');
    await anon.waitForSelector('#result dl.pairs');
    expect(await anon.$eval('#result dl.pairs', (e) => e.textContent)).toContain('Pages rotated1-200');
    expect(await anon.$eval('#result dl.pairs', (e) => e.textContent)).toContain('90° on pages 1-200');
    await grade(anon, 'tool result with 200 pages');
    await go(anon, '/pdf/add-page-numbers');
    await choose(anon, '#file', await pdfFile('numbers.pdf', await samplePdf(1)));
    await anon.waitForSelector('#chosen li');
    await grade(anon, 'file uploaded');
    for (let i = 0; i <= PDF_LIMIT; i++) {
      const [r] = await Promise.all([
        anon.waitForResponse((res) => res.request().method() === 'POST' && res.url().endsWith('/pdf/add-page-numbers')),
        anon.click('#run-form button[type=submit]'),
      ]);
      await anon.waitForSelector('#run-form button[type=submit]:not([disabled])');
      if (i === 0) await grade(anon, 'tool result', 'pdf-result-phone');
      if (i === PDF_LIMIT) expect(r.status()).toBe(429);
    }
    await grade(anon, 'tool quota reached (429)', 'pdf-quota');
    await anon.browserContext().close();

    // A password-protected file: chosen (its password field), password missing (400), wrong (422), the decrypted result.
    const locked = await open();
    await go(locked, '/pdf/compress-pdf');
    await choose(locked, '#file', await pdfFile('locked.pdf', await lockedPdf()));
    await locked.waitForSelector('#password-1');
    await grade(locked, 'password-protected file chosen', 'pdf-password-phone');
    await locked.click('#run-form button[type=submit]');
    await locked.waitForSelector('.error-summary');
    await grade(locked, 'password missing (400)');
    await locked.type('#password-1', 'wrong');
    await locked.click('#run-form button[type=submit]');
    await locked.waitForFunction(
      "(document.querySelector('.error-summary a') || {}).textContent?.includes('not correct')",
      { timeout: 30_000 },
    );
    await grade(locked, 'wrong password (422)', 'pdf-password-wrong-phone');
    await locked.type('#password-1', 'user');
    await locked.click('#run-form button[type=submit]');
    await locked.waitForSelector('#result-note');
    await grade(locked, 'result of a password-protected file', 'pdf-password-result-phone');
    await locked.browserContext().close();

    const noJs = await open(false);
    await go(noJs, '/pdf/rotate-pages');
    await choose(noJs, '#file', await pdfFile('notes.txt', Buffer.from('hello, not a PDF')));
    await submit(noJs, '#upload-form button[type=submit]', 415);
    await noJs.setJavaScriptEnabled(true); // axe needs it; the page's own script was not run
    await grade(noJs, 'upload refused without JavaScript (415)', 'pdf-upload-error-nojs');
    await noJs.browserContext().close();

    // Signed-in pages (admin) and their error states.
    const keyId = (await t.app.get(ApiKeysService).listKeys('demo'))[0].id;
    const grader = await t.app.get(AccountsService).createUser('demo', 'grader@example.com', 'admin');
    await WebClient.of(t.server).signIn(grader.email, grader.one_time_password, PASSWORD);
    const admin = await open();
    await signIn(admin, grader.email, PASSWORD);
    signedIn.add(admin);
    // The confirmations before removing: a tracked prompt, a competitor, a site (the demo tracks the first two).
    const tracking = t.app.get(TrackingService);
    const promptId = (await tracking.allPrompts(grader.workspace_id))[0].id;
    expect((await tracking.settings(grader.workspace_id)).competitors.length).toBeGreaterThan(0);
    const site = await t.app
      .get(SitesService)
      .create(grader.workspace_id, { name: 'Graded shop', start_url: 'https://graded-shop.example/' });
    // And before removing a workspace's AI key, an alert destination, and disabling a member.
    await t.app.get(WorkspaceAiKeysService).set(grader.workspace_id, 'perplexity', 'pplx-graded', null);
    const destination = await t.app
      .get(AlertsStore)
      .addDestination(grader.workspace_id, 'email', 'graded-alerts@example.com', null);
    const memberId = (await t.app.get(AccountsService).listUsers('demo')).find(
      (u) => u.email === 'member@example.com',
    )!.id;
    for (const path of [
      '/dashboard',
      '/dashboard/prompts',
      '/dashboard/answers',
      '/dashboard/sources',
      '/dashboard/urls',
      '/dashboard/gaps',
      '/dashboard/trends',
      '/dashboard/settings/api-keys',
      '/dashboard/settings/members',
      '/dashboard/settings/alerts',
      '/dashboard/settings/ai-providers',
      '/dashboard/sites',
      '/pdf/ai',
      '/dashboard/tracking',
      '/dashboard/tracking/prompts',
      '/dashboard/scans',
      `/dashboard/settings/api-keys/${keyId}/revoke`,
      `/dashboard/tracking/prompts/${promptId}/delete`,
      '/dashboard/tracking/competitors/0/delete',
      `/dashboard/sites/${site.id}/remove`,
      '/dashboard/settings/ai-providers/perplexity/remove',
      `/dashboard/settings/alerts/${destination.id}/remove`,
      `/dashboard/settings/members/${memberId}/disable`,
      '/account/password',
    ]) {
      await go(admin, path);
      await grade(
        admin,
        path,
        {
          '/dashboard': 'dashboard-phone',
          '/dashboard/answers': 'dashboard-answers-phone',
          '/dashboard/settings/api-keys': 'settings-api-keys-phone',
        }[path],
      );
    }
    await go(admin, '/dashboard/answers?limit=0', 400);
    await grade(admin, 'invalid filter (400)', 'error-400-filter');
    await go(admin, '/dashboard/settings/api-keys');
    await admin.type('#label', 'Graded key');
    await submit(admin, 'form.inline button[type=submit]', 200);
    await grade(admin, 'key created');
    // On a phone: the Revoke links, Last used and Status are on the screen, not off to the side.
    const revokes = await onPhoneScreen(admin, 'table a[href$="/revoke"]');
    expect(revokes.length).toBeGreaterThan(0);
    expect(revokes.every(Boolean)).toBe(true);
    expect(
      (await onPhoneScreen(admin, 'table td[data-label="Last used"], table td[data-label="Status"]')).every(Boolean),
    ).toBe(true);
    await go(admin, '/dashboard/settings/members');
    await admin.type('#email', 'invited@example.com');
    await submit(admin, 'form.inline button[type=submit]', 201);
    await grade(admin, 'member invited');
    const lastSignIn = await onPhoneScreen(
      admin,
      'table td[data-label="Last sign-in"], table td[data-label="Actions"] button',
    );
    expect(lastSignIn.length).toBeGreaterThan(0);
    expect(lastSignIn.every(Boolean)).toBe(true);
    await go(admin, '/dashboard');
    const weekOverWeek = await onPhoneScreen(admin, 'table td[data-label="Significant at 95 %"]');
    expect(weekOverWeek.length).toBeGreaterThan(0);
    expect(weekOverWeek.every(Boolean)).toBe(true);
    await go(admin, '/dashboard/settings/api-keys');
    await admin.setCookie({
      name: 'beacon_session',
      value: 'A'.repeat(43),
      domain: '127.0.0.1',
      path: '/',
      httpOnly: true,
    });
    await admin.type('#label', 'After the session ended');
    await submit(admin, 'form.inline button[type=submit]', 401);
    signedIn.delete(admin); // the session has ended: Sign in, not Sign out
    await grade(admin, 'session ended (401)', 'error-401');
    await admin.browserContext().close();

    // The password change right after a sign-in with a one-time password (which it does not ask again).
    const invited = await t.app.get(AccountsService).createUser('demo', 'fresh@example.com', 'member');
    const fresher = await open();
    await signIn(fresher, invited.email, invited.one_time_password);
    signedIn.add(fresher);
    expect(fresher.url()).toBe(`${origin}/account/password`);
    expect(await fresher.$('#current_password')).toBeNull();
    await grade(fresher, 'password change after a one-time password');
    await fresher.browserContext().close();

    // A member on an admin action.
    const member = await open();
    await signIn(member, 'member@example.com', PASSWORD);
    signedIn.add(member);
    await go(member, `/dashboard/settings/api-keys/${keyId}/revoke`, 403);
    await grade(member, 'member on an admin action (403)', 'error-403');
    await member.browserContext().close();

    expect(Object.entries(scores).filter(([, s]) => s !== 100)).toEqual([]);
    expect(withoutSignOut).toEqual([]);
    expect(overflow).toEqual({});
    expect(Object.entries(weight).filter(([, b]) => !(b > 0 && b < 100 * 1024))).toEqual([]);
  }, 600_000);
});
