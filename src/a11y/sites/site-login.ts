import { Injectable } from '@nestjs/common';
import type { ElementHandle, HTTPRequest, Page } from 'puppeteer-core';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-code';
import { BrowserPool } from '../browser/browser-pool';
import type { ScanCookie } from '../scan/scan-options';
import { Scanner } from '../scan/scanner';
import { MAX_SCAN_COOKIES } from '../scan/scan-options';
import { decideRequest } from '../security/request-filter';
import { ScanEgress } from '../security/scan-egress';
import { matchesPattern } from './site-input';

/** Time for the login page to load, and again for the check after pressing the button. */
export const LOGIN_STEP_TIMEOUT_MS = 15_000;
const CHECK_POLL_MS = 100;

/** A login step that did not work, in the site page's words ("Login failed: ..."). */
const failed = (why: string): DomainError => new DomainError(ErrorCode.ScanFailed, `Login failed: ${why}.`);

/** The login steps with their values opened (in memory for the login only). */
export interface OpenLogin {
  url: string;
  fields: { selector: string; value: string }[];
  submit: string;
  check_selector: string | null;
  check_url: string | null;
  next?: (string | null)[];
}

/** A button's words for a message (its text, value or aria-label; the selector when it has none). */
const wordsOf = async (button: ElementHandle, selector: string): Promise<string> =>
  (
    await button
      .evaluate((e) => {
        const b = e as unknown as { innerText?: string; value?: string; getAttribute(n: string): string | null };
        return (b.innerText || b.value || b.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim();
      })
      .catch(() => '')
  ).slice(0, 80) || selector;

/**
 * Runs a site's login steps in a browser context of the engine's pool (the same egress guard on
 * every request as a scan): opens the login page, fills each field (pressing its Next button after
 * it, if any, then waiting for what comes next), presses the button, then waits
 * for the check (a selector present, and/or the address matching a pattern). Answers the session's
 * cookies of the site's host, which the site scan passes to each page (scan options). Any step that
 * fails throws "Login failed: ..." naming the step, so no signed-out scan is passed off as signed
 * in. Values are typed into the page and never put in a message or a log line.
 */
@Injectable()
export class SiteLogin {
  /** How long the check may take to hold after the button is pressed (shorter in tests of a failing login). */
  checkWithinMs = LOGIN_STEP_TIMEOUT_MS;

  constructor(
    private readonly pool: BrowserPool,
    private readonly egress: ScanEgress,
    private readonly scanner: Scanner,
  ) {}

  async cookies(login: OpenLogin): Promise<ScanCookie[]> {
    const url = new URL(login.url);
    const guard = this.egress.targetGuard();
    await guard.assertAllowed(url).catch((e: Error) => {
      throw failed(`the login page ${url.href} may not be opened (${e.message.replace(/\.$/, '')})`);
    });
    return this.pool.withContext(async (context) => {
      // A window of its own, opened after the tab the pool prepares in each context for the next
      // scan: two openings at once in a new context become one window, the first one hidden.
      const page = await this.scanner.openWindow(context);
      await page.setRequestInterception(true);
      page.on('request', (req: HTTPRequest) => {
        void decideRequest(req, guard)
          .then((d) => (d.allow ? req.continue() : req.abort('blockedbyclient')))
          .catch(() => undefined);
      });
      page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
      await this.steps(page, login);
      const host = url.hostname;
      const all = await context.cookies();
      const mine = all
        .filter((c) => {
          const d = c.domain.replace(/^\./, '');
          return d === host || host.endsWith(`.${d}`);
        })
        .slice(0, MAX_SCAN_COOKIES)
        .map((c) => ({
          name: c.name,
          value: c.value,
          domain: c.domain,
          path: c.path,
          secure: c.secure,
          httpOnly: !!c.httpOnly,
          ...(c.sameSite === 'Strict' || c.sameSite === 'Lax' || c.sameSite === 'None' ? { sameSite: c.sameSite } : {}),
          ...(c.expires > 0 ? { expires: c.expires } : {}),
        }));
      // Pages are given the session as cookies only: a login that keeps it elsewhere would be scanned signed out.
      if (mine.length === 0)
        throw failed(
          `the login worked but set no cookie for ${host} (a session kept in the page's storage cannot be passed to the scan)`,
        );
      return mine;
    });
  }

  private async steps(page: Page, login: OpenLogin): Promise<void> {
    const response = await page
      .goto(login.url, { waitUntil: 'load', timeout: LOGIN_STEP_TIMEOUT_MS })
      .catch((e: Error) => {
        throw failed(`the login page ${login.url} did not load (${e.message.split('\n')[0]})`);
      });
    if (!response || response.status() >= 400)
      throw failed(`the login page ${login.url} answered HTTP ${response?.status() ?? 'nothing'}`);
    // After a Next button, the next field (or the final button) is waited for: a new page, or a part of this one shown.
    let pressed: string | undefined;
    const find = async (sel: string): Promise<ElementHandle | null> =>
      pressed
        ? page.waitForSelector(sel, { visible: true, timeout: this.checkWithinMs }).catch(() => null)
        : page.$(sel).catch(() => null);
    const where = () => (pressed ? `after pressing '${pressed}'` : 'on the login page');
    for (const [i, f] of login.fields.entries()) {
      const el = await find(f.selector);
      if (!el) throw failed(`the field '${f.selector}' was not found ${where()}`);
      await el.evaluate((e) => {
        (e as unknown as { value: string }).value = '';
      });
      await el.type(f.value).catch(() => {
        throw failed(`the field '${f.selector}' could not be filled`);
      });
      const next = login.next?.[i];
      if (!next) continue;
      const button = await find(next);
      if (!button) throw failed(`the button '${next}' was not found ${where()}`);
      const words = await wordsOf(button, next);
      await button.click().catch(() => {
        throw failed(`the button '${next}' could not be pressed`);
      });
      pressed = words;
    }
    const button = await find(login.submit);
    if (!button) throw failed(`the button '${login.submit}' was not found ${where()}`);
    const label = await wordsOf(button, login.submit);
    await button.click().catch(() => {
      throw failed(`the button '${login.submit}' could not be pressed`);
    });
    const until = Date.now() + this.checkWithinMs;
    for (;;) {
      const urlOk = !login.check_url || matchesPattern(page.url(), login.check_url);
      const found = !login.check_selector || (await page.$(login.check_selector).catch(() => null)) !== null;
      if (urlOk && found) return;
      if (Date.now() > until) {
        if (!found) throw failed(`the check '${login.check_selector}' was not found after pressing '${label}'`);
        throw failed(
          `the address after pressing '${label}' (${new URL(page.url()).pathname}) does not match '${login.check_url}'`,
        );
      }
      await new Promise((r) => setTimeout(r, CHECK_POLL_MS));
    }
  }
}
