import { Webhook } from 'standardwebhooks';
import { AccountsService } from '../../src/accounts/accounts.service';
import { AlertsService } from '../../src/common/notify/alerts.service';
import { ReceivedRequest, startReceiver, TestReceiver } from '../utils/receiver';
import { createTestApp, TestApp } from '../utils/test-app';
import { signedInUser } from '../utils/web-users';
import { WebClient } from '../web/web-client';

/** Settings > Alerts over HTTP: admins set destinations up (secret shown once), members read; a test alert arrives signed. */
describe('Settings > Alerts page (e2e)', () => {
  let t: TestApp;
  let receiver: TestReceiver;
  let hookUrl: string;
  const received: ReceivedRequest[] = [];
  let admin: WebClient;
  let member: WebClient;

  beforeAll(async () => {
    receiver = await startReceiver((r) => received.push(r));
    hookUrl = `${receiver.origin}/beacon`;
    t = await createTestApp({ env: { SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true', ALERT_RETRY_BACKOFF_MS: '50' } });
    await t.createKey('alerting');
    admin = (await signedInUser(t, 'alerting', 'alert-admin@example.com', 'admin')).client;
    member = (await signedInUser(t, 'alerting', 'alert-member@example.com', 'member')).client;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('adds a webhook, shows its secret once, sends a signed test alert and logs it', async () => {
    const empty = await admin.get('/dashboard/settings/alerts');
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('No destination yet');
    expect(empty.text).toContain('SMTP_URL'); // mail is off here: the page says which setting enables it
    const refused = await admin.post('/dashboard/settings/alerts/webhooks', { url: 'http://10.1.2.3/hook' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/error-summary[\s\S]*href="#url"[\s\S]*10\.1\.2\.3 is not on the public internet/);
    await admin.get('/dashboard/settings/alerts');
    const added = await admin.post('/dashboard/settings/alerts/webhooks', { url: hookUrl });
    expect(added.status).toBe(303);
    expect(added.location).toBe('/dashboard/settings/alerts?created=1');
    const shown = await admin.get(added.location!);
    const secret = /<code class="secret" id="new-secret">([^<]+)<\/code>/.exec(shown.text)![1];
    expect(secret).toMatch(/^whsec_/);
    expect((await admin.get(added.location!)).text).not.toContain(secret); // once only
    const tested = await admin.post('/dashboard/settings/alerts/test');
    expect(tested.location).toBe('/dashboard/settings/alerts?notice=test-sent');
    const end = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const payload = new Webhook(secret).verify(received[0].body, received[0].headers as Record<string, string>) as {
      type: string;
      data: { text: string };
    };
    expect(payload.type).toBe('test');
    expect(payload.data.text).toContain('alert-admin@example.com sent this test alert');
    const ws = (await t.app.get(AccountsService).listUsers('alerting'))[0].workspace_id;
    while ((await t.app.get(AlertsService).deliveries(ws))[0]?.status !== 'delivered' && Date.now() < end)
      await new Promise((r) => setTimeout(r, 20));
    const log = await admin.get('/dashboard/settings/alerts');
    expect(log.text).toMatch(/Test alert from Beacon[\s\S]*delivered/);
    expect(log.text).not.toContain(secret);
  });

  it('lets members read but not change', async () => {
    const page = await member.get('/dashboard/settings/alerts');
    expect(page.status).toBe(200);
    expect(page.text).toContain(hookUrl);
    expect(page.text).not.toContain('action="/dashboard/settings/alerts/webhooks"');
    expect((await member.post('/dashboard/settings/alerts/webhooks', { url: 'https://example.com/x' })).status).toBe(
      403,
    );
    const id = (
      await t.app
        .get(AlertsService)
        .destinations((await t.app.get(AccountsService).listUsers('alerting'))[0].workspace_id)
    )[0].id;
    await member.get('/dashboard/settings/alerts');
    expect((await member.post(`/dashboard/settings/alerts/${id}/remove`)).status).toBe(403);
    await admin.get('/dashboard/settings/alerts');
    expect((await admin.post(`/dashboard/settings/alerts/${id}/remove`)).location).toBe(
      '/dashboard/settings/alerts?notice=removed',
    );
    expect((await admin.get('/dashboard/settings/alerts?notice=removed')).text).toContain('The destination is removed');
  });
});
