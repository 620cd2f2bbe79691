import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { SitesService } from '../../src/a11y/sites/sites.service';
import { AccountsService } from '../../src/accounts/accounts.service';
import { WorkspaceAiKeysService } from '../../src/common/ai/workspace-ai-keys.service';
import { AlertsService } from '../../src/common/notify/alerts.service';
import { AlertsStore } from '../../src/common/notify/alerts.store';
import { TrackingService } from '../../src/visibility/tracking/tracking.service';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { cacheDir, useBrowserApp } from '../utils/browser-app';
import { docShot } from '../utils/screenshots';
import { signedInUser, USER_PASSWORD } from '../utils/web-users';
import { scan1, scan2 } from '../visibility/fixtures';

/** A PDF of `pages` small pages. */
async function samplePdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 1; i <= pages; i++) doc.addPage([300, 400]).drawText(`Page ${i}`, { x: 40, y: 300, size: 24 });
  return doc.save();
}

/** Program text a person should never read on a page. */
const PROGRAM_TEXT = /%PDF-|\(0 bytes\)|Invalid url|no %PDF|\bupload is\b/;

/**
 * Defects found by a user's walk through the whole website (issue note "QA walk"), each checked in
 * real Chromium against the full app: boxes and radios with their words beside them, date fields
 * like the others, refusals in the page's words, no CSRF token left in the address bar after a
 * form, a colour code that is not one holding the run back, and pages that say what is there.
 */
describe('Website QA walk (Chromium e2e)', () => {
  const app = useBrowserApp({
    env: {
      PDF_DAILY_LIMIT: '50',
      // One scan a minute: the second form is the throttler's refusal.
      SCAN_RATE_LIMIT: '1',
      // A platform for the AI page's forms (never asked here: only uploads are sent).
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_COMPATIBLE_MODEL: 'local-model',
    },
  });
  const dir = cacheDir('web-qa-walk');

  /** Workspace `qa` with two imported scans (made once). */
  let workspace: Promise<void> | undefined;
  const qaWorkspace = async (): Promise<void> => {
    await app.t.createKey('qa');
    const ingest = app.t.app.get(VisibilityIngestService);
    await ingest.importScan('qa', scan1);
    await ingest.importScan('qa', scan2);
  };
  /** A browser context of its own, signed in as a new admin of workspace `qa`. */
  async function admin(email: string): Promise<Page> {
    await (workspace ??= qaWorkspace());
    await signedInUser(app.t, 'qa', email, 'admin');
    const page = await (await app.browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${app.origin}/signin`);
    await page.type('#email', email);
    await page.type('#password', USER_PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('form:has(#email) button[type=submit]')]);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    return page;
  }
  /** A browser context of its own, not signed in, on `path` at 1280 px. */
  async function visitor(path: string): Promise<Page> {
    const page = await (await app.browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${app.origin}${path}`);
    return page;
  }
  const mainText = (page: Page): Promise<string> =>
    page.$eval('main', (m) => (m as unknown as { innerText: string }).innerText);
  const summaryOf = (page: Page): Promise<string> =>
    page.$eval('.error-summary p', (p) => (p.textContent ?? '').trim());
  async function choose(page: Page, selector: string, name: string, bytes: Uint8Array | string): Promise<void> {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const input = (await page.$(selector)) as unknown as { uploadFile: (p: string) => Promise<void> };
    await input.uploadFile(path);
  }

  it('tracking: every box and radio has its words beside it, wrapped lines too, at 1280 and 375 px', async () => {
    const page = await admin('boxes@example.com');
    await page.goto(`${app.origin}/dashboard/tracking`);
    for (const width of [1280, 375]) {
      await page.setViewport({ width, height: 900 });
      const rows = (await page.$$eval('form input[type=checkbox], form input[type=radio]', (inputs) =>
        inputs.map((i) => {
          const box = i.getBoundingClientRect();
          const row = i.parentElement!;
          // Every line of the row's words (its label and any hint), wrapped lines included.
          const lines = [...row.children]
            .filter((c) => c !== i && c.tagName !== 'INPUT')
            .flatMap((c) => [...c.getClientRects()].map((r) => r.left));
          return { id: i.id, boxRight: box.right, lines };
        }),
      )) as { id: string; boxRight: number; lines: number[] }[];
      expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(['platform-openai', 'schedule-weekly']));
      for (const r of rows) {
        expect(r.lines.length).toBeGreaterThan(0);
        // Beside the box with a gap, never under it.
        for (const left of r.lines)
          expect({ id: r.id, width, gap: left - r.boxRight >= 4 }).toEqual({ id: r.id, width, gap: true });
      }
    }
  });

  it('AI providers: the key fields of every platform have one width, whatever the length of its name (1280 and 375 px)', async () => {
    const page = await admin('keys@example.com');
    await page.goto(`${app.origin}/dashboard/settings/ai-providers`);
    for (const width of [1280, 375]) {
      await page.setViewport({ width, height: 900 });
      const widths = await page.$$eval('form.inline input[type=password]', (els) =>
        els.map((e) => Math.round(e.getBoundingClientRect().width)),
      );
      expect(widths.length).toBeGreaterThan(3);
      expect(new Set(widths).size).toBe(1);
      expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
    }
  });

  it("scan form: the throttler's refusal shows who is signed in (Sign out in the header), as the form does", async () => {
    const page = await admin('scan@example.com');
    const post = async (): Promise<number> => {
      await page.goto(`${app.origin}/scan`);
      await page.type('#url', 'http://127.0.0.1:9/'); // refused without any request: not a public address
      const [r] = await Promise.all([page.waitForNavigation(), page.click('main form button[type=submit]')]);
      return r!.status();
    };
    expect(await post()).toBe(400);
    // The refusal in the page's words; the API's range name ("loopback") stays in the API's reason.
    const refusal = await summaryOf(page);
    expect(refusal).toContain('Beacon cannot scan 127.0.0.1: this address belongs to this server itself');
    expect(refusal).not.toMatch(/loopback|not allowed/);
    expect(await post()).toBe(429);
    expect(await summaryOf(page)).toContain('You can scan again in');
    expect(await page.$eval('header.site', (h) => h.textContent)).toContain('scan@example.com');
    expect(await page.$('header.site form.signout button')).not.toBeNull();
  });

  it('a date field looks like the other fields (type size and height)', async () => {
    const page = await visitor('/pdf/pdf-metadata');
    const style = (sel: string): Promise<{ font: string; height: number }> =>
      page.$eval(sel, (e) => ({
        font: e.ownerDocument.defaultView!.getComputedStyle(e).fontSize,
        height: Math.round(e.getBoundingClientRect().height),
      }));
    const date = await style('input[type=datetime-local]');
    const text = await style('#run-form input[type=text]');
    // The same type size; the same height give or take the date field's own inner padding (unstyled: 13 px type, 21 px high).
    expect(date.font).toBe(text.font);
    expect(Math.abs(date.height - text.height)).toBeLessThanOrEqual(3);
  });

  it('AI page: an upload refused in the page words, the address of the file page instead of the form (no CSRF token), a file no longer kept said so', async () => {
    const page = await admin('ai@example.com');
    await page.goto(`${app.origin}/pdf/ai`);
    await choose(page, '#file', 'notes.pdf', 'hello, not a PDF');
    await Promise.all([page.waitForNavigation(), page.click('main form button[type=submit]')]);
    expect(await summaryOf(page)).toBe('Your file is not a PDF file: choose a PDF.');
    expect(await mainText(page)).not.toMatch(PROGRAM_TEXT);
    await page.waitForFunction("location.pathname + location.search === '/pdf/ai'");

    await choose(page, '#file', 'doc.pdf', await samplePdf(2));
    await Promise.all([page.waitForNavigation(), page.click('main form button[type=submit]')]);
    const fileId = await page.$eval(
      'input[name=file_id]',
      (e) => (e as unknown as { value: string; validationMessage: string }).value,
    );
    await page.waitForFunction(`location.pathname + location.search === '/pdf/ai?file_id=${fileId}'`);
    expect(page.url()).not.toContain('_csrf');
    // A reload opens the file's page (a GET), not the upload again.
    const requests: string[] = [];
    page.on('request', (r: HTTPRequest) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    const again = await page.reload();
    expect(again!.status()).toBe(200);
    expect(requests[0]).toBe('GET /pdf/ai');
    expect(await page.$eval('main', (m) => m.textContent)).toContain('doc.pdf');
    // A link to a file no longer kept says so (404) above the upload form.
    const gone = await page.goto(`${app.origin}/pdf/ai?file_id=no-such-file`);
    expect(gone!.status()).toBe(404);
    expect(await summaryOf(page)).toBe(
      'That file is no longer available (uploads are kept for a limited time). Upload it again.',
    );
    expect(await page.$('#file')).not.toBeNull();
  });

  it('tracked prompts: a refused prompt is a sentence, and a refused bulk form leaves the list address', async () => {
    const page = await admin('prompts@example.com');
    await page.goto(`${app.origin}/dashboard/tracking/prompts`);
    await page.type('#country', 'U1');
    await page.type('#text', 'best crm');
    await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/tracking/prompts"] button')]);
    expect(await summaryOf(page)).toBe(
      'The prompt was not added: the country "U1" is not a two-letter code such as US or DE.',
    );
    await page.goto(`${app.origin}/dashboard/tracking/prompts`);
    await Promise.all([
      page.waitForNavigation(),
      page.click('form[action^="/dashboard/tracking/prompts/bulk"] button'),
    ]);
    expect(await summaryOf(page)).toBe('Paste at least one prompt or choose a CSV file.');
    await page.waitForFunction("location.pathname + location.search === '/dashboard/tracking/prompts'");
  });

  it('accessibility sites: an empty start URL is said in the page words, linked to its field, which is marked invalid', async () => {
    const page = await admin('sites@example.com');
    await page.goto(`${app.origin}/dashboard/sites`);
    await page.$eval('form.site-form', (f) => f.setAttribute('novalidate', ''));
    await Promise.all([
      page.waitForNavigation(),
      page.$eval('form.site-form', (f) => (f as unknown as { requestSubmit(): void }).requestSubmit()),
    ]);
    expect(await summaryOf(page)).toBe(
      'Enter the start URL, the home page of the site, e.g. https://www.example.com/.',
    );
    expect(await page.$eval('.error-summary a', (a) => a.getAttribute('href'))).toBe('#start_url');
    expect(await page.$eval('#start_url', (e) => e.getAttribute('aria-invalid'))).toBe('true');
    expect(await page.$$eval('[aria-invalid=true]', (els) => els.length)).toBe(1);
    expect(await mainText(page)).not.toMatch(PROGRAM_TEXT);
  });

  it('watermark: a colour code that is not one holds the run back with the page sentence; a real one is sent', async () => {
    const page = await visitor('/pdf/add-watermark');
    await choose(page, '#file', 'mark.pdf', await samplePdf(2));
    await page.waitForSelector('#chosen li', { timeout: 30_000 });
    await page.type('#opt-text', 'Draft');
    const posts: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (r: HTTPRequest) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/pdf/add-watermark') posts.push(r.postData() ?? '');
      void r.continue();
    });
    await page.$eval(
      '#opt-color-code',
      (e) => ((e as unknown as { value: string; validationMessage: string }).value = ''),
    );
    await page.type('#opt-color-code', 'reddish');
    await page.click('#run-form button[type=submit]');
    expect(
      await page.$eval(
        '#opt-color-code',
        (e) => (e as unknown as { value: string; validationMessage: string }).validationMessage,
      ),
    ).toBe('Colour must be a colour code such as #808080, or pick the colour.');
    expect(await page.$eval('#opt-color-code', (e) => e.getAttribute('aria-invalid'))).toBe('true');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('opt-color-code');
    expect(posts).toEqual([]);

    await page.$eval(
      '#opt-color-code',
      (e) => ((e as unknown as { value: string; validationMessage: string }).value = ''),
    );
    await page.type('#opt-color-code', '#FF0000');
    expect(await page.$eval('#opt-color-code', (e) => e.getAttribute('aria-invalid'))).toBeNull();
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result a[download]', { timeout: 60_000 });
    expect(posts).toHaveLength(1);
    expect(new URLSearchParams(posts[0]).get('opt.color')).toBe('#ff0000');
  });

  /** The bar's state after an upload: hidden and empty, so the next upload shows its own progress. */
  const barAfter = (page: Page): Promise<{ hidden: boolean; value: number }> =>
    page.$eval('#upload-form progress', (b) => ({
      hidden: (b as unknown as { hidden: boolean }).hidden,
      value: (b as unknown as { value: number }).value,
    }));

  it('upload progress: the bar goes once a file is uploaded, and a second upload starts its own from empty', async () => {
    const page = await visitor('/pdf/rotate-pages');
    // Every state the bar is shown in (its value when it appears).
    await page.evaluate(`(() => {
      const bar = document.querySelector('#upload-form progress');
      window.shown = [];
      new MutationObserver(() => { if (!bar.hidden) window.shown.push(bar.value); }).observe(bar, { attributes: true, attributeFilter: ['hidden'] });
    })()`);
    for (const [i, name] of ['first.pdf', 'second.pdf'].entries()) {
      await choose(page, '#file', name, await samplePdf(i + 2));
      await page.waitForFunction(
        `(document.getElementById('upload-status').textContent || '').startsWith('${name} uploaded')`,
        { timeout: 60_000 },
      );
      expect(await barAfter(page)).toEqual({ hidden: true, value: 0 });
    }
    expect(await page.evaluate('window.shown')).toEqual([0, 0]);
  }, 120_000);

  it('merge list: each file has the drag grip and no list bullet', async () => {
    const page = await visitor('/pdf/merge-pdfs');
    for (const [i, name] of ['one.pdf', 'two.pdf'].entries()) {
      await choose(page, '#file', name, await samplePdf(1));
      await page.waitForFunction(`document.querySelectorAll('#chosen li .grip').length === ${i + 1}`, {
        timeout: 60_000,
      });
    }
    const items = await page.$$eval('#chosen li', (lis) =>
      lis.map((li) => {
        const style = li.ownerDocument.defaultView!.getComputedStyle(li);
        const grip = li.querySelector('.grip')!.getBoundingClientRect();
        return {
          marker: style.listStyleType,
          display: style.display,
          gripFirst: grip.left <= li.getBoundingClientRect().left + 1,
        };
      }),
    );
    expect(items).toEqual([
      { marker: 'none', display: 'list-item', gripFirst: true },
      { marker: 'none', display: 'list-item', gripFirst: true },
    ]);
    expect(await barAfter(page)).toEqual({ hidden: true, value: 0 });
  }, 120_000);

  it('PDF metadata: the result is a list, one field a line ("Title", "Producer", "Creation date"), not one long line', async () => {
    const page = await visitor('/pdf/pdf-metadata');
    await choose(page, '#file', 'meta.pdf', await samplePdf(1));
    await page.waitForSelector('#chosen li input[name=file_id]', { timeout: 60_000 });
    await page.click('#run-form button[type=submit]');
    await page.waitForSelector('#result dl.pairs', { timeout: 60_000 });
    const rows = await page.$$eval('#result dl.pairs dt', (dts) =>
      dts.map((dt) => ({
        field: (dt.textContent ?? '').trim(),
        value: (dt.nextElementSibling?.textContent ?? '').trim(),
        top: Math.round(dt.getBoundingClientRect().top),
      })),
    );
    const fields = rows.map((r) => r.field);
    expect(fields).toEqual(expect.arrayContaining(['Title', 'Author', 'Producer', 'Creation date', 'File changed']));
    expect(fields).not.toContain('Metadata');
    expect(rows.find((r) => r.field === 'Author')!.value).toBe('none');
    expect(rows.find((r) => r.field === 'Producer')!.value).toContain('pdf-lib');
    // Each field on its own line.
    expect(new Set(rows.map((r) => r.top)).size).toBe(rows.length);
    for (const r of rows) expect(r.value).not.toContain(';');
  }, 120_000);

  it('deleting a tracked prompt asks first (without JavaScript): it names the prompt, Cancel returns to the same page of the list', async () => {
    const page = await admin('delete-prompt@example.com');
    await page.setJavaScriptEnabled(false);
    await page.goto(`${app.origin}/dashboard/tracking/prompts`);
    // 102 prompts: the list's second page holds two of them.
    const lines = Array.from({ length: 102 }, (_, i) => `confirm walk prompt ${String(i + 1).padStart(3, '0')}`);
    await page.$eval('#lines', (t, v) => ((t as unknown as { value: string }).value = v), lines.join('\n'));
    await Promise.all([
      page.waitForNavigation(),
      page.click('form[action^="/dashboard/tracking/prompts/bulk"] button'),
    ]);
    await page.goto(`${app.origin}/dashboard/tracking/prompts?offset=100`);
    const target = await page.$eval('table tbody tr:last-child th, table tbody tr:last-child td', (c) =>
      (c.textContent ?? '').trim(),
    );
    expect(target).toMatch(/^confirm walk prompt \d{3}$/);
    const link = 'table tbody tr:last-child a.danger';
    await Promise.all([page.waitForNavigation(), page.click(link)]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe(`Delete the prompt "${target}"?`);
    expect(await mainText(page)).toContain('Answers already collected for it stay in the scans that have them.');
    expect(await page.$('main form input[name=_csrf]')).not.toBeNull();
    // Cancel: back to the second page, nothing deleted.
    await Promise.all([page.waitForNavigation(), page.click('main form a')]);
    expect(page.url()).toBe(`${app.origin}/dashboard/tracking/prompts?offset=100`);
    expect(await mainText(page)).toContain(target);
    // Delete: the notice, on the same page of the list, the prompt gone.
    await Promise.all([page.waitForNavigation(), page.click(link)]);
    const [r] = await Promise.all([page.waitForNavigation(), page.click('main form button[type=submit]')]);
    expect(r!.status()).toBe(200);
    expect(new URL(page.url()).searchParams.get('offset')).toBe('100');
    expect(await mainText(page)).toContain('The prompt is deleted.');
    expect(await mainText(page)).not.toContain(target);
  }, 120_000);

  it('removing a competitor asks first (without JavaScript): it names it and what it was found by; Cancel keeps it', async () => {
    const page = await admin('delete-competitor@example.com');
    await page.setJavaScriptEnabled(false);
    await page.goto(`${app.origin}/dashboard/tracking`);
    await page.type('#competitor-name', 'Walkco');
    await page.type('#competitor-domains', 'walkco.example');
    await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/tracking/competitors"] button')]);
    const remove = 'xpath///tr[.//*[normalize-space(text())="Walkco"]]//a[contains(@class, "danger")]';
    await Promise.all([page.waitForNavigation(), page.click(remove)]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Stop tracking the competitor "Walkco"?');
    expect(await mainText(page)).toContain('walkco.example');
    await Promise.all([page.waitForNavigation(), page.click('main form a')]);
    expect(page.url()).toBe(`${app.origin}/dashboard/tracking#competitors`);
    expect(await page.$$eval('table td, table th', (c) => c.map((x) => x.textContent?.trim()))).toContain('Walkco');
    await Promise.all([page.waitForNavigation(), page.click(remove)]);
    await Promise.all([page.waitForNavigation(), page.click('main form button[type=submit]')]);
    expect(await mainText(page)).toContain('Walkco is no longer tracked.');
    expect(await page.$$eval('table td, table th', (c) => c.map((x) => x.textContent?.trim()))).not.toContain('Walkco');
  }, 120_000);

  it('the confirmed competitor goes even when the list moved it meanwhile (its index gone)', async () => {
    const page = await admin('moved-competitor@example.com');
    await page.setJavaScriptEnabled(false);
    const add = async (name: string) => {
      await page.goto(`${app.origin}/dashboard/tracking`);
      await page.type('#competitor-name', name);
      await page.type('#competitor-domains', `${name.toLowerCase()}.example`);
      await Promise.all([
        page.waitForNavigation(),
        page.click('form[action="/dashboard/tracking/competitors"] button'),
      ]);
    };
    await add('Firstco');
    await add('Lastco');
    const last = 'xpath///tr[.//*[normalize-space(text())="Lastco"]]//a[contains(@class, "danger")]';
    await Promise.all([page.waitForNavigation(), page.click(last)]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Stop tracking the competitor "Lastco"?');
    // Meanwhile another admin removes Firstco: Lastco moves up, and the index in the form is past the end.
    const tracking = app.t.app.get(TrackingService);
    const ws = (await app.t.app.get(AccountsService).listUsers('qa'))[0].workspace_id;
    const names = (await tracking.settings(ws)).competitors.map((c) => c.name);
    await tracking.removeCompetitor(ws, names.indexOf('Firstco'));
    expect((await tracking.settings(ws)).competitors[names.indexOf('Lastco')]).toBeUndefined();
    await Promise.all([page.waitForNavigation(), page.click('main form button[type=submit]')]);
    expect(await mainText(page)).toContain('Lastco is no longer tracked.');
    expect((await tracking.settings(ws)).competitors.map((c) => c.name)).not.toContain('Lastco');
  }, 120_000);

  it('removing a monitored site asks first (without JavaScript): it names the site and its scans; Cancel returns to the site', async () => {
    const page = await admin('delete-site@example.com');
    await page.setJavaScriptEnabled(false);
    const ws = (await app.t.app.get(AccountsService).listUsers('qa'))[0].workspace_id;
    const site = await app.t.app
      .get(SitesService)
      .create(ws, { name: 'Walk shop', start_url: 'https://walk-shop.example/' });
    await page.goto(`${app.origin}/dashboard/sites/${site.id}`);
    await Promise.all([page.waitForNavigation(), page.click('main a[href$="/remove"]')]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Remove the site "Walk shop"?');
    expect(await mainText(page)).toContain('https://walk-shop.example/ is no longer monitored.');
    await Promise.all([page.waitForNavigation(), page.click('main form a')]);
    expect(page.url()).toBe(`${app.origin}/dashboard/sites/${site.id}`);
    await Promise.all([page.waitForNavigation(), page.click('main a[href$="/remove"]')]);
    await Promise.all([page.waitForNavigation(), page.click('main form button[type=submit]')]);
    expect(page.url()).toBe(`${app.origin}/dashboard/sites?notice=removed`);
    expect(await mainText(page)).toContain('The site is removed, with its scans.');
    expect(await mainText(page)).not.toContain('Walk shop');
  }, 120_000);

  /**
   * On `list`, the link to `action` (no form there posts to it) opens its confirmation, asking
   * `question`, whose form posts to `action` with the CSRF token; its words are returned
   * (docs/screenshots/<shot>.png with WEB_SCREENSHOTS=1).
   */
  async function confirmation(page: Page, list: string, action: string, question: string, shot: string) {
    await page.goto(`${app.origin}${list}`);
    expect(await page.$$eval(`form[action="${action}"]`, (f) => f.length)).toBe(0);
    await Promise.all([page.waitForNavigation(), page.click(`main a[href="${action}"]`)]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe(question);
    expect(await page.$eval('main form', (f) => f.getAttribute('action'))).toBe(action);
    expect(await page.$('main form input[name=_csrf]')).not.toBeNull();
    await docShot(page, shot);
    return mainText(page);
  }
  /** Cancel on a confirmation leads to `back`. */
  async function cancelTo(page: Page, back: string): Promise<void> {
    await Promise.all([page.waitForNavigation(), page.click('main form a')]);
    expect(page.url()).toBe(`${app.origin}${back}`);
  }
  /** The confirmation's button: the POST itself. */
  const confirmIt = (page: Page) =>
    Promise.all([page.waitForNavigation(), page.click('main form button[type=submit]')]);

  it("removing a workspace's AI provider key asks first (without JavaScript): what the platform is asked with afterwards; Cancel keeps it", async () => {
    const page = await admin('delete-ai-key@example.com');
    await page.setJavaScriptEnabled(false);
    const ws = (await app.t.app.get(AccountsService).listUsers('qa'))[0].workspace_id;
    const list = '/dashboard/settings/ai-providers';
    await page.goto(`${app.origin}${list}`);
    await page.type('#key-perplexity', 'pplx-walk-key');
    await Promise.all([page.waitForNavigation(), page.click(`form[action="${list}/perplexity/key"] button`)]);
    const ask = () =>
      confirmation(
        page,
        list,
        `${list}/perplexity/remove`,
        "Remove this workspace's Perplexity key?",
        'settings-ai-key-remove',
      );
    // No instance key for Perplexity in this app: the page says the platform goes too.
    expect(await ask()).toContain('Perplexity is then not configured for this workspace');
    await cancelTo(page, `${list}#h-perplexity`);
    const keys = app.t.app.get(WorkspaceAiKeysService);
    expect((await keys.keys(ws)).get('perplexity')).toBe('pplx-walk-key');
    await ask();
    await confirmIt(page);
    expect(page.url()).toBe(`${app.origin}${list}?removed=perplexity`);
    expect(await mainText(page)).toContain('The Perplexity key of this workspace is removed.');
    expect((await keys.keys(ws)).has('perplexity')).toBe(false);
    expect(await page.$(`a[href="${list}/perplexity/remove"]`)).toBeNull();
  }, 120_000);

  it('removing an alert destination asks first (without JavaScript): which alerts stop going there; Cancel keeps it', async () => {
    const page = await admin('delete-alert@example.com');
    await page.setJavaScriptEnabled(false);
    const ws = (await app.t.app.get(AccountsService).listUsers('qa'))[0].workspace_id;
    const d = await app.t.app.get(AlertsStore).addDestination(ws, 'email', 'walk-alerts@example.com', null);
    await app.t.app.get(SitesService).create(ws, { name: 'Alert shop', start_url: 'https://alert-shop.example/' });
    const list = '/dashboard/settings/alerts';
    const ask = () =>
      confirmation(
        page,
        list,
        `${list}/${d.id}/remove`,
        `Remove the alert destination ${d.target}?`,
        'settings-alert-remove',
      );
    const words = await ask();
    expect(words).toContain('This e-mail address receives no more alerts of this workspace');
    expect(words).toContain('the site Alert shop');
    await cancelTo(page, list);
    const ids = async () => (await app.t.app.get(AlertsService).destinations(ws)).map((x) => x.id);
    expect(await ids()).toContain(d.id);
    await ask();
    await confirmIt(page);
    expect(page.url()).toBe(`${app.origin}${list}?notice=removed`);
    expect(await mainText(page)).toContain('The destination is removed: it receives no more alerts.');
    expect(await ids()).not.toContain(d.id);
  }, 120_000);

  it('disabling a member asks first (without JavaScript): no more sign-in, the API keys stay; Cancel keeps them active', async () => {
    const page = await admin('disabler@example.com');
    await page.setJavaScriptEnabled(false);
    const { user: member, client } = await signedInUser(app.t, 'qa', 'to-disable@example.com', 'member');
    const list = '/dashboard/settings/members';
    const ask = () =>
      confirmation(page, list, `${list}/${member.id}/disable`, `Disable ${member.email}?`, 'settings-member-disable');
    const words = await ask();
    expect(words).toContain('can no longer sign in');
    expect(words).toContain('they keep working');
    await cancelTo(page, list);
    const accounts = app.t.app.get(AccountsService);
    const disabled = async () => (await accounts.listUsers('qa')).find((u) => u.id === member.id)!.disabled;
    expect(await disabled()).toBe(false);
    expect((await client.get('/dashboard')).status).toBe(200);
    await ask();
    await confirmIt(page);
    expect(await mainText(page)).toContain(`${member.email} is disabled and signed out.`);
    expect(await disabled()).toBe(true);
    // What the page said: signed out at once.
    expect((await client.get('/dashboard')).status).not.toBe(200);
  }, 120_000);

  it('enabling a disabled member again asks first (without JavaScript); they sign in with their password, no session comes back', async () => {
    const page = await admin('enabler@example.com');
    await page.setJavaScriptEnabled(false);
    const { user: member, client } = await signedInUser(app.t, 'qa', 'to-enable@example.com', 'member');
    const accounts = app.t.app.get(AccountsService);
    const enabler = (await accounts.listUsers('qa')).find((u) => u.email === 'enabler@example.com')!;
    await accounts.disableInWorkspace(enabler, member.id);
    const list = '/dashboard/settings/members';
    const action = `${list}/${member.id}/enable`;
    const ask = () => confirmation(page, list, action, `Enable ${member.email} again?`, 'settings-member-enable');
    const words = await ask();
    expect(words).toContain('can sign in to qa again as member, with the password they had');
    expect(words).toContain('no session comes back');
    await cancelTo(page, list);
    const disabled = async () => (await accounts.listUsers('qa')).find((u) => u.id === member.id)!.disabled;
    expect(await disabled()).toBe(true);
    await page.goto(`${app.origin}${list}`);
    await docShot(page, 'settings-members-disabled');
    await ask();
    await confirmIt(page);
    expect(await mainText(page)).toContain(`${member.email} is enabled again and can sign in with their password.`);
    expect(await disabled()).toBe(false);
    // The list now offers Disable again, not Enable.
    expect(await page.$(`main a[href="${list}/${member.id}/disable"]`)).not.toBeNull();
    expect(await page.$(`main a[href="${action}"]`)).toBeNull();
    // The session ended by the disable stays ended; their own password signs them in again.
    expect((await client.get('/dashboard')).status).not.toBe(200);
    expect((await client.signIn(member.email, USER_PASSWORD)).location).toBe('/dashboard');
    expect((await client.get('/dashboard')).status).toBe(200);
  }, 120_000);

  it('pages say what is there: the home page to a signed-in user, the trends page about its tables and CSV, the merge list', async () => {
    const page = await admin('words@example.com');
    await page.goto(`${app.origin}/`);
    const home = await mainText(page);
    expect(home).not.toContain('Sign in to see your workspace');
    expect(home).toContain('You are signed in');
    await page.goto(`${app.origin}/dashboard/trends`);
    const trends = await mainText(page);
    expect(trends).not.toMatch(/beside it|these filters/);
    await page.goto(`${app.origin}/pdf/merge-pdfs`);
    expect(await page.$eval('#upload-form', (f) => f.textContent)).toContain('merged in the order listed below');
  });
});

/**
 * Error pages of requests refused before the website's guard ran (the throttler's 429 on a PDF
 * upload): the header still shows who is signed in, with Sign out, as on every other page.
 */
describe('Website QA walk: error pages before the guard (Chromium e2e)', () => {
  const app = useBrowserApp({ env: { PDF_UPLOAD_RATE_LIMIT: '1' } });
  const dir = cacheDir('web-qa-walk-throttled');

  it('a throttled upload (429) shows the signed-in header, not "Sign in"', async () => {
    await app.t.createKey('qa-throttle');
    await signedInUser(app.t, 'qa-throttle', 'throttled@example.com', 'admin');
    const page = await (await app.browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${app.origin}/signin`);
    await page.type('#email', 'throttled@example.com');
    await page.type('#password', USER_PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('form:has(#email) button[type=submit]')]);
    // Without the script, the upload posts the form (POST /pdf/{tool}/upload, the 'pdf-upload' limit).
    await page.setJavaScriptEnabled(false);
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, await samplePdf(1));
    const upload = async (): Promise<number> => {
      await page.goto(`${app.origin}/pdf/rotate-pages`);
      const input = (await page.$('#file')) as unknown as { uploadFile: (p: string) => Promise<void> };
      await input.uploadFile(path);
      const [r] = await Promise.all([page.waitForNavigation(), page.click('#upload-form button[type=submit]')]);
      return r!.status();
    };
    expect(await upload()).toBe(200);
    expect(await upload()).toBe(429);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Too many requests');
    // The limit in the page's words, not the API's message ("Rate limit exceeded: 1 requests per 60 s...").
    const text = await page.$eval('main', (m) => m.textContent ?? '');
    expect(text).toContain('You sent more uploads than Beacon takes from one address in a short time: up to 1 every ');
    expect(text).toContain('You can try again in ');
    expect(text).not.toContain('Rate limit exceeded');
    const header = await page.$eval('header.site', (h) => h.textContent ?? '');
    expect(header).toContain('throttled@example.com');
    expect(header).not.toContain('Sign in');
    // Its Sign out works (the page's CSRF token is the session's).
    await Promise.all([page.waitForNavigation(), page.click('header.site form.signout button')]);
    expect(page.url()).toBe(`${app.origin}/signin?signed_out=1`);
  }, 120_000);
});
