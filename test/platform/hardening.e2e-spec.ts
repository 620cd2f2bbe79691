import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { AccountsService } from '../../src/accounts/accounts.service';
import { ConfigError, loadConfig } from '../../src/common/config/env';
import { FORM_FIELD_LIMIT, TOO_MANY_FIELDS_MESSAGE } from '../../src/common/http/form-limits';
import { HSTS_VALUE } from '../../src/common/http/transport-security';
import { WebClient, WebResponse } from '../web/web-client';
import { createTestApp, METRICS_AUTH, TestApp } from '../utils/test-app';

/**
 * Platform hardening on the full application: form bodies with thousands of fields, who may read
 * /metrics, and https behind a TLS-terminating proxy (HSTS, `__Host-` cookies, Secure).
 */
const NEW_PASSWORD = 'correct horse battery staple';

/** A browser behind a TLS-terminating proxy on loopback: every request says X-Forwarded-Proto: https. */
class ProxiedClient extends WebClient {
  override request(method: string, path: string, o: Parameters<WebClient['request']>[2] = {}): Promise<WebResponse> {
    return super.request(method, path, { ...o, headers: { 'x-forwarded-proto': 'https', ...o?.headers } });
  }
}

const origin = (t: TestApp): string => `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
const setCookie = (r: WebResponse, name: string): string | undefined =>
  r.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
const fields = (n: number): string =>
  new URLSearchParams(Array.from({ length: n }, (_, i): [string, string] => [`f${i}`, 'x'])).toString();

/** A user of a workspace of `t` who has already chosen a password; returns the e-mail. */
async function user(t: TestApp, email: string): Promise<{ email: string; otp: string }> {
  const { workspace } = await t.createKey();
  const created = await t.app.get(AccountsService).createUser(workspace, email, 'admin');
  return { email, otp: created.one_time_password };
}

describe('Platform hardening (e2e)', () => {
  let plain: TestApp; // defaults: plain http on loopback, no proxy trusted, no metrics token
  let proxied: TestApp; // behind a TLS proxy, public address https
  let trusted: TestApp; // behind a trusted proxy, public address not set (http://localhost)
  // Three full applications: about 10 s alone, several minutes on two cores at load 10-14.
  beforeAll(async () => {
    plain = await createTestApp({ env: { METRICS_TOKEN: '' } });
    proxied = await createTestApp({ env: { TRUST_PROXY: 'loopback', PUBLIC_BASE_URL: 'https://beacon.test' } });
    trusted = await createTestApp({ env: { TRUST_PROXY: 'loopback' } });
  }, 600_000);
  afterAll(async () => {
    await plain?.close();
    await proxied?.close();
    await trusted?.close();
  }, 300_000);

  describe('a form with too many fields', () => {
    let errors: jest.SpyInstance;
    beforeEach(() => {
      errors = jest.spyOn(Logger.prototype, 'error');
    });
    afterEach(() => errors.mockRestore());

    const post = (
      path: string,
      accept: string,
      body: string,
      type = 'application/x-www-form-urlencoded',
    ): Promise<Response> =>
      fetch(`${origin(plain)}${path}`, { method: 'POST', headers: { accept, 'content-type': type }, body });

    it("on a website form: 413 and the site's error page in words, nothing logged as an error", async () => {
      const res = await post('/signin', 'text/html', fields(2000));
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await res.text();
      expect(page).toContain('<h1>Too large</h1>');
      expect(page).toContain(TOO_MANY_FIELDS_MESSAGE);
      expect(page).toContain('payload_too_large');
      expect(page).not.toMatch(/too many parameters|at .*\.(js|ts):\d+/);
      expect(errors).not.toHaveBeenCalled();
    });

    it('on an API route: 413 payload_too_large in the JSON error shape, nothing logged as an error', async () => {
      const res = await post('/api/scan', 'application/json', fields(2000));
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        ok: false,
        error: 'payload_too_large',
        message: TOO_MANY_FIELDS_MESSAGE,
        limit: FORM_FIELD_LIMIT,
      });
      // The PDF upload's multipart form: more parts than an upload has is 413 too.
      const boundary = 'b0undary';
      const parts = Array.from(
        { length: 2000 },
        (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`,
      ).join('');
      const upload = await post(
        '/files',
        'application/json',
        `${parts}--${boundary}--\r\n`,
        `multipart/form-data; boundary=${boundary}`,
      );
      expect(upload.status).toBe(413);
      expect(await upload.json()).toMatchObject({ ok: false, error: 'payload_too_large' });
      expect(errors).not.toHaveBeenCalled();
    });

    it('a form at the limit is still read (the sign-in form then asks for its security token)', async () => {
      const res = await post('/signin', 'text/html', fields(FORM_FIELD_LIMIT));
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('security token');
    });
  });

  describe('GET /metrics', () => {
    it('is not served without METRICS_TOKEN (the default)', async () => {
      for (const headers of [{}, METRICS_AUTH]) {
        const res = await fetch(`${origin(plain)}/metrics`, { headers });
        expect(res.status).toBe(404);
        expect(await res.text()).not.toContain('http_requests_total');
      }
    });

    it('answers only the bearer token when METRICS_TOKEN is set', async () => {
      const none = await fetch(`${origin(proxied)}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await none.json()).toMatchObject({ ok: false, error: 'unauthorized' });
      const wrong = await fetch(`${origin(proxied)}/metrics`, {
        headers: { Authorization: 'Bearer not-the-metrics-token' },
      });
      expect(wrong.status).toBe(401);
      const right = await fetch(`${origin(proxied)}/metrics`, { headers: METRICS_AUTH });
      expect(right.status).toBe(200);
      expect(await right.text()).toContain('http_requests_total');
    });

    it('a short METRICS_TOKEN is refused at start-up without printing it', () => {
      expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(ConfigError);
      expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(
        /METRICS_TOKEN=\(hidden\): METRICS_TOKEN must be at least 16 characters/,
      );
    });
  });

  describe('https behind a TLS-terminating proxy', () => {
    it('public address https: HSTS on every answer, __Host- cookies with Secure, and sign-in works', async () => {
      const { email, otp } = await user(proxied, 'tls@example.com');
      const c = new ProxiedClient(origin(proxied));
      const form = await c.get('/signin');
      expect(form.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
      for (const name of ['__Host-beacon_device', '__Host-beacon_csrf']) {
        const cookie = setCookie(form, name);
        expect(cookie).toMatch(/; Path=\/(;|$)/);
        expect(cookie).toMatch(/; Secure(;|$)/);
        expect(cookie).toMatch(/; HttpOnly(;|$)/);
        expect(cookie).not.toMatch(/Domain=/i);
      }
      expect(form.headers.getSetCookie().filter((x) => x.startsWith('beacon_'))).toEqual([]);
      const signedIn = await c.post('/signin', { email, password: otp });
      expect(signedIn.status).toBe(303);
      expect(setCookie(signedIn, '__Host-beacon_session')).toMatch(
        /; Path=\/; Expires=.*; HttpOnly; Secure; SameSite=Lax$/,
      );
      expect(setCookie(signedIn, '__Secure-beacon_otp_proof')).toMatch(
        /; Path=\/account\/password; .*HttpOnly; Secure; SameSite=Strict$/,
      );
      await c.get('/account/password');
      const changed = await c.post('/account/password', { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
      expect(changed.status).toBe(303);
      const dash = await c.get('/dashboard');
      expect(dash.status).toBe(200);
      expect(dash.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
      // The JSON services too.
      expect((await fetch(`${origin(proxied)}/healthz`)).headers.get('strict-transport-security')).toBe(HSTS_VALUE);
      // Over https a cookie without the prefix (one a sibling subdomain could set) is not a session.
      const tossed = new ProxiedClient(origin(proxied));
      tossed.cookies.set('beacon_session', c.cookies.get('__Host-beacon_session')!);
      expect((await tossed.get('/dashboard')).location).toBe('/signin?next=%2Fdashboard');
    });

    it('https seen through a trusted proxy (X-Forwarded-Proto): __Host- cookies with Secure; no HSTS while the public address is http', async () => {
      const c = new ProxiedClient(origin(trusted));
      const form = await c.get('/signin');
      expect(form.headers.get('strict-transport-security')).toBeNull();
      expect(setCookie(form, '__Host-beacon_csrf')).toMatch(/; Secure(;|$)/);
      expect(setCookie(form, '__Host-beacon_device')).toMatch(/; Secure(;|$)/);
    });

    it('plain http on localhost keeps bare names without Secure, no HSTS, and sign-in works; an untrusted X-Forwarded-Proto changes nothing', async () => {
      for (const t of [trusted, plain]) {
        const { email, otp } = await user(t, `plain-${t === plain ? 'a' : 'b'}@example.com`);
        const c = new WebClient(origin(t));
        const form = await c.get('/signin');
        expect(form.headers.get('strict-transport-security')).toBeNull();
        expect(setCookie(form, 'beacon_csrf')).not.toMatch(/Secure/i);
        const r = await c.signIn(email, otp, NEW_PASSWORD);
        expect(r.status).toBe(303);
        expect(c.cookies.has('beacon_session')).toBe(true);
        expect((await c.get('/dashboard')).status).toBe(200);
      }
      // No proxy is trusted: the header is anyone's, so the request stays plain http.
      const spoofed = await new ProxiedClient(origin(plain)).get('/signin');
      expect(spoofed.headers.get('strict-transport-security')).toBeNull();
      expect(setCookie(spoofed, 'beacon_csrf')).not.toMatch(/Secure/i);
      expect(spoofed.headers.getSetCookie().some((x) => x.startsWith('__Host-'))).toBe(false);
    });
  });
});
