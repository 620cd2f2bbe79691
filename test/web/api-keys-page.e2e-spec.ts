import puppeteer, { Browser, Page } from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../src/a11y/browser/browser-pool';
import { AccountsService } from '../../src/accounts/accounts.service';
import { ApiKeysService } from '../../src/common/api-keys/api-keys.service';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebClient } from './web-client';

const PASSWORD = 'a long enough password';

/** The API-key settings page in real Chromium: post/redirect/get of a new key, and where focus lands. */
describe('API keys page in Chromium (e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp();
    origin = WebClient.of(t.server).origin;
    await t.createKey('keys');
    const admin = await t.app.get(AccountsService).createUser('keys', 'keys-admin@example.com', 'admin');
    await WebClient.of(t.server).signIn(admin.email, admin.one_time_password, PASSWORD);
    browser = await puppeteer.launch({
      executablePath: t.config.CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      protocolTimeout: 40_000,
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signedIn = async (): Promise<Page> => {
    const page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1100, height: 800 });
    await page.goto(`${origin}/signin`);
    await page.type('#email', 'keys-admin@example.com');
    await page.type('#password', PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    return page;
  };

  const labels = async (): Promise<string[]> =>
    (await t.app.get(ApiKeysService).listKeys('keys')).map((k) => k.label ?? '');

  /** What has the keyboard focus: its id, or its text when it has none. */
  const focused = (page: Page): Promise<string> =>
    page.evaluate(`(() => {
      const e = document.activeElement;
      return e ? e.id || (e.textContent || '').trim().slice(0, 80) : '';
    })()`) as Promise<string>;

  it('shows a new key once on the page the POST redirects to; reloading it creates no second key and no longer shows the key', async () => {
    const page = await signedIn();
    await page.goto(`${origin}/dashboard/settings/api-keys`);
    await page.type('#label', 'Reload test');
    await Promise.all([page.waitForNavigation(), page.click('form.inline button[type=submit]')]);
    expect(page.url()).toBe(`${origin}/dashboard/settings/api-keys?created=1`);
    const key = (await page.$eval('#new-key', (e) => e.textContent))!.trim();
    expect(key).toMatch(/^bcn_/);
    expect(page.url()).not.toContain(key);
    expect((await labels()).filter((l) => l === 'Reload test')).toHaveLength(1);
    // Focus is on the new key's message, not at the top of the page.
    expect(await focused(page)).toContain('Your new API key');
    await page.reload();
    expect((await labels()).filter((l) => l === 'Reload test')).toHaveLength(1);
    expect(await page.$('#new-key')).toBeNull();
    expect(await page.content()).not.toContain(key);
    // Back and forward do not post again either.
    await page.goBack();
    await page.goForward();
    expect((await labels()).filter((l) => l === 'Reload test')).toHaveLength(1);
    await page.browserContext().close();
  }, 60_000);

  it('after revoking a key, focus is on the status message', async () => {
    const page = await signedIn();
    const created = await t.app.get(ApiKeysService).createKey('keys', 'Revoke test');
    await page.goto(`${origin}/dashboard/settings/api-keys/${created.id}/revoke`);
    await Promise.all([page.waitForNavigation(), page.click('button.danger')]);
    expect(page.url()).toContain('/dashboard/settings/api-keys?revoked=');
    const message = await focused(page);
    expect(message).toMatch(/^Key bcn_\w+ is revoked/);
    await page.browserContext().close();
  }, 60_000);
});
