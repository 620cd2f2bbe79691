import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { WebModule } from '../../src/web/web.module';
import { AccountsService } from '../../src/accounts/accounts.service';
import { runCli } from '../../src/cli';
import { WorkspaceAiKeysService } from '../../src/common/ai/workspace-ai-keys.service';
import { ApiKeysService } from '../../src/common/api-keys/api-keys.service';
import { SitesService } from '../../src/a11y/sites/sites.service';
import { AlertsService } from '../../src/common/notify/alerts.service';
import { AlertsStore } from '../../src/common/notify/alerts.store';
import { DemoSeedService } from '../../src/visibility/demo/demo-seed.service';
import { CollectStore } from '../../src/visibility/collect/collect.store';
import { TrackingService } from '../../src/visibility/tracking/tracking.service';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebClient } from './web-client';

/** Every route of the website's controllers ("GET /dashboard/prompts"), from Nest's own route metadata. */
function websiteRoutes(): string[] {
  const controllers = Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, WebModule) as (new (...a: never[]) => object)[];
  const out: string[] = [];
  for (const ctl of controllers) {
    const base = String(Reflect.getMetadata(PATH_METADATA, ctl) ?? '').replace(/^\/|\/$/g, '');
    for (const name of Object.getOwnPropertyNames(ctl.prototype)) {
      const handler = (ctl.prototype as Record<string, unknown>)[name];
      if (
        name === 'constructor' ||
        typeof handler !== 'function' ||
        Reflect.getMetadata(PATH_METADATA, handler) === undefined
      )
        continue;
      const path = String(Reflect.getMetadata(PATH_METADATA, handler)).replace(/^\/|\/$/g, '');
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      out.push(`${method} /${[base, path].filter(Boolean).join('/')}`);
    }
  }
  return out;
}

const NEW_PASSWORD = 'correct horse battery staple';

/** Accounts, sessions, CSRF, roles and workspace isolation over HTTP on the full app. */
describe('Website accounts (e2e)', () => {
  let t: TestApp;
  let accounts: AccountsService;
  let demoKey: string;
  let adminOtp: string;
  let memberOtp: string;
  let otherOtp: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_FAILURES: '3', LOGIN_IP_MAX_FAILURES: '1000', LOGIN_LOCKOUT_S: '60' } });
    demoKey = (await t.app.get(DemoSeedService).seed()).key;
    accounts = t.app.get(AccountsService);
    adminOtp = (await accounts.createUser('demo', 'Admin@Example.com', 'admin')).one_time_password;
    memberOtp = (await accounts.createUser('demo', 'member@example.com', 'member')).one_time_password;
    await t.createKey('other');
    otherOtp = (await accounts.createUser('other', 'boss@other.example', 'admin')).one_time_password;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('sends visitors without a session to the sign-in page (deny by default)', async () => {
    const c = WebClient.of(t.server);
    for (const path of [
      '/dashboard',
      '/dashboard/answers',
      '/dashboard/settings/api-keys',
      '/dashboard/settings/members',
      '/account/password',
    ]) {
      const r = await c.get(path);
      expect(r.status).toBe(303);
      expect(r.location).toBe(`/signin?next=${encodeURIComponent(path)}`);
    }
    const post = await c.request('POST', '/dashboard/settings/api-keys', { form: { label: 'x' } });
    expect([401, 403]).toContain(post.status);
    expect(post.text).not.toMatch(/at .*\.ts:\d+/);
  });

  it('signs in with the one-time password, requires a new one, rotates the session id, sets safe cookies', async () => {
    const c = WebClient.of(t.server);
    await c.get('/signin');
    const before = c.cookies.get('beacon_session');
    expect(before).toBeUndefined();
    const r = await c.post('/signin', { email: 'admin@example.com', password: adminOtp });
    expect(r.status).toBe(303);
    expect(r.location).toBe('/account/password');
    const setCookie = r.headers.getSetCookie().find((s) => s.startsWith('beacon_session='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // plain http on loopback
    const first = c.cookies.get('beacon_session');
    // Every other page sends them back to the password page until it is changed.
    expect((await c.get('/dashboard')).location).toBe('/account/password');
    await c.get('/account/password');
    const weak = await c.post('/account/password', {
      current_password: adminOtp,
      new_password: 'short',
      confirm_password: 'short',
    });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('at least 12 characters');
    const ok = await c.post('/account/password', {
      current_password: adminOtp,
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe('/dashboard');
    expect(c.cookies.get('beacon_session')).not.toBe(first);
    const dash = await c.get('/dashboard');
    expect(dash.status).toBe(200);
    expect(dash.headers.get('content-security-policy')).toContain("script-src 'self'");
    // The old one-time password no longer works; the new one does, with a new session id.
    const again = new WebClient(c.origin);
    await again.get('/signin');
    expect((await again.post('/signin', { email: 'admin@example.com', password: adminOtp })).status).toBe(401);
    const s2 = await again.signIn('ADMIN@example.com', NEW_PASSWORD);
    expect(s2.location).toBe('/dashboard');
  });

  it('does not ask again for the one-time password the sign-in just proved; the proof is sealed, bound to its session and cleared after use', async () => {
    const otp = (await accounts.createUser('demo', 'proof@example.com', 'member')).one_time_password;
    const c = WebClient.of(t.server);
    await c.get('/signin');
    const r = await c.post('/signin', { email: 'proof@example.com', password: otp });
    expect(r.location).toBe('/account/password');
    const set = r.headers.getSetCookie().find((x) => x.startsWith('beacon_otp_proof='))!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Strict/i);
    expect(set).toMatch(/Path=\/account\/password/i);
    expect(set).toMatch(/Max-Age=600\b/);
    const proof = c.cookies.get('beacon_otp_proof')!;
    expect(proof).not.toContain(otp); // sealed, not the password in clear
    expect(Buffer.from(proof, 'base64url').toString('latin1')).not.toContain(otp);
    const form = await c.get('/account/password');
    expect(form.text).not.toContain('id="current_password"');
    // Another session (the same one-time password typed elsewhere) cannot use this session's proof.
    const other = WebClient.of(t.server);
    await other.signIn('proof@example.com', otp);
    other.cookies.set('beacon_otp_proof', proof);
    expect((await other.get('/account/password')).text).toContain('id="current_password"');
    const refused = await other.post('/account/password', {
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('type the one-time password again');
    // A forged proof is ignored the same way.
    const forged = WebClient.of(t.server);
    await forged.signIn('proof@example.com', otp);
    forged.cookies.set('beacon_otp_proof', Buffer.from('x'.repeat(64)).toString('base64url'));
    expect((await forged.get('/account/password')).text).toContain('id="current_password"');
    // The proving session changes the password with only the new one; the proof is cleared.
    await c.get('/account/password');
    const ok = await c.post('/account/password', { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe('/dashboard');
    expect(c.cookies.has('beacon_otp_proof')).toBe(false);
    expect((await c.get('/dashboard')).status).toBe(200);
    // The one-time password is now worthless.
    const again = new WebClient(c.origin);
    await again.get('/signin');
    expect((await again.post('/signin', { email: 'proof@example.com', password: otp })).status).toBe(401);
  });

  it('shows the same mention rate as the API', async () => {
    const c = WebClient.of(t.server);
    await c.signIn('admin@example.com', NEW_PASSWORD);
    const page = await c.get('/dashboard');
    type Ci = { low: number; high: number };
    type Delta = { significant: boolean | null; p_value: number | null };
    const api = (await (
      await fetch(`${c.origin}/api/v1/visibility`, { headers: { authorization: `Bearer ${demoKey}` } })
    ).json()) as {
      latest: { mention_rate: number; grade: string; mention_rate_ci: Ci; share_of_voice_ci: Ci };
      funnel: { citation_rate_ci: Ci };
      comparison: { mention_rate: Delta; share_of_voice: Delta; answers: Delta };
    };
    expect(page.text).toContain(`<span class="value" id="mention-rate">${api.latest.mention_rate}%</span>`);
    expect(page.text).toContain(`id="grade">${api.latest.grade}<`);
    // Every rate with the API's 95 % interval; week over week says whether each change is significant, in words.
    const ci = (x: Ci) => `95 % interval ${x.low}–${x.high} %`;
    expect(page.text).toContain(`id="mention-rate-ci">${ci(api.latest.mention_rate_ci)}<`);
    expect(page.text).toContain(`id="share-of-voice-ci">${ci(api.latest.share_of_voice_ci)}<`);
    expect(page.text).toContain(`id="citation-rate-ci">${ci(api.funnel.citation_rate_ci)}<`);
    const row = (figure: string) =>
      new RegExp(
        `<th scope="row"[^>]*>${figure.replace(/[()]/g, '\\$&')}</th>(?:<td[^>]*>.*?</td>){3}<td[^>]*>([^<]*)</td></tr>`,
      ).exec(page.text)?.[1];
    const words = (d: Delta) =>
      d.significant === null ? 'not tested' : `${d.significant ? 'yes' : 'no'} (p = ${d.p_value})`;
    expect(row('Mention rate (%)')).toBe(words(api.comparison.mention_rate));
    expect(row('Share of voice (%)')).toBe(words(api.comparison.share_of_voice));
    expect(row('Successful answers')).toBe('not tested');
    for (const tab of ['prompts', 'answers', 'sources', 'urls', 'gaps']) {
      const r = await c.get(`/dashboard/${tab}`);
      expect(r.status).toBe(200);
    }
    const answers = await c.get('/dashboard/answers?mentioned=true&limit=5');
    expect(answers.text).toMatch(/<mark class="(own|competitor)" title="[^"]+: counted \((name|alias)\)">/);
    expect(answers.text).toContain('5 shown on this page');
    // The API's validation, as a readable page.
    const bad = await c.get('/dashboard/answers?limit=9999');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('limit');
    expect(bad.headers.get('content-type')).toContain('text/html');
  });

  it('admin creates a key shown once, the API accepts it, revocation makes the next call 401', async () => {
    const c = WebClient.of(t.server);
    await c.signIn('admin@example.com', NEW_PASSWORD);
    await c.get('/dashboard/settings/api-keys');
    // Post/redirect/get: the key is on the page the redirect leads to, once.
    const posted = await c.post('/dashboard/settings/api-keys', { label: 'CI export' });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe('/dashboard/settings/api-keys?created=1');
    const created = await c.get(posted.location!);
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = /<code class="secret" id="new-key">(bcn_[A-Za-z0-9]+)<\/code>/.exec(created.text)![1];
    const call = () => fetch(`${c.origin}/api/v1/visibility`, { headers: { authorization: `Bearer ${key}` } });
    expect((await call()).status).toBe(200);
    expect((await c.get(posted.location!)).text).not.toContain(key);
    const list = await c.get('/dashboard/settings/api-keys');
    expect(list.text).toContain('CI export');
    expect(list.text).not.toContain(key);
    const id = new RegExp(
      `/dashboard/settings/api-keys/([0-9a-f-]{36})/revoke">Revoke<span class="visually-hidden"> CI export`,
    ).exec(list.text)![1];
    const confirm = await c.get(`/dashboard/settings/api-keys/${id}/revoke`);
    expect(confirm.text).toContain('Revoke the key');
    const revoked = await c.post(`/dashboard/settings/api-keys/${id}/revoke`);
    expect(revoked.status).toBe(303);
    expect((await call()).status).toBe(401);
  });

  it('a member sees the keys but cannot create or revoke (403), nor manage members, nor reach the confirmations', async () => {
    const c = WebClient.of(t.server);
    await c.signIn('member@example.com', memberOtp, 'member password 123');
    const list = await c.get('/dashboard/settings/api-keys');
    expect(list.status).toBe(200);
    expect(list.text).toContain('demo');
    expect(list.text).not.toContain('Create key');
    const create = await c.post('/dashboard/settings/api-keys', { label: 'sneaky' });
    expect(create.status).toBe(403);
    expect(create.text).toContain('Only an admin');
    const keys = await t.app.get(AccountsService).listUsers('demo');
    const admin = keys.find((u) => u.role === 'admin')!;
    await c.get('/dashboard/settings/members');
    expect((await c.get(`/dashboard/settings/members/${admin.id}/disable`)).status).toBe(403);
    expect((await c.get(`/dashboard/settings/members/${admin.id}/enable`)).status).toBe(403);
    expect((await c.get('/dashboard/settings/ai-providers/perplexity/remove')).status).toBe(403);
    expect((await c.get(`/dashboard/settings/alerts/${admin.id}/remove`)).status).toBe(403);
    await c.get('/dashboard/settings/members');
    expect((await c.post(`/dashboard/settings/members/${admin.id}/disable`)).status).toBe(403);
    await c.get('/dashboard/settings/members');
    expect((await c.post(`/dashboard/settings/members/${admin.id}/enable`)).status).toBe(403);
    await c.get('/dashboard/settings/members');
    expect((await c.post('/dashboard/settings/members', { email: 'x@example.com', role: 'admin' })).status).toBe(403);
  });

  it('refuses a state-changing request without or with a wrong CSRF token', async () => {
    const c = WebClient.of(t.server);
    await c.signIn('admin@example.com', NEW_PASSWORD);
    await c.get('/dashboard/settings/api-keys');
    const none = await c.request('POST', '/dashboard/settings/api-keys', { form: { label: 'no token' } });
    expect(none.status).toBe(403);
    expect(none.text).toContain('security token');
    const wrong = await c.request('POST', '/dashboard/settings/api-keys', {
      form: { label: 'wrong', _csrf: 'abc.def' },
    });
    expect(wrong.status).toBe(403);
    // A token of another browser does not fit this one.
    const other = WebClient.of(t.server);
    await other.get('/signin');
    const foreign = await c.request('POST', '/dashboard/settings/api-keys', {
      form: { label: 'foreign', _csrf: other.csrf() },
    });
    expect(foreign.status).toBe(403);
    const keys = await c.get('/dashboard/settings/api-keys');
    expect(keys.text).not.toMatch(/no token|wrong|foreign/);
    // Sign-in itself is protected (login CSRF).
    const anon = WebClient.of(t.server);
    expect(
      (await anon.request('POST', '/signin', { form: { email: 'admin@example.com', password: NEW_PASSWORD } })).status,
    ).toBe(403);
  });

  it('counts wrong passwords, locks the account with a retry time, and never tells which emails exist', async () => {
    await accounts.createUser('demo', 'victim@example.com', 'member');
    const c = WebClient.of(t.server);
    await c.get('/signin');
    const unknown = await c.post('/signin', { email: 'nobody@example.com', password: 'whatever password' });
    const wrong = await c.post('/signin', { email: 'victim@example.com', password: 'whatever password' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const msg = (r: { text: string }) => /<div class="error-summary"[\s\S]*?<\/div>/.exec(r.text)![0];
    expect(msg(unknown)).toBe(msg(wrong));
    expect(msg(wrong)).toContain('Wrong email or password.');
    const third = await c.post('/signin', { email: 'victim@example.com', password: 'again wrong' });
    const locked =
      third.status === 429 ? third : await c.post('/signin', { email: 'victim@example.com', password: 'again wrong' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.text).toMatch(/Try again in \d+ minute/);
    // Unknown emails lock the same way (a lock reveals nothing).
    for (let i = 0; i < 2; i++) await c.post('/signin', { email: 'ghost@example.com', password: 'x' });
    expect((await c.post('/signin', { email: 'ghost@example.com', password: 'x' })).status).toBe(429);
  });

  it('ignores forged and ended sessions', async () => {
    const c = WebClient.of(t.server);
    c.cookies.set('beacon_session', 'A'.repeat(43));
    const r = await c.get('/dashboard');
    expect(r.status).toBe(303);
    expect(r.location).toContain('/signin');
    c.cookies.set('beacon_session', '<script>');
    expect((await c.get('/dashboard')).status).toBe(303);
    // Sign out ends the session on the server: the old cookie no longer works.
    const s = WebClient.of(t.server);
    await s.signIn('admin@example.com', NEW_PASSWORD);
    const stolen = s.cookies.get('beacon_session')!;
    await s.get('/dashboard');
    expect((await s.post('/signout')).location).toBe('/signin?signed_out=1');
    const thief = WebClient.of(t.server);
    thief.cookies.set('beacon_session', stolen);
    expect((await thief.get('/dashboard')).status).toBe(303);
  });

  it('keeps workspaces apart on every page and action (every route of the website, read from its controllers)', async () => {
    const c = WebClient.of(t.server);
    await c.signIn('boss@other.example', otherOtp, 'other admin password');
    const demoAdmin = (await accounts.listUsers('demo')).find((u) => u.email === 'admin@example.com')!;
    const demoKeys = () => t.app.get(ApiKeysService).listKeys('demo');
    const demoKey = (await demoKeys())[0];
    const probe = await accounts.createUser('demo', 'probe@example.com', 'member');
    await WebClient.of(t.server).signIn(probe.email, probe.one_time_password, NEW_PASSWORD);
    const demoAlert = await t.app
      .get(AlertsStore)
      .addDestination(demoAdmin.workspace_id, 'email', 'demo-alerts@example.com', null);
    const demoSite = await t.app
      .get(SitesService)
      .create(demoAdmin.workspace_id, { name: 'Acme shop', start_url: 'https://acme-shop.example/' });
    // The demo workspace's tracked set-up (prompts p001...) and a scan of it.
    const demoTracking = await t.app.get(TrackingService).settings(demoAdmin.workspace_id);
    const demoRun = (await t.app.get(CollectStore).create({
      workspaceId: demoAdmin.workspace_id,
      trigger: 'manual',
      setup: {
        business: demoTracking.business,
        brand: demoTracking.brand,
        competitors: demoTracking.competitors,
        prompts: [],
        platforms: ['openai'],
        samples: 1,
      },
      planned: 0,
      budgetCalls: 1,
      budgetUsd: 1,
      date: '2026-11-26',
    }))!;
    const demoPrompt = () => t.app.get(TrackingService).prompt(demoAdmin.workspace_id, 'p001');
    const markers = [
      'Acme',
      'admin@example.com',
      'member@example.com',
      demoKey.label ?? 'CI export',
      demoKey.prefix,
      'demo-alerts@example.com',
    ];
    /** The page shows nothing of the demo workspace. */
    const clean = async (r: Promise<{ status: number; text: string }>, status = 200): Promise<void> => {
      const got = await r;
      expect({ status: got.status, leaked: markers.filter((m) => got.text.includes(m)) }).toEqual({
        status,
        leaked: [],
      });
    };
    const form = async (page: string, action: string, fields: Record<string, string> = {}) => {
      await c.get(page);
      return c.post(action, fields);
    };
    const pdf = new FormData();
    pdf.set('file', new Blob([Buffer.from('not a PDF')]), 'x.pdf');
    const checks: Record<string, () => Promise<void>> = {
      'GET /': () => clean(c.get('/')),
      'GET /signin': () => clean(c.get('/signin'), 303), // signed in: on to the dashboard
      'POST /signin': async () => {
        // Signing in as someone else needs their password; the session stays the other workspace's.
        const r = await form('/dashboard', '/signin', { email: 'admin@example.com', password: 'not the password' });
        expect(r.status).toBe(401); // the page echoes the typed email, nothing else of the demo workspace
        expect(markers.filter((m) => m !== 'admin@example.com' && r.text.includes(m))).toEqual([]);
        await clean(c.get('/dashboard'));
      },
      'POST /signout': async () => {
        const demo = WebClient.of(t.server);
        await demo.signIn(probe.email, NEW_PASSWORD);
        const other = WebClient.of(t.server);
        await other.signIn('boss@other.example', 'other admin password');
        await other.get('/dashboard');
        await other.post('/signout');
        expect((await demo.get('/dashboard')).status).toBe(200);
      },
      'GET /account/password': () => clean(c.get('/account/password')),
      'POST /account/password': async () => {
        const own = WebClient.of(t.server);
        await own.signIn('boss@other.example', 'other admin password');
        await own.get('/account/password');
        await clean(
          own.post('/account/password', {
            current_password: 'other admin password',
            new_password: 'other admin password 2',
            confirm_password: 'other admin password 2',
          }),
          303,
        );
        await c.signIn('boss@other.example', 'other admin password 2');
        // Only the signed-in user's own password changed.
        expect((await WebClient.of(t.server).signIn(probe.email, NEW_PASSWORD)).status).toBe(303);
      },
      'GET /dashboard': () => clean(c.get('/dashboard')),
      'GET /dashboard/prompts': () => clean(c.get('/dashboard/prompts')),
      'GET /dashboard/answers': () => clean(c.get('/dashboard/answers')),
      'GET /dashboard/sources': () => clean(c.get('/dashboard/sources')),
      'GET /dashboard/urls': () => clean(c.get('/dashboard/urls')),
      'GET /dashboard/gaps': () => clean(c.get('/dashboard/gaps')),
      'GET /dashboard/trends': () => clean(c.get('/dashboard/trends')),
      // The other workspace has no data: no file, and nothing of the demo workspace's.
      'GET /dashboard/export/:file': () => clean(c.get('/dashboard/export/answers.csv?scan_id=s1'), 404),
      'GET /dashboard/settings/api-keys': () => clean(c.get('/dashboard/settings/api-keys')),
      'POST /dashboard/settings/api-keys': async () => {
        const before = (await demoKeys()).length;
        await form('/dashboard/settings/api-keys', '/dashboard/settings/api-keys', { label: 'isolation probe' });
        expect((await demoKeys()).length).toBe(before);
        expect((await t.app.get(ApiKeysService).listKeys('other')).map((k) => k.label)).toContain('isolation probe');
      },
      'GET /dashboard/settings/api-keys/:id/revoke': () =>
        clean(c.get(`/dashboard/settings/api-keys/${demoKey.id}/revoke`), 404),
      'POST /dashboard/settings/api-keys/:id/revoke': async () => {
        await clean(form('/dashboard/settings/api-keys', `/dashboard/settings/api-keys/${demoKey.id}/revoke`), 404);
        expect((await demoKeys()).find((k) => k.id === demoKey.id)!.revoked_at).toBeNull();
      },
      'GET /dashboard/settings/members': () => clean(c.get('/dashboard/settings/members')),
      'POST /dashboard/settings/members': async () => {
        await form('/dashboard/settings/members', '/dashboard/settings/members', {
          email: 'probe@other.example',
          role: 'admin',
        });
        // An invitation of this workspace (the account is made when the person first signs in).
        const otherWs = (await accounts.listUsers('other'))[0].workspace_id;
        const demoWs = demoAdmin.workspace_id;
        expect((await accounts.listInvitations(otherWs)).map((u) => u.email)).toContain('probe@other.example');
        expect((await accounts.listInvitations(demoWs)).map((u) => u.email)).not.toContain('probe@other.example');
      },
      'POST /dashboard/settings/members/:id/role': async () => {
        await clean(
          form('/dashboard/settings/members', `/dashboard/settings/members/${demoAdmin.id}/role`, { role: 'member' }),
          404,
        );
        expect((await accounts.listUsers('demo')).find((u) => u.id === demoAdmin.id)!.role).toBe('admin');
      },
      'GET /dashboard/settings/members/:id/:action': async () => {
        for (const action of ['disable', 'enable'])
          await clean(c.get(`/dashboard/settings/members/${demoAdmin.id}/${action}`), 404);
      },
      'POST /dashboard/settings/members/:id/:action': async () => {
        for (const action of ['disable', 'enable'])
          await clean(
            form('/dashboard/settings/members', `/dashboard/settings/members/${demoAdmin.id}/${action}`),
            404,
          );
        expect((await accounts.listUsers('demo')).find((u) => u.id === demoAdmin.id)!.disabled).toBe(false);
      },
      'GET /dashboard/tracking': () => clean(c.get('/dashboard/tracking')),
      'POST /dashboard/tracking/brand': () =>
        clean(
          form('/dashboard/tracking', '/dashboard/tracking/brand', {
            business: 'Other Co',
            name: 'Other',
            aliases: '',
            domains: 'other.example',
          }),
          303,
        ),
      'POST /dashboard/tracking/competitors': () =>
        clean(
          form('/dashboard/tracking', '/dashboard/tracking/competitors', {
            name: 'Probe Co',
            aliases: '',
            domains: '',
          }),
          303,
        ),
      'GET /dashboard/tracking/competitors/:index/delete': () =>
        clean(c.get('/dashboard/tracking/competitors/0/delete')),
      'POST /dashboard/tracking/competitors/:index/delete': async () => {
        await clean(form('/dashboard/tracking', '/dashboard/tracking/competitors/0/delete'));
        expect((await t.app.get(TrackingService).settings(demoAdmin.workspace_id)).competitors).toEqual(
          demoTracking.competitors,
        );
      },
      'POST /dashboard/tracking/scans': () =>
        clean(
          form('/dashboard/tracking', '/dashboard/tracking/scans', {
            platforms: 'gemini',
            samples: '1',
            schedule: 'manual',
            budget_calls: '5',
            budget_usd: '1',
          }),
          303,
        ),
      'GET /dashboard/tracking/prompts': () => clean(c.get('/dashboard/tracking/prompts')),
      'POST /dashboard/tracking/prompts': () =>
        clean(
          form('/dashboard/tracking/prompts', '/dashboard/tracking/prompts', { text: 'isolation probe prompt' }),
          303,
        ),
      'POST /dashboard/tracking/prompts/bulk': async () => {
        await c.get('/dashboard/tracking/prompts');
        const body = new FormData();
        body.set('lines', 'bulk isolation probe');
        await clean(
          c.request('POST', `/dashboard/tracking/prompts/bulk?_csrf=${encodeURIComponent(c.csrf())}`, { body }),
          303,
        );
        expect((await t.app.get(TrackingService).allPrompts(demoAdmin.workspace_id)).map((p) => p.text)).not.toContain(
          'bulk isolation probe',
        );
      },
      'GET /dashboard/tracking/prompts/:id/edit': () => clean(c.get('/dashboard/tracking/prompts/p001/edit'), 404),
      'POST /dashboard/tracking/prompts/:id': async () => {
        const before = await demoPrompt();
        await clean(form('/dashboard/tracking/prompts', '/dashboard/tracking/prompts/p001', { text: 'hijacked' }), 404);
        expect(await demoPrompt()).toEqual(before);
      },
      'GET /dashboard/tracking/prompts/:id/delete': () => clean(c.get('/dashboard/tracking/prompts/p001/delete'), 404),
      'POST /dashboard/tracking/prompts/:id/delete': async () => {
        await clean(form('/dashboard/tracking/prompts', '/dashboard/tracking/prompts/p001/delete'), 404);
        expect(await demoPrompt()).toBeTruthy();
      },
      'GET /dashboard/scans': () => clean(c.get('/dashboard/scans')),
      'POST /dashboard/scans/run': () => clean(form('/dashboard/scans', '/dashboard/scans/run'), 409), // the chosen platform (Gemini) is not configured here
      'GET /dashboard/scans/:id': () => clean(c.get(`/dashboard/scans/${demoRun}`), 404),
      'GET /dashboard/settings/ai-providers': () => clean(c.get('/dashboard/settings/ai-providers')),
      'POST /dashboard/settings/ai-providers/:platform/key': async () => {
        await clean(
          form('/dashboard/settings/ai-providers', '/dashboard/settings/ai-providers/openai/key', {
            key: 'sk-other-workspace',
          }),
          303,
        );
        expect((await t.app.get(WorkspaceAiKeysService).keys(demoAdmin.workspace_id)).has('openai')).toBe(false);
      },
      'GET /dashboard/settings/ai-providers/:platform/remove': async () => {
        // The demo workspace has its own key; this one has none: nothing to confirm here.
        await t.app.get(WorkspaceAiKeysService).set(demoAdmin.workspace_id, 'perplexity', 'pplx-demo-key', null);
        await clean(c.get('/dashboard/settings/ai-providers/perplexity/remove'), 404);
      },
      'POST /dashboard/settings/ai-providers/:platform/remove': async () => {
        const aiKeys = t.app.get(WorkspaceAiKeysService);
        await aiKeys.set(demoAdmin.workspace_id, 'perplexity', 'pplx-demo-key', null);
        await clean(
          form('/dashboard/settings/ai-providers', '/dashboard/settings/ai-providers/perplexity/remove'),
          303,
        );
        expect((await aiKeys.keys(demoAdmin.workspace_id)).get('perplexity')).toBe('pplx-demo-key');
      },
      'GET /dashboard/settings/alerts': () => clean(c.get('/dashboard/settings/alerts')),
      'POST /dashboard/settings/alerts/webhooks': () =>
        clean(
          form('/dashboard/settings/alerts', '/dashboard/settings/alerts/webhooks', { url: 'http://10.0.0.1/hook' }),
          400,
        ),
      'POST /dashboard/settings/alerts/emails': () =>
        clean(
          form('/dashboard/settings/alerts', '/dashboard/settings/alerts/emails', { email: 'x@other.example' }),
          400,
        ), // no SMTP_URL here
      'POST /dashboard/settings/alerts/test': () =>
        clean(form('/dashboard/settings/alerts', '/dashboard/settings/alerts/test'), 303),
      'GET /dashboard/sites': () => clean(c.get('/dashboard/sites')),
      'POST /dashboard/sites': () =>
        clean(form('/dashboard/sites', '/dashboard/sites', { start_url: 'not a url' }), 400),
      'GET /dashboard/sites/:id': () => clean(c.get(`/dashboard/sites/${demoSite.id}`), 404),
      'GET /dashboard/sites/:id/scans/:scanId/:file': () =>
        clean(
          c.get(`/dashboard/sites/${demoSite.id}/scans/00000000-0000-4000-8000-000000000000/accessibility.csv`),
          404,
        ),
      'POST /dashboard/sites/:id': async () => {
        await clean(
          form('/dashboard/sites', `/dashboard/sites/${demoSite.id}`, {
            start_url: 'https://other.example/',
            name: 'taken over',
          }),
          404,
        );
        expect((await t.app.get(SitesService).get(demoAdmin.workspace_id, demoSite.id)).name).toBe('Acme shop');
      },
      'POST /dashboard/sites/:id/verify': () =>
        clean(form('/dashboard/sites', `/dashboard/sites/${demoSite.id}/verify`), 404),
      'POST /dashboard/sites/:id/run': async () => {
        await clean(form('/dashboard/sites', `/dashboard/sites/${demoSite.id}/run`), 404);
        expect(await t.app.get(SitesService).scansOf(demoSite.id)).toEqual([]);
      },
      'GET /dashboard/sites/:id/remove': () => clean(c.get(`/dashboard/sites/${demoSite.id}/remove`), 404),
      'POST /dashboard/sites/:id/remove': async () => {
        await clean(form('/dashboard/sites', `/dashboard/sites/${demoSite.id}/remove`), 404);
        expect((await t.app.get(SitesService).list(demoAdmin.workspace_id)).map((x) => x.id)).toEqual([demoSite.id]);
      },
      'GET /dashboard/settings/alerts/:id/remove': () =>
        clean(c.get(`/dashboard/settings/alerts/${demoAlert.id}/remove`), 404),
      'POST /dashboard/settings/alerts/:id/remove': async () => {
        await clean(form('/dashboard/settings/alerts', `/dashboard/settings/alerts/${demoAlert.id}/remove`), 404);
        expect((await t.app.get(AlertsService).destinations(demoAdmin.workspace_id)).map((d) => d.id)).toEqual([
          demoAlert.id,
        ]);
      },
      'GET /signup': () => clean(c.get('/signup'), 303), // signed in: on to the tools
      'POST /signup': () =>
        clean(form('/dashboard', '/signup', { email: 'new@other.example', password: 'x', confirm_password: 'x' }), 503), // no SMTP_URL here
      'GET /signup/verify': () => clean(c.get('/signup/verify?token=x'), 400),
      'POST /signup/verify': () => clean(form('/dashboard', '/signup/verify', { token: 'x' }), 400),
      'GET /signup/welcome': () => clean(c.get('/signup/welcome')),
      // Anonymous tools: no workspace behind them, so nothing of one on their pages.
      'GET /pdf': () => clean(c.get('/pdf')),
      'GET /pdf/:tool': () => clean(c.get('/pdf/rotate-pages')),
      'POST /pdf/:tool': () => clean(form('/pdf/rotate-pages', '/pdf/rotate-pages', {}), 400),
      'POST /pdf/:tool/upload': async () => {
        await c.get('/pdf/rotate-pages');
        await clean(
          c.request('POST', `/pdf/rotate-pages/upload?_csrf=${encodeURIComponent(c.csrf())}`, { body: pdf }),
          415,
        );
      },
      // The conversions (issue 23): anonymous too.
      'GET /pdf/images': () => clean(c.get('/pdf/images')),
      'POST /pdf/images': () => clean(form('/pdf/images', '/pdf/images', {}), 400),
      'POST /pdf/images/upload': async () => {
        await c.get('/pdf/images');
        await clean(c.request('POST', `/pdf/images/upload?_csrf=${encodeURIComponent(c.csrf())}`, { body: pdf }), 415);
      },
      'GET /pdf/ocr': () => clean(c.get('/pdf/ocr')),
      'POST /pdf/ocr': () => clean(form('/pdf/ocr', '/pdf/ocr', {}), 400),
      'POST /pdf/ocr/upload': async () => {
        await c.get('/pdf/ocr');
        await clean(c.request('POST', `/pdf/ocr/upload?_csrf=${encodeURIComponent(c.csrf())}`, { body: pdf }), 415);
      },
      'GET /pdf/ocr/jobs/:id': () => clean(c.get('/pdf/ocr/jobs/AAAAAAAAAAAAAAAAAAAAAA'), 404),
      'GET /pdf/ai': () => clean(c.get('/pdf/ai')),
      'POST /pdf/ai/upload': async () => {
        await c.get('/pdf/ai');
        await clean(c.request('POST', `/pdf/ai/upload?_csrf=${encodeURIComponent(c.csrf())}`, { body: pdf }), 415);
      },
      'POST /pdf/ai/summarize': () => clean(form('/pdf/ai', '/pdf/ai/summarize', { file_id: 'no-such-file' }), 404),
      'POST /pdf/ai/chat': () =>
        clean(form('/pdf/ai', '/pdf/ai/chat', { file_id: 'no-such-file', question: 'q' }), 404),
      'POST /pdf/ai/translate': () =>
        clean(form('/pdf/ai', '/pdf/ai/translate', { file_id: 'no-such-file', language: 'German' }), 404),
      'GET /pdf/ai/translations/:name': () => clean(c.get('/pdf/ai/translations/AAAAAAAAAAAAAAAAAAAAAA.pdf'), 404),
      'POST /pdf/ai/ocr': () =>
        clean(form('/pdf/ai', '/pdf/ai/ocr', { file_id: 'no-such-file', then: 'summarize' }), 404),
      'GET /pdf/ai/ocr/:id': () => clean(c.get('/pdf/ai/ocr/AAAAAAAAAAAAAAAAAAAAAA'), 404),
      'GET /pdf/thumbnails/:id': () => clean(c.get('/pdf/thumbnails/no-such-file'), 404),
      'GET /pdf/thumbnails/:id/:page': () => clean(c.get('/pdf/thumbnails/no-such-file/1.png'), 404),
      'GET /pdf/zip': () => clean(c.get('/pdf/zip?file_id=no-such-file'), 404),
      'GET /scan': () => clean(c.get('/scan')),
      'POST /scan': () => clean(form('/scan', '/scan', { url: 'http://169.254.169.254/' }), 400),
      'GET /assets/:name': () => clean(c.get('/assets/none.css'), 404),
      'GET /favicon.ico': () => clean(c.get('/favicon.ico')),
      'GET /*path': () => clean(c.get('/dashboard/no-such-page'), 404),
    };
    expect(websiteRoutes().sort()).toEqual(Object.keys(checks).sort());
    for (const [route, check] of Object.entries(checks)) {
      try {
        await check();
      } catch (e) {
        throw new Error(`${route}: ${(e as Error).message}`);
      }
    }
  });

  it('admin invites a member with a one-time password, changes the role, disables them (sessions end)', async () => {
    const admin = WebClient.of(t.server);
    await admin.signIn('admin@example.com', NEW_PASSWORD);
    await admin.get('/dashboard/settings/members');
    const invited = await admin.post('/dashboard/settings/members', { email: 'new@example.com', role: 'member' });
    expect(invited.status).toBe(201);
    const first = /<code class="secret" id="otp">([^<]+)<\/code>/.exec(invited.text)![1];
    // Inviting again gives a new one-time password; the first one no longer works.
    const again = await admin.post('/dashboard/settings/members', { email: 'NEW@example.com', role: 'member' });
    expect(again.status).toBe(201);
    const otp = /<code class="secret" id="otp">([^<]+)<\/code>/.exec(again.text)![1];
    expect(otp).not.toBe(first);
    const person = WebClient.of(t.server);
    await person.get('/signin');
    expect((await person.post('/signin', { email: 'new@example.com', password: first })).status).toBe(401);
    await person.signIn('new@example.com', otp, 'a new member password');
    await admin.get('/dashboard/settings/members');
    const dup = await admin.post('/dashboard/settings/members', { email: 'NEW@example.com', role: 'member' });
    expect(dup.status).toBe(409);
    expect(dup.text).toContain('new@example.com is already a member of this workspace.');
    expect((await person.get('/dashboard')).status).toBe(200);
    const id = (await accounts.listUsers('demo')).find((u) => u.email === 'new@example.com')!.id;
    await admin.get('/dashboard/settings/members');
    expect((await admin.post(`/dashboard/settings/members/${id}/role`, { role: 'admin' })).text).toContain(
      'new@example.com is now admin.',
    );
    await admin.get('/dashboard/settings/members');
    expect((await admin.post(`/dashboard/settings/members/${id}/disable`)).status).toBe(200);
    expect((await person.get('/dashboard')).status).toBe(303);
    await expect(WebClient.of(t.server).signIn('new@example.com', 'a new member password')).rejects.toThrow(
      'sign-in answered 401',
    );
    // Disabled: the list offers Enable again; inviting the address is a 409 that says so.
    const list = await admin.get('/dashboard/settings/members');
    expect(list.text).toContain(`href="/dashboard/settings/members/${id}/enable"`);
    expect(list.text).not.toContain(`href="/dashboard/settings/members/${id}/disable"`);
    const reinvite = await admin.post('/dashboard/settings/members', { email: 'new@example.com', role: 'member' });
    expect(reinvite.status).toBe(409);
    expect(reinvite.text).toContain('new@example.com is a disabled member of this workspace: use Enable again');
    // Enable again: a confirmation first, then the POST; the member signs in with their own password.
    const ask = await admin.get(`/dashboard/settings/members/${id}/enable`);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('<h1>Enable new@example.com again?</h1>');
    expect(ask.text).toContain(`<form method="post" action="/dashboard/settings/members/${id}/enable">`);
    expect((await accounts.listUsers('demo')).find((u) => u.id === id)!.disabled).toBe(true);
    const enabled = await admin.post(`/dashboard/settings/members/${id}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.text).toContain('new@example.com is enabled again and can sign in with their password.');
    expect((await accounts.listUsers('demo')).find((u) => u.id === id)).toMatchObject({
      disabled: false,
      role: 'admin',
    });
    // The sessions ended by the disable stay ended; signing in again works.
    expect((await person.get('/dashboard')).status).toBe(303);
    expect((await person.signIn('new@example.com', 'a new member password')).status).toBe(303);
    expect((await person.get('/dashboard')).status).toBe(200);
    // No other action; the object's own properties only.
    for (const action of ['promote', 'constructor', '__proto__', 'toString']) {
      expect((await admin.get(`/dashboard/settings/members/${id}/${action}`)).status).toBe(404);
      await admin.get('/dashboard/settings/members');
      expect((await admin.post(`/dashboard/settings/members/${id}/${action}`)).status).toBe(404);
    }
    // An active member has nothing to enable: back to the list.
    const again2 = await admin.get(`/dashboard/settings/members/${id}/enable`);
    expect(again2.status).toBe(303);
    expect(again2.location).toBe('/dashboard/settings/members');
  });

  it('an invitation answers the same whether or not the address has an account elsewhere, and never touches that account', async () => {
    const boss = WebClient.of(t.server);
    await boss.signIn('boss@other.example', 'other admin password 2');
    const invite = async (email: string) => {
      await boss.get('/dashboard/settings/members');
      const r = await boss.post('/dashboard/settings/members', { email, role: 'admin' });
      const otp = /<code class="secret" id="otp">([^<]+)<\/code>/.exec(r.text)?.[1] ?? '';
      const notice = /<div class="notice"[\s\S]*?<\/div>/.exec(r.text)?.[0] ?? '';
      const shape = notice
        .split(email)
        .join('EMAIL')
        .replace(otp, 'OTP')
        .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/g, 'DATE');
      return { status: r.status, otp, shape };
    };
    const elsewhere = await invite('admin@example.com'); // a demo admin
    const nowhere = await invite('nobody-yet@example.com');
    expect(elsewhere.status).toBe(201);
    expect(nowhere.status).toBe(201);
    expect(elsewhere.shape).toBe(nowhere.shape);
    expect(elsewhere.otp).toMatch(/^[A-Za-z0-9]{20}$/);
    // The demo admin is untouched: same workspace, same role, same password; the invitation signs nobody in as them.
    const demoAdmin = (await accounts.listUsers('demo')).find((u) => u.email === 'admin@example.com')!;
    expect(demoAdmin.role).toBe('admin');
    const stranger = WebClient.of(t.server);
    await stranger.get('/signin');
    expect((await stranger.post('/signin', { email: 'admin@example.com', password: elsewhere.otp })).status).toBe(401);
    await WebClient.of(t.server).signIn('admin@example.com', NEW_PASSWORD);
    // Nothing was pre-registered: no account exists for the new address until its owner signs in,
    // and the demo workspace can still invite (and get) it.
    expect((await accounts.listUsers('other')).map((u) => u.email)).not.toContain('nobody-yet@example.com');
    const demo = WebClient.of(t.server);
    await demo.signIn('admin@example.com', NEW_PASSWORD);
    await demo.get('/dashboard/settings/members');
    const ours = await demo.post('/dashboard/settings/members', { email: 'nobody-yet@example.com', role: 'member' });
    expect(ours.status).toBe(201);
    const ourOtp = /<code class="secret" id="otp">([^<]+)<\/code>/.exec(ours.text)![1];
    const person = WebClient.of(t.server);
    await person.signIn('nobody-yet@example.com', ourOtp, 'my very own password');
    expect((await accounts.listUsers('demo')).map((u) => u.email)).toContain('nobody-yet@example.com');
  });

  it('puts Sign out in the header of every page a signed-in user sees, error pages included, and it works from there', async () => {
    const c = WebClient.of(t.server);
    await c.signIn('admin@example.com', NEW_PASSWORD);
    /** The header's Sign out form and its CSRF token. */
    const headerSignOut = (text: string) =>
      /<header class="site">[\s\S]*<form class="signout" method="post" action="\/signout"><input type="hidden" name="_csrf" value="([^"]+)"><button class="secondary" type="submit">Sign out<\/button><\/form>[\s\S]*<\/header>/.exec(
        text,
      )?.[1];
    const pages: Array<[string, number]> = [
      ['/', 200],
      ['/dashboard', 200],
      ['/dashboard/settings/api-keys', 200],
      ['/account/password', 200],
      ['/pdf/rotate-pages', 200],
      ['/scan', 200],
      ['/dashboard/answers?limit=0', 400],
      ['/dashboard/settings/api-keys/00000000-0000-0000-0000-000000000000/revoke', 404],
      ['/no/such/page', 404],
    ];
    for (const [path, status] of pages) {
      const r = await c.get(path);
      expect({ path, status: r.status, signOut: headerSignOut(r.text) !== undefined }).toEqual({
        path,
        status,
        signOut: true,
      });
      expect(r.text.match(/action="\/signout"/g)).toHaveLength(1); // in the header only
    }
    // A member's 403 page and a refused CSRF token (403) carry it too.
    const member = WebClient.of(t.server);
    await member.signIn('member@example.com', 'member password 123');
    const forbidden = await member.get('/dashboard/settings/api-keys/00000000-0000-0000-0000-000000000000/revoke');
    expect(forbidden.status).toBe(403);
    expect(headerSignOut(forbidden.text)).toBeDefined();
    await member.get('/dashboard/settings/api-keys');
    const csrf = await member.request('POST', '/dashboard/settings/members', {
      form: { _csrf: 'forged.token', email: 'x@example.com' },
    });
    expect(csrf.status).toBe(403);
    expect(headerSignOut(csrf.text)).toBeDefined();
    // Signing out from the header of an error page ends the session.
    const notFound = await c.get('/no/such/page');
    const out = await c.request('POST', '/signout', { form: { _csrf: headerSignOut(notFound.text)! } });
    expect([out.status, out.location]).toEqual([303, '/signin?signed_out=1']);
    expect((await c.get('/dashboard')).status).toBe(303);
    // Visitors get Sign in, not Sign out.
    expect(headerSignOut((await WebClient.of(t.server).get('/no/such/page')).text)).toBeUndefined();
  });

  it('serves the icon the pages link to, and /favicon.ico', async () => {
    const c = WebClient.of(t.server);
    const home = await c.get('/');
    const href = /<link rel="icon" href="(\/assets\/favicon-[0-9a-f]{12}\.svg)" type="image\/svg\+xml">/.exec(
      home.text,
    )?.[1];
    expect(href).toBeDefined();
    const icon = await fetch(`${c.origin}${href}`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    const svg = await icon.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).not.toMatch(/<script|on\w+=/i);
    const ico = await fetch(`${c.origin}/favicon.ico`);
    expect([ico.status, ico.headers.get('content-type'), await ico.text()]).toEqual([200, 'image/svg+xml', svg]);
  });

  it('answers unknown pages with a 404 page, and keeps JSON for the API', async () => {
    const c = WebClient.of(t.server);
    const page = await c.get('/no/such/page');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('Page not found');
    const api = await fetch(`${c.origin}/api/v1/nope`, { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect(((await api.json()) as { ok: boolean }).ok).toBe(false);
  });

  it('admin CLI: user:create prints a one-time password, user:list, user:disable', async () => {
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
    const env = {
      ...process.env,
      ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}),
      REDIS_URL: t.config.REDIS_URL,
      REDIS_KEY_PREFIX: t.config.REDIS_KEY_PREFIX,
      LOG_LEVEL: 'silent',
    };
    if (!t.config.DATABASE_URL) return; // the embedded database of a test app is in memory: no second process can open it
    expect(await runCli(['user:create', 'demo', 'cli@example.com', '--role', 'admin', '--json'], env, io)).toBe(0);
    const created = JSON.parse(out.pop()!) as { email: string; role: string; one_time_password: string };
    expect(created).toMatchObject({ email: 'cli@example.com', role: 'admin' });
    expect(created.one_time_password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(await runCli(['user:create', 'demo', 'cli@example.com'], env, io)).toBe(1);
    expect(out.pop()).toContain('already exists');
    expect(await runCli(['user:create', 'demo', 'x@example.com', '--role', 'owner'], env, io)).toBe(1);
    expect(await runCli(['user:list', 'demo'], env, io)).toBe(0);
    expect(out.pop()).toMatch(/cli@example\.com\s+admin\s+must change password/);
    const c = WebClient.of(t.server);
    await c.signIn('cli@example.com', created.one_time_password, 'cli user password');
    expect((await c.get('/dashboard')).status).toBe(200);
    expect(await runCli(['user:disable', 'cli@example.com', '--json'], env, io)).toBe(0);
    expect(JSON.parse(out.pop()!)).toMatchObject({ disabled: true });
    expect((await c.get('/dashboard')).status).toBe(303);
  });
});

/** The same sign-in, lockout and session rules on the PostgreSQL stores (no Redis configured). */
describe('Website accounts without Redis (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_URL: '', LOGIN_MAX_FAILURES: '2', LOGIN_LOCKOUT_S: '60' } });
    await t.createKey('solo');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('keeps sessions and lockouts in PostgreSQL', async () => {
    expect(t.config.REDIS_URL).toBeUndefined();
    const accounts = t.app.get(AccountsService);
    const otp = (await accounts.createUser('solo', 'pg@example.com', 'admin')).one_time_password;
    const c = WebClient.of(t.server);
    await c.signIn('pg@example.com', otp, NEW_PASSWORD);
    expect((await c.get('/dashboard')).status).toBe(200);
    const [{ n }] = await t.dataSource.query<Array<{ n: number }>>('SELECT count(*)::int AS n FROM web_sessions');
    expect(n).toBe(1);
    await c.post('/signout');
    expect((await c.get('/dashboard')).status).toBe(303);
    const x = WebClient.of(t.server);
    await x.get('/signin');
    expect((await x.post('/signin', { email: 'pg@example.com', password: 'wrong password' })).status).toBe(401);
    const locked = await x.post('/signin', { email: 'pg@example.com', password: 'wrong password' });
    expect(locked.status).toBe(429);
    // Locked even with the right password until the lock ends.
    expect((await x.post('/signin', { email: 'pg@example.com', password: NEW_PASSWORD })).status).toBe(429);
    await t.dataSource.query(`UPDATE web_login_throttle SET locked_until = now() - interval '1 second'`);
    expect((await x.post('/signin', { email: 'pg@example.com', password: NEW_PASSWORD })).status).toBe(303);
  });
});
