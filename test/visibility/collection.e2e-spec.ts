import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { AccountsService } from '../../src/accounts/accounts.service';
import { AlertsService } from '../../src/common/notify/alerts.service';
import { JobQueues } from '../../src/common/jobs/job-queues';
import { CollectService, SCHEDULE_QUEUE } from '../../src/visibility/collect/collect.service';
import { CollectStore } from '../../src/visibility/collect/collect.store';
import type { RunRow } from '../../src/visibility/collect/collect.types';
import { scanFile } from '../../src/visibility/collect/scan-file';
import { TrackingService } from '../../src/visibility/tracking/tracking.service';
import { VisibilityIngestService } from '../../src/visibility/visibility-ingest.service';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebClient } from '../web/web-client';
import { ChatCompletionsServer } from './collect-servers';

const PASSWORD = 'a long enough password';

/** Collection scans end to end (issue 22 item 3): set-up in the pages, Run now, answers, import, budgets, resume. */
describe('Collection scans (e2e)', () => {
  let t: TestApp;
  let platform: ChatCompletionsServer;
  let admin: WebClient;
  let workspaceId: string;
  let key: string;
  let otherKey: string;

  const waitDone = async (id: string): Promise<RunRow> => {
    const collect = t.app.get(CollectService);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = (await collect.run(workspaceId, id))!;
      if (r.status === 'done' || r.status === 'failed') return r;
      if (Date.now() > deadline) throw new Error(`scan ${id} still ${r.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const api = async (k: string, path: string) =>
    (await fetch(`${admin.origin}${path}`, { headers: { authorization: `Bearer ${k}` } })).json() as Promise<
      Record<string, unknown>
    >;

  beforeAll(async () => {
    platform = await ChatCompletionsServer.start();
    t = await createTestApp({
      env: {
        OPENAI_COMPATIBLE_BASE_URL: `${platform.url}/v1`,
        OPENAI_COMPATIBLE_MODEL: 'local-llama',
        OPENAI_COMPATIBLE_API_KEY: 'sk-local',
        AI_MAX_RETRIES: '0',
        SCAN_ALLOW_LOOPBACK_TARGETS_UNSAFE: 'true',
      },
    });
    key = (await t.createKey('collect')).key;
    otherKey = (await t.createKey('collect-import')).key;
    const a = await t.app.get(AccountsService).createUser('collect', 'collect-admin@example.com', 'admin');
    workspaceId = (
      await t.dataSource.query<Array<{ id: string }>>(`SELECT id FROM workspaces WHERE slug = 'collect'`)
    )[0].id;
    admin = WebClient.of(t.server);
    await admin.signIn(a.email, a.one_time_password, PASSWORD);
    platform.reply = (prompt) =>
      prompt.includes('startups')
        ? {
            text: 'Acme is the pick for startups; Globex is fine too.',
            citations: [{ url: 'https://acme.com/pricing', title: 'Acme pricing' }, { url: 'https://www.g2.com/crm' }],
          }
        : prompt.includes('pricing')
          ? { text: 'Globex has the best prices.', citations: [{ url: 'https://globex.com/' }] }
          : prompt.includes('agencies')
            ? { status: 500, message: 'The server had an error while processing your request.' }
            : { text: 'Nothing to say.' };
  }, 60_000);

  afterAll(async () => {
    platform?.release();
    await t?.close();
    await platform?.close();
  });

  it('explains why Run now cannot run until the set-up and a configured platform are there', async () => {
    let r = await admin.get('/dashboard/scans');
    expect(r.status).toBe(200);
    expect(r.text).toContain('A scan cannot run yet');
    expect(r.text).toContain('Set the brand under');
    expect(r.text).toContain('<code>OPENAI_API_KEY</code>');
    // Set up in the pages: brand, competitor, prompts, a platform that is not configured.
    await admin.get('/dashboard/tracking');
    expect(
      (
        await admin.post('/dashboard/tracking/brand', {
          business: 'Acme Inc',
          name: 'Acme',
          aliases: '',
          domains: 'acme.com',
        })
      ).status,
    ).toBe(303);
    await admin.get('/dashboard/tracking');
    expect(
      (await admin.post('/dashboard/tracking/competitors', { name: 'Globex', aliases: '', domains: 'globex.com' }))
        .status,
    ).toBe(303);
    await admin.get('/dashboard/tracking/prompts');
    for (const text of ['best crm for startups', 'crm pricing', 'crm for agencies']) {
      expect((await admin.post('/dashboard/tracking/prompts', { text, enabled: 'yes' })).status).toBe(303);
      await admin.get('/dashboard/tracking/prompts');
    }
    await admin.get('/dashboard/tracking');
    const scanSettings = (platforms: string, budget = '100') =>
      admin.request('POST', '/dashboard/tracking/scans', {
        form: {
          _csrf: admin.csrf(),
          platforms,
          samples: '2',
          schedule: 'manual',
          budget_calls: budget,
          budget_usd: '5',
        },
      });
    expect((await scanSettings('openai')).status).toBe(303);
    await admin.get('/dashboard/scans');
    r = await admin.post('/dashboard/scans/run');
    expect(r.status).toBe(409);
    expect(r.text).toContain('None of the chosen platforms is configured: OpenAI needs OPENAI_API_KEY.');
    await admin.get('/dashboard/tracking');
    expect((await scanSettings('openai_compatible')).status).toBe(303);
    r = await admin.get('/dashboard/scans');
    expect(r.text).toContain('Run now');
  });

  it('runs one scan for two clicks, shows its progress, stores answers with citations, surfaces and failures, and imports it', async () => {
    platform.hold();
    await admin.get('/dashboard/scans');
    const csrf = admin.csrf();
    const first = await admin.request('POST', '/dashboard/scans/run', { form: { _csrf: csrf } });
    expect(first.status).toBe(303);
    const second = await admin.request('POST', '/dashboard/scans/run', { form: { _csrf: csrf } });
    expect([second.status, second.location]).toEqual([303, '/dashboard/scans?already=1']);
    const id = first.location!.split('/').pop()!;
    const progress = await admin.get(`/dashboard/scans/${id}`);
    expect(progress.headers.get('refresh')).toBe('5');
    expect(progress.text).toMatch(/id="scan-progress" max="6"/);
    platform.release();
    const run = await waitDone(id);
    expect(run).toMatchObject({ status: 'done', planned: 6, asked: 6, failed: 2, stop_reason: null });
    const answers = await t.app.get(CollectService).answers(id, 0, 100);
    const startups = answers.filter((a) => a.prompt_key === 'p1');
    expect(startups).toHaveLength(2);
    expect(startups[0]).toMatchObject({ status: 'ok', surface: 'api_search', model: 'local-llama' });
    // A citation without a title is titled with its address.
    expect(startups[0].citations.map((c) => [c.url, c.title])).toEqual([
      ['https://acme.com/pricing', 'Acme pricing'],
      ['https://www.g2.com/crm', 'https://www.g2.com/crm'],
    ]);
    const failed = answers.filter((a) => a.status !== 'ok');
    expect(failed.map((a) => [a.prompt_key, a.status])).toEqual([
      ['p3', 'ai_unavailable'],
      ['p3', 'ai_unavailable'],
    ]);
    expect(failed[0].reason).toContain('HTTP 500');
    const page = await admin.get(`/dashboard/scans/${id}`);
    expect(page.headers.get('refresh')).toBeNull();
    expect(page.text).toContain('failed (ai_unavailable)');
    expect(page.text).toContain('API with web search');

    // The figures equal an import of the same answers.
    const setup = await t.app.get(CollectStore).setup(id);
    const imported = await t.app
      .get(VisibilityIngestService)
      .importScan('collect-import', scanFile(setup, { id: run.scan_key, date: run.date }, answers));
    expect({ ...run.result, workspace: '', duration_ms: 0 }).toEqual({ ...imported, workspace: '', duration_ms: 0 });
    const mine = await api(key, '/api/v1/visibility');
    const theirs = await api(otherKey, '/api/v1/visibility');
    expect(mine).toEqual(theirs);
    expect(mine).toMatchObject({ ok: true, platforms: ['openai_compatible'] });
    expect((mine.latest as { mention_rate: number }).mention_rate).toBe(50);
  }, 40_000);

  it('stops cleanly at the call budget and imports what it asked', async () => {
    await admin.get('/dashboard/tracking');
    await admin.request('POST', '/dashboard/tracking/scans', {
      form: {
        _csrf: admin.csrf(),
        platforms: 'openai_compatible',
        samples: '2',
        schedule: 'manual',
        budget_calls: '2',
        budget_usd: '5',
      },
    });
    const { run } = await t.app.get(CollectService).start(workspaceId, 'manual');
    const done = await waitDone(run.id);
    expect(done).toMatchObject({ status: 'done', asked: 2 });
    expect(done.stop_reason).toBe('Stopped at the budget of 2 calls: 4 calls not made.');
    expect(done.result!.answers.total).toBe(2);
    // The estimated cost budget: 19 + 10 tokens a call cost US$ 0.000124 at the estimate's prices.
    const reply = platform.reply;
    platform.reply = () => ({ text: 'Acme.' });
    await t.app.get(TrackingService).update(workspaceId, { budget_calls: 100, budget_usd: 0.0002 });
    const byCost = await waitDone((await t.app.get(CollectService).start(workspaceId, 'manual')).run.id);
    expect(byCost.status).toBe('done');
    expect(byCost.stop_reason).toMatch(
      /^Stopped at the budget of US\$ 0.0002 \(estimated US\$ 0.00 spent\): [1-4] calls not made.$/,
    );
    expect(byCost.asked).toBeGreaterThanOrEqual(2);
    await t.app.get(TrackingService).update(workspaceId, { budget_usd: 5 });
    platform.reply = reply;
  });

  it('resumes a scan a dead process left half-way, asking only what is missing, and imports it once', async () => {
    await t.app.get(TrackingService).update(workspaceId, { budget_calls: 100 });
    const collect = t.app.get(CollectService);
    const store = t.app.get(CollectStore);
    // What a process that died mid-scan leaves: a running run, one answer stored, a stale heartbeat, no job.
    const setup = {
      ...(await store.setup((await collect.runs(workspaceId))[0].id)),
      platforms: ['openai_compatible'],
      samples: 2,
    };
    const id = (await store.create({
      workspaceId,
      trigger: 'manual',
      setup,
      planned: 6,
      budgetCalls: 100,
      budgetUsd: 5,
      date: new Date().toISOString().slice(0, 10),
    }))!;
    await store.addAnswer(id, {
      prompt_key: 'p2',
      platform: 'openai_compatible',
      sample: 2,
      status: 'ok',
      model: 'earlier',
      surface: 'api',
      text: 'Globex, asked before the crash.',
      citations: [],
      search_queries: [],
      input_tokens: 1,
      output_tokens: 1,
      cost_usd: 0,
      reason: null,
    });
    await t.dataSource.query(
      `UPDATE vis_collect_runs SET status = 'running', heartbeat_at = now() - interval '5 minutes' WHERE id = $1`,
      [id],
    );
    // A second Run now meanwhile does not start another scan.
    expect((await collect.start(workspaceId, 'manual')).run.id).toBe(id);
    const before = platform.requests.length;
    await collect.recover();
    const done = await waitDone(id);
    expect(done).toMatchObject({ status: 'done', asked: 6 });
    expect(platform.requests.length - before).toBe(5);
    const answers = await store.answers(id);
    expect(answers.find((a) => a.prompt_key === 'p2' && a.sample === 2)!.model).toBe('earlier');
    expect(done.result!.answers.total).toBe(6);
  }, 40_000);

  it('after a scan, sends a new competitor ahead and a lost owned citation as signed webhooks', async () => {
    const received: Array<{ body: string; headers: Record<string, string> }> = [];
    const hooks: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers as Record<string, string> });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    try {
      const { secret } = await t.app
        .get(AlertsService)
        .addWebhook(workspaceId, `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/beacon`);
      // Now every answer names Globex and a newly tracked Initech, and nothing cites acme.com any more.
      await t.app.get(TrackingService).addCompetitor(workspaceId, { name: 'Initech', aliases: [], domains: [] });
      platform.reply = () => ({
        text: 'Globex or Initech are the ones to pick.',
        citations: [{ url: 'https://globex.com/' }],
      });
      const { run } = await t.app.get(CollectService).start(workspaceId, 'manual');
      expect((await waitDone(run.id)).status).toBe('done');
      const deadline = Date.now() + 15_000;
      const kinds = () => received.map((r) => (JSON.parse(r.body) as { type: string }).type);
      while (
        !(kinds().includes('visibility.owned_citation_lost') && kinds().includes('visibility.competitor_ahead')) &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const payloads = received.map(
        (r) =>
          new Webhook(secret).verify(r.body, r.headers) as {
            type?: string;
            kind?: string;
            data?: Record<string, unknown>;
          },
      );
      const text = JSON.stringify(payloads);
      // Globex was already ahead in the scan before: only Initech is news.
      const sent = payloads.map((p) => [
        p.type,
        (p.data as { details?: { competitor?: string } }).details?.competitor ?? '',
      ]);
      expect(sent).toContainEqual(['visibility.competitor_ahead', 'Initech']);
      expect(sent).toContainEqual(['visibility.owned_citation_lost', '']);
      expect(sent).not.toContainEqual(['visibility.competitor_ahead', 'Globex']);
      expect(text).toContain('https://acme.com/pricing');
    } finally {
      hooks.closeAllConnections();
      await new Promise((resolve) => hooks.close(resolve));
    }
  }, 40_000);

  it('records the calls after a refused key as not asked, and a scheduled run starts a scan like Run now', async () => {
    platform.reply = () => ({ status: 401, message: 'Incorrect API key provided: sk-local.' });
    const before = platform.requests.length;
    const collect = t.app.get(CollectService);
    const { run } = await collect.start(workspaceId, 'manual');
    const done = await waitDone(run.id);
    expect(done).toMatchObject({ status: 'done', asked: 6, failed: 6 });
    const answers = await collect.answers(run.id, 0, 100);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set(['ai_unauthorized']));
    const made = platform.requests.length - before;
    expect(made).toBeLessThan(6);
    expect(answers.filter((a) => a.reason!.startsWith('Not asked: '))).toHaveLength(6 - made);

    // Each run of a workspace's job scheduler is a job on the schedule queue: one starts a scan.
    platform.reply = () => ({ text: 'Acme again.' });
    await t.app.get(TrackingService).update(workspaceId, { schedule: 'daily' });
    await t.app.get(JobQueues).add(SCHEDULE_QUEUE, { workspaceId });
    const deadline = Date.now() + 20_000;
    let scheduled: RunRow | undefined;
    while (!scheduled && Date.now() < deadline) {
      scheduled = (await collect.runs(workspaceId)).find((r) => r.trigger === 'schedule');
      if (!scheduled) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await waitDone(scheduled!.id)).status).toBe('done');
    await t.app.get(TrackingService).update(workspaceId, { schedule: 'manual' });
  }, 40_000);
});
