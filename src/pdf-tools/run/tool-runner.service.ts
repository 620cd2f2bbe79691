import { Injectable, Logger } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { AppConfig } from '../../common/config/env';
import { MetricsService } from '../../common/metrics/metrics.service';
import { plural } from '../../common/text/plural';
import type { Limits } from '../core/limits';
import type { InputFile } from '../core/pdf-open';
import { ToolFailure } from '../core/tool-failure';
import { FileStoreService } from '../files/file-store.service';
import { InputResolver, type PreparedInput } from '../files/input-resolver';
import { QuotaChannel, QuotaService, QuotaState, QuotaTicket } from '../quota/quota.service';
import { StatsService } from '../stats/stats.service';
import { invalidArguments, invalidInline } from '../tools/argument-errors';
import { checkOutputs, type FileRef, type OutputLimits, type PdfTool, type StoredFileInfo } from '../tools/tool';
import type { WorkerResult } from '../worker/pdf.worker';
import { PdfPoolService } from '../worker/pdf-pool.service';
import { CallProgress, type ProgressSink } from './progress';
import type { OpenNote } from '../core/pdf-open';
import type { Caller, OpenedNote, ToolFailed, ToolOutcome, ToolSuccess } from './tool-outcome';

export type { Caller } from './tool-outcome';

const channelOf = (caller: Caller): QuotaChannel => (caller.deviceId === undefined ? 'mcp' : 'web');

/**
 * The PDF product's core: runs one tool call from arguments to a typed {@link ToolOutcome}.
 * Validates arguments, resolves input files (file_id, url or base64, size-checked: InputResolver)
 * before touching the quota, reserves quota, runs the tool in the worker pool, refunds on failure,
 * stores the outputs. Every failure is a {@link ToolFailed} with its code; each entry point renders
 * the outcome (mcp/mcp-result.ts as an MCP result, the website as a page).
 */
@Injectable()
export class ToolRunnerService {
  private readonly logger = new Logger('PdfTools');
  private readonly calls: Counter<'tool' | 'outcome'>;
  private readonly duration: Histogram<'tool'>;

  constructor(
    private readonly config: AppConfig,
    private readonly pool: PdfPoolService,
    private readonly store: FileStoreService,
    private readonly quota: QuotaService,
    private readonly stats: StatsService,
    private readonly inputs: InputResolver,
    metrics: MetricsService,
  ) {
    this.calls = new Counter({
      name: 'pdf_tool_calls_total',
      help: 'MCP tool calls by tool and outcome (success or the error code)',
      labelNames: ['tool', 'outcome'] as const,
      registers: [metrics.registry],
    });
    this.duration = new Histogram({
      name: 'pdf_tool_duration_seconds',
      help: 'Duration of MCP tool calls (arguments to result), by tool',
      labelNames: ['tool'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [metrics.registry],
    });
  }

  /**
   * Runs a call and counts it (outcome: success or the error code) with its duration. With
   * `progress` (the client follows progress) downloads, the tool's loops and storing report
   * their progress through it.
   */
  async run(tool: PdfTool, rawArgs: unknown, caller: Caller, progress?: ProgressSink): Promise<ToolOutcome> {
    const end = this.duration.startTimer({ tool: tool.name });
    const outcome = await this.execute(tool, rawArgs, caller, new CallProgress(progress));
    end();
    this.calls.inc({ tool: tool.name, outcome: outcome.ok ? 'success' : outcome.code });
    return outcome;
  }

  private async execute(tool: PdfTool, rawArgs: unknown, caller: Caller, progress: CallProgress): Promise<ToolOutcome> {
    const { inline, rest } = takeInline(rawArgs);
    if (inline === 'invalid') return this.failure(tool, invalidInline(tool.name), await this.status(tool, caller));
    // reportInput: the messages can quote a refused value (shortened).
    const parsed = tool.input.safeParse(rest, { reportInput: true });
    if (!parsed.success)
      return this.failure(tool, invalidArguments(tool.name, parsed.error), await this.status(tool, caller));
    const args = parsed.data;
    let prepared: PreparedInput[];
    let refs: { label: string; ref: FileRef }[] = [];
    try {
      refs = tool.inputs(args);
      prepared = await this.inputs.prepare(tool.extraBase64?.(args) ?? [], refs);
      tool.check?.(
        args,
        this.inputs.pagesOf(prepared),
        refs.map((r) => r.label),
      );
    } catch (e) {
      return this.failure(tool, this.asFailure(e), await this.status(tool, caller), refs);
    }
    // The quota comes before any stored byte is read or any url downloaded: a client over its quota
    // costs one row lookup (or one DNS check) per input.
    const { decision, ticket } = await this.quota.consume(
      channelOf(caller),
      tool.name,
      caller.ip,
      caller.deviceId,
      caller.userId,
    );
    if (!decision.allowed || !ticket) {
      const { allowed: _allowed, ...state } = decision;
      return this.failure(
        tool,
        new ToolFailure(
          'quota_exceeded',
          `Daily quota of ${tool.name} reached for this client (${state.limit} calls per UTC day). It resets at ${state.resets_at} (00:00 UTC); other tools keep their own quota.`,
          { resets_at: state.resets_at },
        ),
        state,
      );
    }
    // Progress spans: downloads (when there are url inputs), the tool's run, storing the results.
    const runFrom = this.inputs.downloadsOf(prepared) ? 30 : 0;
    let inputs: InputFile[];
    try {
      inputs = await this.inputs.load(prepared, progress.span(0, runFrom));
    } catch (e) {
      return this.refunded(tool, ticket, caller, this.asFailure(e), refs);
    }
    let result: WorkerResult;
    try {
      progress.report(runFrom, `Running ${tool.name}`);
      result = await this.pool.run(
        {
          tool: tool.name,
          // The files travel as `inputs` (bytes, moved to the worker): their base64 is not copied again.
          args: withoutBase64(args, new Set(refs.map((r) => r.ref))),
          inputs,
          limits: this.limits(),
        },
        progress.enabled ? progress.span(runFrom, 90) : undefined,
      );
      if (result.ok) checkOutputs(result.files, this.limits());
    } catch (e) {
      const f = this.asFailure(e);
      result = { ok: false, code: f.code, message: f.message, details: f.details };
    }
    if (!result.ok)
      return this.refunded(tool, ticket, caller, new ToolFailure(result.code, result.message, result.details), refs);
    let stored: StoredFileInfo[];
    try {
      const storing = progress.span(90, 100);
      stored = await this.store.saveAll(result.files);
      if (stored.length) storing(1, 1, `Stored ${plural(stored.length, 'result file')}`);
    } catch (e) {
      this.logger.error(e);
      return this.refunded(
        tool,
        ticket,
        caller,
        new ToolFailure('internal_error', 'The result could not be stored. Retry in a moment.'),
        refs,
      );
    }
    // Counted before the answer goes out, so a shutdown right after it loses nothing and a client
    // reading /api/public-stats next sees its call; a failing count never fails the call.
    await this.stats.recordSuccess(tool.name).catch((e: Error) => this.logger.warn(`stats: ${e.message}`));
    const { allowed: _allowed, ...quota } = decision;
    return this.success(tool, result, stored, quota, inline, refs);
  }

  private limits(): Limits & OutputLimits {
    const c = this.config;
    return {
      maxBytes: c.PDF_MAX_FILE_BYTES,
      maxPages: c.PDF_MAX_PAGES,
      maxOutputFiles: c.PDF_MAX_CALL_OUTPUT_FILES,
      maxOutputBytes: c.PDF_MAX_CALL_OUTPUT_BYTES,
    };
  }

  private async status(tool: PdfTool, caller: Caller): Promise<QuotaState> {
    return this.quota.status(channelOf(caller), tool.name, caller.ip, caller.deviceId, caller.userId);
  }

  private asFailure(e: unknown): ToolFailure {
    if (e instanceof ToolFailure) return e;
    this.logger.error(e);
    return new ToolFailure('internal_error', 'The tool failed unexpectedly. Retry; if it persists, report it.');
  }

  private async refunded(
    tool: PdfTool,
    ticket: QuotaTicket,
    caller: Caller,
    failure: ToolFailure,
    refs: { label: string }[],
  ): Promise<ToolFailed> {
    const { refunded, state } = await this.quota.refund(
      channelOf(caller),
      ticket,
      caller.ip,
      caller.deviceId,
      caller.userId,
    );
    const note = refunded
      ? 'This failed call was refunded: it did not use your quota.'
      : 'The daily refund allowance is used up: this failed call counted against your quota.';
    return {
      ...this.failure(tool, new ToolFailure(failure.code, `${failure.message} ${note}`, failure.details), state, refs),
      refunded,
    };
  }

  /** The failed outcome; the input it is about found by its label among the call's inputs (`refs`). */
  private failure(tool: PdfTool, f: ToolFailure, quota: QuotaState, refs: { label: string }[] = []): ToolFailed {
    const at = typeof f.details.input === 'string' ? refs.findIndex((r) => r.label === f.details.input) : -1;
    const given = f.details.password_given;
    return {
      ok: false,
      tool: tool.name,
      code: f.code,
      message: f.message,
      details: f.details,
      ...(at >= 0 ? { inputIndex: at } : {}),
      ...(typeof given === 'boolean' ? { passwordGiven: given } : {}),
      quota,
    };
  }

  private success(
    tool: PdfTool,
    result: Extract<WorkerResult, { ok: true }>,
    stored: StoredFileInfo[],
    quota: QuotaState,
    inline: boolean,
    refs: { label: string }[],
  ): ToolSuccess {
    const { per_file: perFile, ...data } = result.data as { per_file?: Record<string, unknown>[] } & Record<
      string,
      unknown
    >;
    return {
      ok: true,
      tool: tool.name,
      shape: tool.result,
      summary: result.summary,
      files: stored.map((s, i) => ({ ...s, extra: perFile?.[i] ?? {}, content: result.files[i].bytes })),
      data,
      ...(result.text !== undefined ? { text: result.text } : {}),
      opened: openedNotes(result.opened ?? [], refs),
      ...(result.toolNote ? { toolNote: result.toolNote } : {}),
      ...(typeof data.note === 'string' ? { note: data.note } : {}),
      inline,
      quota,
    };
  }
}

/** What opening did, grouped as the note says it (the same sentence about several inputs once), inputs by their index. */
function openedNotes(notes: readonly OpenNote[], refs: readonly { label: string }[]): OpenedNote[] {
  const groups = new Map<string, OpenedNote>();
  for (const n of notes) {
    const at = refs.findIndex((r) => r.label === n.label);
    const g = groups.get(n.one) ?? { inputs: [], one: n.one, many: n.many };
    if (at >= 0 && !g.inputs.includes(at)) g.inputs.push(at);
    groups.set(n.one, g);
  }
  return [...groups.values()];
}

/** Takes the `inline` argument (every tool has it) off the arguments before the tool's own checks. */
function takeInline(raw: unknown): { inline: boolean | 'invalid'; rest: unknown } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !('inline' in raw))
    return { inline: false, rest: raw ?? {} };
  const { inline, ...rest } = raw as Record<string, unknown>;
  if (inline !== undefined && typeof inline !== 'boolean') return { inline: 'invalid', rest };
  return { inline: inline === true, rest };
}

/** `args` with the `base64` of the given file refs left out (plain objects and arrays copied, the rest shared). */
function withoutBase64<T>(value: T, refs: Set<object>): T {
  if (Array.isArray(value)) return value.map((v: unknown) => withoutBase64(v, refs)) as T;
  if (value === null || typeof value !== 'object') return value;
  if (refs.has(value)) {
    const { base64: _omitted, ...rest } = value as FileRef;
    return rest as T;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutBase64(v, refs)])) as T;
}
