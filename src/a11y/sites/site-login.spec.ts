import type { BrowserContext, Page } from 'puppeteer-core';
import type { BrowserPool } from '../browser/browser-pool';
import type { Scanner } from '../scan/scanner';
import type { ScanEgress } from '../security/scan-egress';
import { SiteLogin } from './site-login';

describe('SiteLogin', () => {
  it("opens the login page through the scanner's window opener, not as a tab of the pool's context", async () => {
    const tabs: unknown[] = [];
    const context = {
      newPage: (options?: unknown) => {
        tabs.push(options);
        return Promise.reject(new Error('not through the opener'));
      },
    } as unknown as BrowserContext;
    const opened: BrowserContext[] = [];
    // The login page: it loads nothing, so the login stops at its first step.
    const page = {
      setRequestInterception: async () => undefined,
      on: () => page,
      goto: () => Promise.reject(new Error('net::ERR_CONNECTION_REFUSED')),
    } as unknown as Page;
    const scanner = {
      openWindow: async (ctx: BrowserContext) => {
        opened.push(ctx);
        return page;
      },
    } as unknown as Scanner;
    const pool = { withContext: <T>(fn: (c: BrowserContext) => Promise<T>) => fn(context) } as unknown as BrowserPool;
    const egress = { targetGuard: () => ({ assertAllowed: async () => undefined }) } as unknown as ScanEgress;
    const login = new SiteLogin(pool, egress, scanner);
    await expect(
      login.cookies({
        url: 'https://site.test/signin',
        fields: [],
        submit: '#go',
        check_selector: null,
        check_url: null,
      }),
    ).rejects.toThrow(
      'Login failed: the login page https://site.test/signin did not load (net::ERR_CONNECTION_REFUSED).',
    );
    expect(opened).toEqual([context]);
    expect(tabs).toEqual([]);
  });
});
