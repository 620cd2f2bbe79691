import type { Counter } from 'prom-client';
import { AccountsService } from '../../src/accounts/accounts.service';
import { MetricsService } from '../../src/common/metrics/metrics.service';
import { RedisService } from '../../src/common/redis/redis.service';
import { SESSION_COOKIE } from '../../src/web/web-context';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebClient, WebResponse } from './web-client';

const PASSWORD = 'the right password 42';

/** A browser on its own IP (the app trusts one proxy hop, X-Forwarded-For names the client). */
class IpClient extends WebClient {
  constructor(
    origin: string,
    readonly ip: string,
  ) {
    super(origin);
  }

  static on(t: TestApp, ip: string): IpClient {
    return new IpClient(WebClient.of(t.server).origin, ip);
  }

  override request(method: string, path: string, o: Parameters<WebClient['request']>[2] = {}): Promise<WebResponse> {
    return super.request(method, path, { ...o, headers: { 'x-forwarded-for': this.ip, ...o?.headers } });
  }

  /**
   * Sends these forms at once (each its own connection), with the cookies and CSRF token of the
   * current page, as a script would; cookies set by the answers are not kept.
   */
  async burst(path: string, forms: Array<Record<string, string>>): Promise<number[]> {
    const headers = {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      cookie: this.cookieHeader(),
      'x-forwarded-for': this.ip,
    };
    const token = this.csrf();
    return Promise.all(
      forms.map(async (form) => {
        const r = await fetch(this.origin + path, {
          method: 'POST',
          headers,
          body: new URLSearchParams({ _csrf: token, ...form }).toString(),
          redirect: 'manual',
        });
        await r.text();
        return r.status;
      }),
    );
  }
}

/** Password attempts so far by outcome (the app's own metric). */
async function checks(t: TestApp): Promise<{ right: number; wrong: number; refused: number }> {
  const metric = t.app.get(MetricsService).registry.getSingleMetric('web_password_checks_total') as Counter<'outcome'>;
  const values = (await metric.get()).values;
  const of = (o: string) => values.find((v) => v.labels.outcome === o)?.value ?? 0;
  return { right: of('right'), wrong: of('wrong'), refused: of('refused') };
}

/** Waits for a condition, polling (no fixed sleeps). */
async function until(cond: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never happened: ${what}`);
}

/** Ends every lock of the app's sign-in subjects now (as if their time had passed). */
async function endLocks(t: TestApp): Promise<void> {
  if (!t.config.REDIS_URL) {
    await t.dataSource.query(
      `UPDATE web_login_throttle SET locked_until = now() - interval '1 second' WHERE locked_until IS NOT NULL`,
    );
    return;
  }
  const redis = t.app.get(RedisService).required();
  const keys = await redis.keys(`${t.config.REDIS_KEY_PREFIX}login-throttle:*`);
  for (const k of keys) if (Number(await redis.hget(k, 'l')) > 0) await redis.hset(k, 'l', '1');
}

async function member(t: TestApp, email: string): Promise<void> {
  const otp = (await t.app.get(AccountsService).createUser('limits', email, 'admin')).one_time_password;
  await IpClient.on(t, '192.0.2.250').signIn(email, otp, PASSWORD);
}

for (const store of ['Redis', 'PostgreSQL'] as const) {
  describe(`Sign-in limits on the ${store} store (e2e)`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        env: {
          ...(store === 'PostgreSQL' ? { REDIS_URL: '' } : {}),
          TRUST_PROXY: '1',
          LOGIN_MAX_FAILURES: '5',
          LOGIN_IP_MAX_FAILURES: '1000',
          LOGIN_ACCOUNT_MAX_FAILURES: '1000',
          LOGIN_LOCKOUT_S: '600',
        },
      });
      expect(Boolean(t.config.REDIS_URL)).toBe(store === 'Redis');
      await t.createKey('limits');
    }, 60_000);

    afterAll(async () => {
      await t?.close();
    });

    it('a burst of parallel wrong passwords verifies at most the limit; the right password inside it does not sign in', async () => {
      await member(t, 'burst@example.com');
      const before = await checks(t);
      const c = IpClient.on(t, '203.0.113.1');
      await c.get('/signin');
      const wrong = (i: number) => ({ email: 'burst@example.com', password: `wrong password ${i}` });
      // 20 wrong passwords at once; once the limit refuses one, 20 more with the right one among them.
      const first = c.burst(
        '/signin',
        Array.from({ length: 20 }, (_, i) => wrong(i)),
      );
      let settled = false;
      void first.then(() => (settled = true));
      await until(
        async () => settled || (await checks(t)).refused > before.refused,
        'a refusal or the end of the first burst',
      );
      const second = c.burst('/signin', [
        { email: 'burst@example.com', password: PASSWORD },
        ...Array.from({ length: 19 }, (_, i) => wrong(20 + i)),
      ]);
      const statuses = [...(await first), ...(await second)];
      const after = await checks(t);
      expect(after.right - before.right + (after.wrong - before.wrong)).toBeLessThanOrEqual(5);
      expect(after.refused - before.refused).toBeGreaterThanOrEqual(35);
      expect(statuses.filter((s) => s === 303)).toEqual([]);
      expect(new Set(statuses)).toEqual(new Set([401, 429]));
      // Still locked for this account from this IP, right password or not.
      await c.get('/signin');
      expect((await c.post('/signin', { email: 'burst@example.com', password: PASSWORD })).status).toBe(429);
    });

    it('locks an account per IP with a doubling delay: the real user elsewhere still signs in, sessions stay', async () => {
      await member(t, 'target@example.com');
      const user = IpClient.on(t, '198.51.100.7');
      await user.signIn('target@example.com', PASSWORD);
      const attacker = IpClient.on(t, '203.0.113.2');
      await attacker.get('/signin');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await attacker.post('/signin', { email: 'target@example.com', password: `guess ${i}` })).status);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      const firstLock = await attacker.post('/signin', { email: 'target@example.com', password: PASSWORD });
      expect(firstLock.status).toBe(429);
      const firstWait = Number(firstLock.headers.get('retry-after'));
      expect(firstWait).toBeGreaterThan(0);
      expect(firstWait).toBeLessThanOrEqual(600);
      // The signed-in session is untouched; the user signs in again from their own IP (another browser too).
      expect((await user.get('/dashboard')).status).toBe(200);
      const phone = IpClient.on(t, '198.51.100.7');
      await phone.signIn('target@example.com', PASSWORD);
      // The lock's time passes; five more wrong guesses lock the attacker twice as long.
      await endLocks(t);
      for (let i = 0; i < 5; i++)
        await attacker.post('/signin', { email: 'target@example.com', password: `guess again ${i}` });
      const secondLock = await attacker.post('/signin', { email: 'target@example.com', password: PASSWORD });
      expect(secondLock.status).toBe(429);
      expect(Number(secondLock.headers.get('retry-after'))).toBeGreaterThan(600);
      expect(secondLock.text).toMatch(/Try again in \d+ minutes/);
    });

    it('counts wrong current passwords on the password page with the sign-ins, in parallel too, and ends the session past the limit', async () => {
      await member(t, 'oracle@example.com');
      const c = IpClient.on(t, '203.0.113.3');
      await c.signIn('oracle@example.com', PASSWORD);
      await c.get('/account/password');
      const wrong = await c.post('/account/password', {
        current_password: 'not it at all',
        new_password: 'a brand new password',
        confirm_password: 'a brand new password',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('The current password is wrong.');
      const before = await checks(t);
      const statuses = await c.burst(
        '/account/password',
        Array.from({ length: 12 }, (_, i) => ({
          current_password: `guess ${i}`,
          new_password: 'a brand new password',
          confirm_password: 'a brand new password',
        })),
      );
      const after = await checks(t);
      // One slot was spent above: at most four more verifications.
      expect(after.right - before.right + (after.wrong - before.wrong)).toBeLessThanOrEqual(4);
      expect(statuses).toContain(429);
      // The session is over: the right password no longer changes anything from it.
      const gone = await c.get('/dashboard');
      expect(gone.status).toBe(303);
      const signIn = await c.get('/signin');
      expect(signIn.status).toBe(200);
      expect((await c.post('/signin', { email: 'oracle@example.com', password: PASSWORD })).status).toBe(429);
      // From the user's own IP the password is unchanged and works.
      await IpClient.on(t, '198.51.100.8').signIn('oracle@example.com', PASSWORD);
    });

    it('keeps a new API key for the one page after the redirect (the session flash in this store)', async () => {
      await member(t, 'flash@example.com');
      const c = IpClient.on(t, '198.51.100.9');
      await c.signIn('flash@example.com', PASSWORD);
      await c.get('/dashboard/settings/api-keys');
      const posted = await c.post('/dashboard/settings/api-keys', { label: 'flash key' });
      expect(posted.status).toBe(303);
      expect(posted.location).not.toMatch(/bcn_/);
      const shown = await c.get(posted.location!);
      expect(shown.text).toMatch(/id="new-key">bcn_/);
      const again = await c.get(posted.location!);
      expect(again.text).toContain('flash key');
      expect(again.text).not.toMatch(/id="new-key"/);
      if (!t.config.REDIS_URL) {
        const [row] = await t.dataSource.query<Array<{ n: number }>>(
          'SELECT count(*)::int AS n FROM web_sessions WHERE flash IS NOT NULL',
        );
        expect(row.n).toBe(0);
      }
    });

    it('says when the lockout ends on the password page and signs that browser out', async () => {
      await member(t, 'page@example.com');
      const c = IpClient.on(t, '203.0.113.4');
      await c.signIn('page@example.com', PASSWORD);
      let last: WebResponse | undefined;
      for (let i = 0; i < 5; i++) {
        await c.get('/account/password');
        last = await c.post('/account/password', {
          current_password: `guess ${i}`,
          new_password: 'a brand new password',
          confirm_password: 'a brand new password',
        });
      }
      expect(last!.status).toBe(429);
      expect(last!.text).toMatch(/Too many wrong passwords: you are signed out\. Sign in again in \d+ minutes/);
      expect(last!.headers.getSetCookie().some((s) => s.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
      expect((await c.get('/dashboard')).status).toBe(303);
    });
  });
}

describe('Sign-in limits per account from everywhere (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        TRUST_PROXY: '1',
        LOGIN_MAX_FAILURES: '3',
        LOGIN_IP_MAX_FAILURES: '1000',
        LOGIN_ACCOUNT_MAX_FAILURES: '6',
        LOGIN_LOCKOUT_S: '600',
      },
    });
    await t.createKey('limits');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('guesses from many IPs lock the account for unknown devices only: the real user on their known browser still signs in', async () => {
    await member(t, 'wanted@example.com');
    const known = IpClient.on(t, '198.51.100.20');
    await known.signIn('wanted@example.com', PASSWORD);
    await known.get('/dashboard');
    await known.post('/signout');
    for (let i = 0; i < 6; i++) {
      const bot = IpClient.on(t, `203.0.113.${100 + i}`);
      await bot.get('/signin');
      await bot.post('/signin', { email: 'wanted@example.com', password: `distributed guess ${i}` });
    }
    const stranger = IpClient.on(t, '203.0.113.200');
    await stranger.get('/signin');
    expect((await stranger.post('/signin', { email: 'wanted@example.com', password: PASSWORD })).status).toBe(429);
    // The same browser, now on another network: known to the account, it signs in.
    const travelling = new IpClient(known.origin, '192.0.2.77');
    for (const [k, v] of known.cookies) travelling.cookies.set(k, v);
    await travelling.signIn('wanted@example.com', PASSWORD);
    expect((await travelling.get('/dashboard')).status).toBe(200);
  });
});

describe('One-time passwords expire (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { ONE_TIME_PASSWORD_TTL_DAYS: '7' } });
    await t.createKey('limits');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('refuses a one-time password older than ONE_TIME_PASSWORD_TTL_DAYS and says to ask an admin; a wrong one still says nothing', async () => {
    const accounts = t.app.get(AccountsService);
    const otp = (await accounts.createUser('limits', 'late@example.com', 'member')).one_time_password;
    await t.dataSource.query(
      `UPDATE web_users SET one_time_password_at = now() - interval '8 days' WHERE email = 'late@example.com'`,
    );
    const c = WebClient.of(t.server);
    await c.get('/signin');
    const wrong = await c.post('/signin', { email: 'late@example.com', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong email or password.');
    const expired = await c.post('/signin', { email: 'late@example.com', password: otp });
    expect(expired.status).toBe(401);
    expect(expired.text).toContain(
      'This one-time password has expired: one-time passwords work for 7 days. Ask an admin of your workspace for a new one.',
    );
    expect(c.cookies.has(SESSION_COOKIE)).toBe(false);
    // Six days old: still fine.
    await t.dataSource.query(
      `UPDATE web_users SET one_time_password_at = now() - interval '6 days' WHERE email = 'late@example.com'`,
    );
    await c.signIn('late@example.com', otp, 'my own password 123');
    expect((await c.get('/dashboard')).status).toBe(200);
  });
});
