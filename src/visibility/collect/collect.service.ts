/**
 * Over 300 lines: one run's life (readiness, start, the job asking every prompt, resume after a crash, import) is one
 * state machine over CollectStore's rows, every step reading the same heartbeat, retry and budget rules.
 */
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  AiPlatform,
  AiProvider,
  AiProviderError,
  AiProvidersService,
  answerCostUsd,
  PLATFORM_NAMES,
} from '../../common/ai';
import { AppConfig } from '../../common/config/env';
import { DomainError } from '../../common/errors/domain-error';
import { JobQueues } from '../../common/jobs/job-queues';
import { parseImportFile } from '../import/import-schema';
import { TrackingService } from '../tracking/tracking.service';
import { SCHEDULE_CRON, Schedule, TrackedPrompt } from '../tracking/tracking.types';
import { VisibilityIngestService } from '../visibility-ingest.service';
import { CollectAlerts } from './collect-alerts';
import { CollectStore } from './collect.store';
import { ACTIVE_STATUSES, CollectedAnswer, RunRow, RunSetup, RunTrigger } from './collect.types';
import { scanFile } from './scan-file';

export const RUN_QUEUE = 'vis-collect';
export const SCHEDULE_QUEUE = 'vis-collect-schedule';
/** A running scan writes its heartbeat this often; one older than STALE_MS belongs to a process that died. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 60_000;
/** Runs of a job: a run held by a live process (or a crash) is tried again later, 10 s, 20 s, ... up to 5 min in all. */
const RUN_JOB = { attempts: 6, backoffMs: 10_000 };

/** Why a scan cannot start, each reason in the page's words. */
export class CollectNotReady extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
  }
}

export interface Readiness {
  ready: boolean;
  problems: string[];
  /** The platforms a scan would ask now (chosen and configured). */
  platforms: AiPlatform[];
  /** Chosen but not configured: not asked, and said so. */
  skipped: AiPlatform[];
}

const schedulerId = (workspaceId: string) => `ws-${workspaceId}`;
const taskKey = (prompt: string, platform: string, sample: number) => `${prompt}\u0000${platform}\u0000${sample}`;

/**
 * Collection scans (issue 22 item 3): asks every enabled prompt on every chosen platform as many
 * times as the samples say, within the run's budget, stores each answer (or failed call) as it
 * comes, then imports the whole scan through VisibilityIngestService in one transaction: a run is
 * imported whole or not at all. Runs are jobs (JobQueues: BullMQ with REDIS_URL, so any instance
 * may run or resume one); one active run per workspace (database constraint).
 */
@Injectable()
export class CollectService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Collect');
  private closing = false;

  constructor(
    private readonly store: CollectStore,
    private readonly tracking: TrackingService,
    private readonly ai: AiProvidersService,
    private readonly jobs: JobQueues,
    private readonly ingest: VisibilityIngestService,
    private readonly alerts: CollectAlerts,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.register<{ runId: string }>(RUN_QUEUE, (d) => this.execute(d.runId), { concurrency: 2 });
    this.jobs.register<{ workspaceId: string }>(SCHEDULE_QUEUE, (d) => this.scheduledRun(d.workspaceId));
    this.tracking.onScheduleChange((ws, schedule) => this.syncSchedule(ws, schedule));
    void this.recover().catch((e: unknown) =>
      this.logger.error(`Start-up recovery of scans failed: ${(e as Error).message}`),
    );
  }

  onApplicationShutdown(): void {
    this.closing = true;
  }

  /** Schedules of every workspace, and the runs a stopped process left active (resumed). */
  async recover(): Promise<void> {
    for (const w of await this.tracking.scheduledWorkspaces()) await this.syncSchedule(w.workspace_id, w.schedule);
    for (const r of await this.store.allActive())
      await this.jobs.add(RUN_QUEUE, { runId: r.id }, { jobId: r.id, ...RUN_JOB });
  }

  async syncSchedule(workspaceId: string, schedule: Schedule): Promise<void> {
    if (schedule === 'manual') await this.jobs.unschedule(SCHEDULE_QUEUE, schedulerId(workspaceId));
    else await this.jobs.schedule(SCHEDULE_QUEUE, schedulerId(workspaceId), SCHEDULE_CRON[schedule], { workspaceId });
  }

  private async scheduledRun(workspaceId: string): Promise<void> {
    const s = await this.tracking.settings(workspaceId);
    if (s.schedule === 'manual') return;
    try {
      await this.start(workspaceId, 'schedule');
    } catch (e) {
      if (!(e instanceof CollectNotReady)) throw e;
      this.logger.warn(`Scheduled scan of workspace ${workspaceId} not started: ${e.message}`);
    }
  }

  /** Whether a scan can start now, and which platforms it would ask. */
  async readiness(workspaceId: string): Promise<Readiness> {
    const s = await this.tracking.settings(workspaceId);
    const status = await this.ai.status(workspaceId);
    const configured = new Set(status.filter((x) => x.configured).map((x) => x.platform));
    const problems: string[] = [];
    if (!s.brand.name) problems.push('Set the brand under "What to track": scans need a brand name to look for.');
    if (!s.prompts_enabled) problems.push('Add at least one enabled prompt under "What to track".');
    if (!configured.size) {
      problems.push(
        `No AI platform is configured on this instance: ${status.map((x) => `${x.name} needs ${x.setting}`).join('; ')}.`,
      );
    } else if (!s.platforms.length) {
      problems.push('Choose at least one platform under "What to track" (platforms, samples, schedule and budget).');
    }
    const platforms = s.platforms.filter((p): p is AiPlatform => configured.has(p));
    const skipped = s.platforms.filter((p): p is AiPlatform => !configured.has(p));
    if (configured.size && s.platforms.length && !platforms.length) {
      problems.push(
        `None of the chosen platforms is configured: ${skipped.map((p) => `${PLATFORM_NAMES[p]} needs ${status.find((x) => x.platform === p)!.setting}`).join('; ')}.`,
      );
    }
    return { ready: problems.length === 0, problems, platforms, skipped };
  }

  /** Starts a scan, or returns the one already running (two clicks make one scan). */
  async start(workspaceId: string, trigger: RunTrigger): Promise<{ run: RunRow; created: boolean }> {
    const active = await this.store.active(workspaceId);
    if (active) return { run: active, created: false };
    const ready = await this.readiness(workspaceId);
    if (!ready.ready) throw new CollectNotReady(ready.problems);
    const s = await this.tracking.settings(workspaceId);
    const prompts: TrackedPrompt[] = await this.tracking.allPrompts(workspaceId);
    const setup: RunSetup = {
      business: s.business || s.brand.name,
      brand: s.brand,
      competitors: s.competitors,
      prompts,
      platforms: ready.platforms,
      samples: s.samples,
    };
    const date = new Date().toISOString().slice(0, 10);
    try {
      parseImportFile(scanFile(setup, { id: 'check', date }, []));
    } catch (e) {
      if (e instanceof DomainError) throw new CollectNotReady([`The set-up cannot be scanned: ${e.message}`]);
      throw e;
    }
    const planned = prompts.filter((p) => p.enabled).length * setup.platforms.length * setup.samples;
    const id = await this.store.create({
      workspaceId,
      trigger,
      setup,
      planned,
      budgetCalls: s.budget_calls,
      budgetUsd: s.budget_usd,
      date,
    });
    if (!id) return { run: (await this.store.active(workspaceId))!, created: false };
    try {
      await this.jobs.add(RUN_QUEUE, { runId: id }, { jobId: id, ...RUN_JOB });
    } catch (e) {
      await this.store.setStatus(id, 'failed', { error: `The scan could not be queued: ${(e as Error).message}` });
      throw e;
    }
    this.logger.log(`Scan ${id} of workspace ${workspaceId} queued (${trigger}): ${planned} calls planned`);
    return { run: (await this.store.get(id))!, created: true };
  }

  /** The job: runs (or resumes) a scan, then imports it. */
  async execute(runId: string): Promise<void> {
    if (!(await this.store.claim(runId, STALE_MS))) {
      const r = await this.store.get(runId);
      if (!r || !ACTIVE_STATUSES.includes(r.status)) return; // finished meanwhile
      throw new Error(`Scan ${runId} is being run by another process; trying again later.`);
    }
    const beat = setInterval(() => void this.store.heartbeat(runId).catch(() => undefined), HEARTBEAT_MS);
    beat.unref();
    try {
      const run = (await this.store.get(runId))!;
      const setup = await this.store.setup(runId);
      if (run.status !== 'importing') {
        const stop = await this.ask(run, setup);
        if (this.closing) {
          await this.store.release(runId);
          throw new Error(`Scan ${runId} interrupted by shutdown; it resumes where it stopped.`);
        }
        await this.store.setStatus(runId, 'importing', { stopReason: stop });
      }
      const answers = await this.store.answers(runId);
      const slug = await this.store.workspaceSlug(run.workspace_id);
      const result = await this.ingest.importScan(slug, scanFile(setup, { id: run.scan_key, date: run.date }, answers));
      await this.store.setStatus(runId, 'done', { result });
      this.logger.log(`Scan ${runId} imported as ${run.scan_key}: ${answers.length} answers`);
      await this.alerts
        .afterScan(run.workspace_id, run.scan_key)
        .catch((e: unknown) => this.logger.error(`Alerts after scan ${runId} failed: ${(e as Error).message}`));
    } catch (e) {
      if (this.closing) throw e;
      this.logger.error(`Scan ${runId} failed: ${(e as Error).message}`);
      await this.store.setStatus(runId, 'failed', { error: (e as Error).message });
    } finally {
      clearInterval(beat);
    }
  }

  /** Asks what the run has not asked yet, within its budget. Returns why it stopped early, or null. */
  private async ask(run: RunRow, setup: RunSetup): Promise<string | null> {
    const providers = await this.ai.forWorkspace(run.workspace_id);
    const done = new Set((await this.store.answers(run.id)).map((a) => taskKey(a.prompt_key, a.platform, a.sample)));
    const tasks: Array<{ prompt: TrackedPrompt; platform: string; sample: number }> = [];
    for (let sample = 1; sample <= setup.samples; sample++) {
      for (const prompt of setup.prompts) {
        if (!prompt.enabled) continue;
        for (const platform of setup.platforms)
          if (!done.has(taskKey(prompt.id, platform, sample))) tasks.push({ prompt, platform, sample });
      }
    }
    let calls = run.asked;
    let cost = run.cost_usd;
    let stored = 0;
    let stop: string | null = null;
    const refused = new Map<string, string>();
    const worker = async (): Promise<void> => {
      while (tasks.length && !stop && !this.closing) {
        if (calls >= run.budget_calls) stop = `Stopped at the budget of ${run.budget_calls} calls`;
        else if (cost >= run.budget_usd)
          stop = `Stopped at the budget of US$ ${run.budget_usd} (estimated US$ ${cost.toFixed(2)} spent)`;
        if (stop) break;
        const t = tasks.shift()!;
        const why = refused.get(t.platform);
        if (!why) calls++;
        const answer = why
          ? failed(t, 'ai_unauthorized', `Not asked: ${why}`)
          : await this.askOne(providers.get(t.platform as AiPlatform), t, refused);
        cost += answer.cost_usd;
        await this.store.addAnswer(run.id, answer);
        stored++;
      }
    };
    const wanted = tasks.length;
    const concurrency = Math.max(1, this.config.AI_CONCURRENCY * setup.platforms.length);
    await Promise.all(Array.from({ length: concurrency }, worker));
    const reason = stop as string | null; // set by the workers
    return reason ? `${reason}: ${wanted - stored} calls not made.` : null;
  }

  private async askOne(
    provider: AiProvider | undefined,
    t: { prompt: TrackedPrompt; platform: string; sample: number },
    refused: Map<string, string>,
  ): Promise<CollectedAnswer> {
    if (!provider)
      return failed(
        t,
        'ai_not_configured',
        `${t.platform} is no longer configured (its key was removed during the scan).`,
      );
    try {
      const a = await provider.ask({ prompt: t.prompt.text, webSearch: true, country: t.prompt.country ?? undefined });
      // The platform's own cost, or an estimate from the price table (src/common/ai/prices.ts).
      const cost = answerCostUsd(a);
      return {
        prompt_key: t.prompt.id,
        platform: t.platform,
        sample: t.sample,
        status: 'ok',
        model: a.model,
        surface: a.surface,
        text: a.text.replaceAll(String.fromCharCode(0), ''),
        citations: a.citations,
        search_queries: a.searchQueries,
        input_tokens: a.usage.inputTokens,
        output_tokens: a.usage.outputTokens,
        cost_usd: cost.usd,
        // An ok answer's reason says when its cost is a guess: the model is not in the price table.
        reason: cost.listed
          ? null
          : `Cost estimated at ${PLATFORM_NAMES[a.platform]}'s default prices: the model ${a.model} is not in Beacon's price table.`,
      };
    } catch (e) {
      if (!(e instanceof AiProviderError)) return failed(t, 'error', `Unexpected error: ${(e as Error).message}`);
      // A refused key is refused for the rest of the scan: the remaining calls are recorded, not made.
      if (e.code === 'ai_unauthorized') refused.set(t.platform, e.message);
      return failed(t, e.code, e.message);
    }
  }

  async runs(workspaceId: string, limit = 20): Promise<RunRow[]> {
    return this.store.list(workspaceId, limit);
  }

  /** A run of this workspace (another workspace's is not found). */
  async run(workspaceId: string, id: string): Promise<RunRow | null> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return null;
    const r = await this.store.get(id);
    return r && r.workspace_id === workspaceId ? r : null;
  }

  async answers(runId: string, offset: number, limit: number): Promise<CollectedAnswer[]> {
    return this.store.answers(runId, { offset, limit });
  }
}

function failed(
  t: { prompt: TrackedPrompt; platform: string; sample: number },
  status: string,
  reason: string,
): CollectedAnswer {
  return {
    prompt_key: t.prompt.id,
    platform: t.platform,
    sample: t.sample,
    status,
    model: null,
    surface: null,
    text: '',
    citations: [],
    search_queries: [],
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: 0,
    reason: reason.slice(0, 2000),
  };
}
