import type { IncomingMessage } from 'node:http';
import { AccountsService } from '../../src/accounts/accounts.service';
import { SiteLogin } from '../../src/a11y/sites/site-login';
import { SitesService } from '../../src/a11y/sites/sites.service';
import { createTestApp, TestApp } from '../utils/test-app';
import { FixtureServer, html, send, startFixtureServer } from './fixture-server';
import { scanEnded } from './sites-fixture';

const SESSION = 'two-step-session';
const PASSWORD = 'a two-step password';

const formOf = (req: IncomingMessage): Promise<Record<string, string>> =>
  new Promise((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(body))));
  });

/**
 * A login over two pages, as many identity providers do: /signin asks for the e-mail and has a
 * Next button; the page it posts to asks for the password (the e-mail carried along); a right
 * password sets the session cookie and goes to /account, which signed-out visitors are sent away from.
 */
async function startTwoStepSite(): Promise<FixtureServer & { logins: Record<string, string>[] }> {
  const logins: Record<string, string>[] = [];
  const server = await startFixtureServer({
    '/signin': (_q, res) =>
      send(
        res,
        200,
        html(
          '<main><h1>Sign in</h1><form method="post" action="/signin/password"><label for="email">E-mail</label> <input id="email" name="email"> <button id="next" type="submit">Next</button></form></main>',
          'Sign in',
        ),
      ),
    '/signin/password': (req, res) =>
      void formOf(req).then((f) =>
        send(
          res,
          200,
          html(
            `<main><h1>Password for ${(f.email ?? '').replace(/[<>&"]/g, '')}</h1><form method="post" action="/signin/done"><input type="hidden" name="email" value="${(f.email ?? '').replace(/[<>&"]/g, '')}"><label for="pw">Password</label> <input id="pw" name="pw" type="password"> <button id="go" type="submit">Sign in</button></form></main>`,
            'Password',
          ),
        ),
      ),
    '/signin/done': (req, res) =>
      void formOf(req).then((f) => {
        logins.push(f);
        if (f.pw === PASSWORD && f.email)
          res.writeHead(303, { Location: '/account', 'Set-Cookie': `sid=${SESSION}; Path=/; HttpOnly` }).end();
        else send(res, 200, html('<main><h1>Sign in</h1><p id="wrong">Wrong password.</p></main>', 'Sign in'));
      }),
    '/account': (req, res) =>
      (req.headers.cookie ?? '').includes(`sid=${SESSION}`)
        ? send(res, 200, html('<main><h1>Your account</h1><p id="account">Signed in.</p></main>', 'Account'))
        : res.writeHead(302, { Location: '/signin' }).end(),
  });
  return Object.assign(server, { logins });
}

/** Login steps over more than one page (user name, Next, password), in real Chromium on a loopback site. */
describe('Site login over two pages (e2e)', () => {
  let t: TestApp;
  let site: Awaited<ReturnType<typeof startTwoStepSite>>;
  let login: SiteLogin;

  beforeAll(async () => {
    site = await startTwoStepSite();
    t = await createTestApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true' } });
    login = t.app.get(SiteLogin);
    login.checkWithinMs = 3000; // the failing steps below give up sooner than in production
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await site?.close();
  });

  const steps = (over: Record<string, unknown> = {}) => ({
    url: `${site.origin}/signin`,
    fields: [
      { selector: '#email', value: 'member@example.com' },
      { selector: '#pw', value: PASSWORD },
    ],
    next: ['#next', null],
    submit: '#go',
    check_selector: '#account',
    check_url: '/account',
    ...over,
  });

  it('fills the e-mail, presses Next, waits for the password page, signs in and answers the session cookie', async () => {
    const cookies = await login.cookies(steps());
    expect(cookies.map((c) => `${c.name}=${c.value}`)).toEqual([`sid=${SESSION}`]);
    expect(site.logins.at(-1)).toEqual({ email: 'member@example.com', pw: PASSWORD });
  }, 60_000);

  it('names the step that failed: a Next button or a later field not found, in the page words', async () => {
    await expect(login.cookies(steps({ next: ['#continue', null] }))).rejects.toThrow(
      "Login failed: the button '#continue' was not found on the login page.",
    );
    await expect(
      login.cookies(
        steps({
          fields: [
            { selector: '#email', value: 'member@example.com' },
            { selector: '#password', value: PASSWORD },
          ],
        }),
      ),
    ).rejects.toThrow("Login failed: the field '#password' was not found after pressing 'Next'.");
  }, 60_000);

  it('from the site form: the Next button is stored with the steps, values sealed, and the scan runs signed in', async () => {
    await t.createKey('sitelogin2');
    const a = await t.app.get(AccountsService).createUser('sitelogin2', 'site-login-2@example.com', 'admin');
    const sites = t.app.get(SitesService);
    const s = await sites.create(a.workspace_id, {
      name: 'Two-step login',
      start_url: `${site.origin}/account`,
      page_source: 'list',
      urls: '/account',
      login_url: '/signin',
      login_field1_selector: '#email',
      login_field1_value: 'member@example.com',
      login_field1_next: '#next',
      login_field2_selector: '#pw',
      login_field2_value: PASSWORD,
      login_submit: '#go',
      login_check: '#account',
    });
    expect(s.login).toMatchObject({ next: ['#next', null], submit: '#go' });
    expect(JSON.stringify(s.login)).not.toContain(PASSWORD);
    await sites.runNow(s);
    const scan = await scanEnded(sites, s.id, 1);
    expect(scan.status).toBe('done');
    expect(scan.summary!.pages).toEqual([
      expect.objectContaining({ url: `${site.origin}/account`, reportId: expect.any(String) }),
    ]);
  }, 120_000);
});
