import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { CoreModule } from '../../src/common/core.module';
import { JobQueues } from '../../src/common/jobs/job-queues';
import { AlertsService, DeliveryView, WEBHOOK_SECRET_PURPOSE } from '../../src/common/notify/alerts.service';
import { SecretBoxError, SecretBoxService } from '../../src/common/secrets/secret-box';
import { startSmtp, TestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A webhook receiver on loopback: /ok answers 204, /fail 500, /slow never answers. */
async function startReceiver(): Promise<{ base: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url?.startsWith('/ok')) res.writeHead(204).end();
      else if (req.url?.startsWith('/fail')) res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
      // /slow: no answer
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('Alerts: signed webhooks and e-mail, retried and logged', () => {
  let t: TestApp;
  let alerts: AlertsService;
  let smtp: TestSmtp;
  let hooks: Awaited<ReturnType<typeof startReceiver>>;
  let n = 0;

  beforeAll(async () => {
    smtp = await startSmtp();
    hooks = await startReceiver();
    t = await createTestApp({
      module: (o) => CoreModule.forRoot(o),
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Beacon alerts <alerts@beacon.test>',
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
        WEBHOOK_TIMEOUT_MS: '300',
        ALERT_RETRY_BACKOFF_MS: '50',
        ALERT_MAX_ATTEMPTS: '3',
      },
    });
    alerts = t.app.get(AlertsService);
  });
  afterAll(async () => {
    const jobs = t?.app.get(JobQueues);
    await t?.close();
    await expect(jobs?.add('wiring', {})).rejects.toThrow(/closed/); // closed with the app
    await smtp?.close();
    hooks?.server.closeAllConnections();
    await new Promise((r) => hooks?.server.close(r));
  });

  async function workspace(): Promise<string> {
    const { workspace: slug } = await t.createKey(`alerts-${process.pid}-${++n}`);
    const rows = await t.dataSource.query<{ id: string }[]>('SELECT id FROM workspaces WHERE slug = $1', [slug]);
    return rows[0].id;
  }

  const finished = (ws: string, count = 1) =>
    until(async () => {
      const log = await alerts.deliveries(ws);
      return log.length >= count && log.every((d) => d.status === 'delivered' || d.status === 'failed')
        ? log
        : undefined;
    });

  it('gets JobQueues from CoreModule (BullMQ with REDIS_URL), which runs jobs', async () => {
    const jobs = t.app.get(JobQueues);
    expect(jobs.kind).toBe(process.env.REDIS_URL ? 'bullmq' : 'in-process');
    const got: unknown[] = [];
    jobs.register<{ hello: string }>('wiring', async (data) => {
      got.push(data);
    });
    await jobs.add('wiring', { hello: 'world' });
    await until(async () => (got.length ? got : undefined));
    expect(got).toEqual([{ hello: 'world' }]);
  });

  it('delivers a webhook whose Standard Webhooks signature verifies, and logs it', async () => {
    const ws = await workspace();
    const { secret, destination } = await alerts.addWebhook(ws, `${hooks.base}/ok/1`);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(destination.target).toBe(`${hooks.base}/ok/1`);
    // Stored sealed by the shared SecretBox, bound to the workspace.
    const [{ secret_sealed: sealed }] = await t.dataSource.query<{ secret_sealed: string }[]>(
      'SELECT secret_sealed FROM alert_destinations WHERE id = $1',
      [destination.id],
    );
    expect(sealed).not.toContain(secret.slice(6, 20));
    const box = await t.app.get(SecretBoxService).box(WEBHOOK_SECRET_PURPOSE);
    expect(box.open(sealed, ws)).toBe(secret);
    expect(() => box.open(sealed, 'another-workspace')).toThrow(SecretBoxError);
    await alerts.send(ws, {
      kind: 'visibility.mention_rate_drop',
      title: 'Mention rate fell',
      text: 'From 40 % to 20 %.',
      data: { from: 0.4, to: 0.2 },
    });
    const [log] = await finished(ws);
    expect(log).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status: 204,
      last_error: null,
      alert_kind: 'visibility.mention_rate_drop',
    });
    const got = hooks.received.find((r) => r.path === '/ok/1')!;
    const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
    expect(verified).toEqual({
      type: 'visibility.mention_rate_drop',
      timestamp: expect.any(String),
      data: {
        workspace_id: ws,
        title: 'Mention rate fell',
        text: 'From 40 % to 20 %.',
        details: { from: 0.4, to: 0.2 },
      },
    });
    expect(got.headers['webhook-id']).toBe(log.message_id);
    // Another secret does not verify it.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(
        got.body,
        got.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  it('retries a 500 with backoff, the same webhook-id each time, then logs the failure', async () => {
    const ws = await workspace();
    await alerts.addWebhook(ws, `${hooks.base}/fail/2`);
    await alerts.send(ws, { kind: 'test', title: 'T', text: 'x', data: {} });
    const [log] = await finished(ws);
    expect(log).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_status: 500,
      last_error: 'The endpoint answered HTTP 500.',
    });
    const tries = hooks.received.filter((r) => r.path === '/fail/2');
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.headers['webhook-id']))).toEqual(new Set([log.message_id]));
  });

  it('gives up on an endpoint that does not answer within WEBHOOK_TIMEOUT_MS, and send() does not wait for it', async () => {
    const ws = await workspace();
    await alerts.addWebhook(ws, `${hooks.base}/slow/3`);
    const t0 = Date.now();
    await alerts.send(ws, { kind: 'test', title: 'T', text: 'x', data: {} });
    expect(Date.now() - t0).toBeLessThan(300); // queued, not delivered inline
    const [log] = await finished(ws);
    expect(log).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_status: null,
      last_error: 'No answer within 300 ms.',
    });
  });

  it('refuses private addresses when added, and at delivery time (no retry)', async () => {
    const ws = await workspace();
    for (const url of ['http://10.0.0.7/hook', 'http://169.254.169.254/latest', 'http://[fd00::1]/x']) {
      await expect(alerts.addWebhook(ws, url)).rejects.toMatchObject({
        code: 'bad_request',
        details: { field: 'url' },
      });
    }
    await expect(alerts.addWebhook(ws, 'ftp://example.com/')).rejects.toThrow(/Only http and https/);
    expect(await alerts.destinations(ws)).toEqual([]);
    // A destination that became private (as if its DNS changed after it was added): refused once, not retried.
    const { destination } = await alerts.addWebhook(ws, `${hooks.base}/ok/4`);
    await t.dataSource.query(`UPDATE alert_destinations SET target = 'http://192.168.1.20/hook' WHERE id = $1`, [
      destination.id,
    ]);
    await alerts.send(ws, { kind: 'test', title: 'T', text: 'x', data: {} });
    const [log] = await finished(ws);
    expect(log.status).toBe('failed');
    expect(log.attempts).toBe(1);
    expect(log.last_error).toMatch(/^Refused: 192\.168\.1\.20 is not on the public internet/);
  });

  it('sends an e-mail alert received by the SMTP server; send() never throws', async () => {
    const ws = await workspace();
    await alerts.addEmail(ws, 'owner@example.com');
    await expect(alerts.addEmail(ws, 'not an address')).rejects.toMatchObject({ details: { field: 'email' } });
    await alerts.send(ws, {
      kind: 'visibility.competitor_ahead',
      title: 'Acme is ahead',
      text: 'Acme passed you on ChatGPT.',
      data: { competitor: 'Acme' },
    });
    const mail = await smtp.waitFor((m) => m.subject === '[Beacon] Acme is ahead');
    expect(mail.from?.value[0]).toMatchObject({ name: 'Beacon alerts', address: 'alerts@beacon.test' });
    expect(mail.text).toContain('Acme passed you on ChatGPT.');
    expect(mail.text).toContain('"competitor": "Acme"');
    const log: DeliveryView[] = await finished(ws);
    expect(log[0]).toMatchObject({ kind: 'email', target: 'owner@example.com', status: 'delivered', attempts: 1 });
    // Bad input never reaches the caller as an exception.
    await expect(alerts.send('not-a-uuid', { kind: 'x', title: 'x', text: 'x', data: {} })).resolves.toBeUndefined();
  });
});
