import { AccountsService } from '../../src/accounts/accounts.service';
import { startSmtp, TestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebClient } from './web-client';

const PASSWORD = 'my very own password';

/** Sign-up for the PDF site with the verification mail received by a real SMTP server (issue #23 item 3). */
describe('Sign-up (e2e)', () => {
  let t: TestApp;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Beacon <no-reply@beacon.test>' } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** The path and query of the verification link in the latest mail to `email`. */
  const linkFor = async (email: string, nth = 1): Promise<string> => {
    const mail = await smtp.waitFor((m) => smtp.to(email).length >= nth && m === smtp.to(email)[nth - 1]);
    const m = /https?:\/\/[^\s]+\/signup\/verify\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    if (!m) throw new Error(`no link in: ${mail.text}`);
    return `/signup/verify?token=${m[1]}`;
  };

  const signUp = async (c: WebClient, email: string, password = PASSWORD, confirm = password) => {
    await c.get('/signup');
    return c.post('/signup', { email, password, confirm_password: confirm });
  };

  it('mails a link; the account (a workspace of one) exists only once the link is confirmed', async () => {
    const c = WebClient.of(t.server);
    const r = await signUp(c, 'New.Person@Example.com');
    expect(r.status).toBe(200);
    expect(r.text).toContain('Check your e-mail');
    const link = await linkFor('new.person@example.com');
    const mail = smtp.to('new.person@example.com')[0];
    expect(mail.subject).toBe('Confirm your e-mail address for Beacon');
    expect(mail.from?.value[0].address).toBe('no-reply@beacon.test');
    // Unverified: cannot sign in.
    await c.get('/signin');
    expect((await c.post('/signin', { email: 'new.person@example.com', password: PASSWORD })).status).toBe(401);
    // The link shows a button (a mail scanner opening it changes nothing); pressing it makes the account.
    const landing = await c.get(link);
    expect(landing.status).toBe(200);
    expect(landing.text).toContain('Confirm and create my account');
    const done = await c.post('/signup/verify', { token: link.split('=')[1] });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/signup/welcome');
    const welcome = await c.get('/signup/welcome');
    expect(welcome.status).toBe(200);
    expect(welcome.text).toContain('new.person@example.com is confirmed and you are signed in.');
    const accounts = t.app.get(AccountsService);
    const all = await t.dataSource.query<{ workspace_id: string }[]>(
      `SELECT workspace_id FROM web_users WHERE email = 'new.person@example.com'`,
    );
    const members = await accounts.listInWorkspace(all[0].workspace_id);
    expect(members.map((m) => [m.email, m.role, m.must_change_password])).toEqual([
      ['new.person@example.com', 'admin', false],
    ]);
    // The password chosen at sign-up signs in.
    const again = WebClient.of(t.server);
    expect((await again.signIn('new.person@example.com', PASSWORD)).status).toBe(303);
    // The link works once.
    expect((await WebClient.of(t.server).get(link)).status).toBe(400);
    const reused = WebClient.of(t.server);
    await reused.get('/signup');
    const second = await reused.post('/signup/verify', { token: link.split('=')[1] });
    expect(second.status).toBe(400);
    expect(second.text).toContain('This link is not valid');
  });

  it('a link whose address got an account meanwhile is 409 and makes no second account; the sign-up stays', async () => {
    const c = WebClient.of(t.server);
    expect((await signUp(c, 'meanwhile@example.com')).status).toBe(200);
    const link = await linkFor('meanwhile@example.com');
    await t.createKey('signup-meanwhile');
    await t.app.get(AccountsService).createUser('signup-meanwhile', 'meanwhile@example.com', 'member');
    expect((await c.get(link)).status).toBe(200);
    const r = await c.post('/signup/verify', { token: link.split('=')[1] });
    expect(r.status).toBe(409);
    expect(r.text).toContain('This address already has an account: sign in.');
    const users = await t.dataSource.query<{ role: string }[]>(
      `SELECT role FROM web_users WHERE email = 'meanwhile@example.com'`,
    );
    expect(users).toEqual([{ role: 'member' }]);
    const pending = await t.dataSource.query<unknown[]>(
      `SELECT 1 FROM web_signups WHERE email = 'meanwhile@example.com'`,
    );
    expect(pending).toHaveLength(1); // the transaction's DELETE rolled back with it
  });

  it('answers an existing address exactly like a new one, and mails its owner instead', async () => {
    await t.createKey('signup-existing');
    await t.app.get(AccountsService).createUser('signup-existing', 'owner@example.com', 'admin');
    const known = await signUp(WebClient.of(t.server), 'owner@example.com');
    const fresh = await signUp(WebClient.of(t.server), 'someone.else@example.com');
    const main = (text: string, email: string) =>
      /<main[\s\S]*<\/main>/
        .exec(text)![0]
        .replace(email, 'EMAIL')
        .replace(/name="_csrf" value="[^"]+"/g, '');
    expect(known.status).toBe(fresh.status);
    expect(main(known.text, 'owner@example.com')).toBe(main(fresh.text, 'someone.else@example.com'));
    const mail = await smtp.waitFor((m) => m.subject === 'Your Beacon account');
    expect(mail.text).toContain('already has an account');
    expect(mail.text).not.toContain('/signup/verify');
    expect(await t.dataSource.query(`SELECT email FROM web_signups WHERE email = 'owner@example.com'`)).toEqual([]);
  });

  it('says when a link has expired, and makes no account', async () => {
    const c = WebClient.of(t.server);
    await signUp(c, 'late@example.com');
    const link = await linkFor('late@example.com');
    await t.dataSource.query(
      `UPDATE web_signups SET expires_at = now() - interval '1 minute' WHERE email = 'late@example.com'`,
    );
    const landing = await c.get(link);
    expect(landing.status).toBe(400);
    expect(landing.text).toContain('This link has expired: sign up again to get a new one.');
    await c.get('/signup'); // a page with a form (CSRF token)
    const post = await c.post('/signup/verify', { token: link.split('=')[1] });
    expect(post.status).toBe(400);
    expect(post.text).toContain('expired');
    expect(await t.dataSource.query(`SELECT 1 FROM web_users WHERE email = 'late@example.com'`)).toEqual([]);
  });

  it('names the field of a bad form, and limits the mails one address gets', async () => {
    const c = WebClient.of(t.server);
    const short = await signUp(c, 'x@example.com', 'short');
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/error-summary[\s\S]*href="#password"/);
    const differ = await signUp(c, 'x@example.com', PASSWORD, `${PASSWORD}!`);
    expect(differ.text).toMatch(/href="#confirm_password"[^>]*>The two passwords differ/);
    const bad = await signUp(c, 'not an address');
    expect(bad.text).toMatch(/href="#email"/);
    for (let i = 0; i < 3; i++) expect((await signUp(c, 'bombed@example.com')).status).toBe(200);
    const limited = await signUp(c, 'bombed@example.com');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many sign-ups');
  });
});
