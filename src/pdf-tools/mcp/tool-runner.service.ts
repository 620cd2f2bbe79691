import { Injectable, Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { Counter, Histogram } from 'prom-client';
import { AppConfig } from '../../common/config/env';
import { MetricsService } from '../../common/metrics/metrics.service';
import { checkBase64Length, tooLarge } from '../core/base64';
import type { Limits } from '../core/limits';
import type { InputFile } from '../core/pdf-open';
import { ToolFailure } from '../core/tool-failure';
import { FileStoreService } from '../files/file-store.service';
import type { StoredFile } from '../files/stored-file.entity';
import type { CheckedUrl } from '../files/url-fetcher';
import { UrlInputService } from '../files/url-input.service';
import { QuotaChannel, QuotaService, QuotaState, QuotaTicket } from '../quota/quota.service';
import { StatsService } from '../stats/stats.service';
import { checkOutputs, type FileRef, type OutputLimits, type PdfTool, type StoredFileInfo } from '../tools/tool';
import { PdfPoolService } from '../worker/pdf-pool.service';
import { decodeAll, type DecodeResult } from '../worker/decode.worker';
import type { WorkerResult } from '../worker/pdf.worker';
import { CallProgress, ProgressSink } from './progress';
import { plural } from '../../common/text/plural';
import { clip, resultText } from './result-text';

export { decodeBase64 } from '../core/base64';

/**
 * Base64 arguments of a call longer than this in total are decoded in a worker; shorter ones on the
 * event loop (well under a millisecond, and no wait for a free worker).
 */
export const WORKER_DECODE_MIN_CHARS = 64 * 1024;

/** One step of resolving a call's files, in the order their errors take precedence. */
type InputStep =
  | { kind: 'base64'; label: string; base64: string; keep: boolean; name: string }
  | { kind: 'file_id'; label: string; ref: FileRef }
  | { kind: 'url'; label: string; ref: FileRef }
  | { kind: 'error'; error: ToolFailure };

/**
 * An input after the checks: its bytes (base64 decoded), a stored file whose bytes are read after
 * the quota, or a checked address downloaded after the quota.
 */
type PreparedInput = InputFile | { label: string; name: string; stored: StoredFile } | { label: string; name?: string; url: CheckedUrl };

/**
 * The caller of a tool run: its IP (quota subject) and, for the website, its device id: a call
 * with a device id counts on the quota's 'web' channel (per device, IP pool cap 4x), else 'mcp'.
 */
export interface Caller {
  ip: string;
  deviceId?: string;
}

const channelOf = (caller: Caller): QuotaChannel => (caller.deviceId === undefined ? 'mcp' : 'web');

/** Readable summary of zod issues, naming each argument path and what it accepts. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${issueMessage(i)}`)
    .join('; ');
}

/** zod's message, with what is allowed where zod only says "Invalid input" (a union of values, a record key). */
function issueMessage(issue: z.core.$ZodIssue): string {
  const received = issue.input === undefined ? 'it is missing' : `received ${clip(JSON.stringify(issue.input) ?? typeof issue.input, 40)}`;
  if (issue.code === 'invalid_union') {
    const values = issue.errors.flat().flatMap((sub) => (sub.code === 'invalid_value' ? sub.values : []));
    if (values.length && issue.errors.every((e) => e.every((sub) => sub.code === 'invalid_value'))) {
      const list = values.map((v) => JSON.stringify(v));
      return `must be ${list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}` : list[0]} (${received}).`.replace(/\.$/, '');
    }
  }
  // A file given as a bare string (an id, an address, the content): say what shape it takes.
  const fileArgument = issue.path[0] === 'file' ? issue.path.length === 1 : issue.path[0] === 'files' && issue.path.length === 2;
  if (issue.code === 'invalid_type' && issue.expected === 'object' && fileArgument) {
    return `${issue.message}; give an object: {"file_id": "..."}, {"url": "https://..."} or {"base64": "..."}`;
  }
  if (issue.code === 'invalid_key') {
    const inner = issue.issues[0];
    return `the key ${clip(JSON.stringify(issue.input ?? issue.path[issue.path.length - 1]), 70)} is not allowed${inner ? ` (${inner.message})` : ''}`;
  }
  return issue.message;
}

/**
 * Runs one tool call from arguments to MCP result: validates arguments, resolves input files
 * (file_id or base64, size-checked) before touching the quota, reserves quota, runs the tool in the
 * worker pool, refunds on failure, stores the outputs and builds the result (resource links,
 * small files inlined, structuredContent with the quota). Every failure becomes an `isError` result.
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
    private readonly urls: UrlInputService,
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
   * `progress` (the client gave a progressToken) downloads, the tool's loops and storing report
   * their progress through it.
   */
  async call(tool: PdfTool, rawArgs: unknown, caller: Caller, progress?: ProgressSink): Promise<CallToolResult> {
    const end = this.duration.startTimer({ tool: tool.name });
    const result = await this.execute(tool, rawArgs, caller, new CallProgress(progress));
    end();
    const error = (result.structuredContent as { error?: string } | undefined)?.error;
    this.calls.inc({ tool: tool.name, outcome: result.isError ? (error ?? 'internal_error') : 'success' });
    return result;
  }

  private async execute(tool: PdfTool, rawArgs: unknown, caller: Caller, progress: CallProgress): Promise<CallToolResult> {
    const { inline, rest } = takeInline(rawArgs);
    if (inline === 'invalid') {
      return this.failure(new ToolFailure('invalid_arguments', `Invalid arguments for ${tool.name}: inline: expected a boolean.`), await this.status(tool, caller));
    }
    // reportInput: the messages can quote a refused value (shortened).
    const parsed = tool.input.safeParse(rest, { reportInput: true });
    if (!parsed.success) {
      return this.failure(new ToolFailure('invalid_arguments', `Invalid arguments for ${tool.name}: ${describeIssues(parsed.error)}.`), await this.status(tool, caller));
    }
    const args = parsed.data;
    let prepared: PreparedInput[];
    let refs: { label: string; ref: FileRef }[];
    try {
      refs = tool.inputs(args);
      prepared = await this.prepareInputs(tool, args, refs);
      // Page counts of stored inputs come from their rows (null: not known, e.g. an encrypted upload).
      const pages = prepared.map((p) => ('stored' in p ? (p.stored.pages ?? undefined) : undefined));
      tool.check?.(args, pages, refs.map((r) => r.label));
    } catch (e) {
      return this.failure(this.asFailure(e), await this.status(tool, caller));
    }
    // The quota comes before any stored byte is read or any url downloaded: a client over its quota
    // costs one row lookup (or one DNS check) per input.
    const { decision, ticket } = await this.quota.consume(channelOf(caller), tool.name, caller.ip, caller.deviceId);
    if (!decision.allowed || !ticket) {
      const { allowed: _allowed, ...state } = decision;
      return this.failure(
        new ToolFailure(
          'quota_exceeded',
          `Daily quota of ${tool.name} reached for this client (${state.limit} calls per UTC day). It resets at ${state.resets_at} (00:00 UTC); other tools keep their own quota.`,
          { resets_at: state.resets_at },
        ),
        state,
      );
    }
    // Progress spans: downloads (when there are url inputs), the tool's run, storing the results.
    const downloads = prepared.filter((p) => 'url' in p).length;
    const runFrom = downloads ? 30 : 0;
    let inputs: InputFile[];
    try {
      inputs = await this.loadInputs(prepared, progress.span(0, runFrom), downloads);
    } catch (e) {
      return this.refunded(tool, ticket, caller, this.asFailure(e));
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
    if (!result.ok) return this.refunded(tool, ticket, caller, new ToolFailure(result.code, result.message, result.details));
    let stored: StoredFileInfo[];
    try {
      const storing = progress.span(90, 100);
      stored = await this.store.saveAll(result.files);
      if (stored.length) storing(1, 1, `Stored ${plural(stored.length, 'result file')}`);
    } catch (e) {
      this.logger.error(e);
      return this.refunded(tool, ticket, caller, new ToolFailure('internal_error', 'The result could not be stored. Retry in a moment.'));
    }
    // Counted before the answer goes out, so a shutdown right after it loses nothing and a client
    // reading /api/public-stats next sees its call; a failing count never fails the call.
    await this.stats.recordSuccess(tool.name).catch((e: Error) => this.logger.warn(`stats: ${e.message}`));
    const { allowed: _allowed, ...quota } = decision;
    return this.success(tool, result, stored, quota, inline);
  }

  private limits(): Limits & OutputLimits {
    const c = this.config;
    return { maxBytes: c.PDF_MAX_FILE_BYTES, maxPages: c.PDF_MAX_PAGES, maxOutputFiles: c.PDF_MAX_CALL_OUTPUT_FILES, maxOutputBytes: c.PDF_MAX_CALL_OUTPUT_BYTES };
  }

  private async status(tool: PdfTool, caller: Caller): Promise<QuotaState> {
    return this.quota.status(channelOf(caller), tool.name, caller.ip, caller.deviceId);
  }

  private asFailure(e: unknown): ToolFailure {
    if (e instanceof ToolFailure) return e;
    this.logger.error(e);
    return new ToolFailure('internal_error', 'The tool failed unexpectedly. Retry; if it persists, report it.');
  }

  private async refunded(tool: PdfTool, ticket: QuotaTicket, caller: Caller, failure: ToolFailure): Promise<CallToolResult> {
    const { refunded, state } = await this.quota.refund(channelOf(caller), ticket, caller.ip, caller.deviceId);
    const note = refunded ? 'This failed call was refunded: it did not use your quota.' : 'The daily refund allowance is used up: this failed call counted against your quota.';
    return this.failure(new ToolFailure(failure.code, `${failure.message} ${note}`, { ...failure.details, refunded }), state);
  }

  private failure(f: ToolFailure, quota: QuotaState): CallToolResult {
    return {
      isError: true,
      content: [{ type: 'text', text: `Error ${f.code}: ${f.message}` }],
      structuredContent: { error: f.code, message: f.message, ...f.details, quota },
    };
  }

  /**
   * Input bytes of every file argument, checked for size; labels name the argument in errors.
   * Checks come in argument order (image arguments first), and the first failing one is the error.
   * Sizes are checked from the base64 length before any decoding; large base64 is decoded in a
   * worker, so megabytes of text never pass through a regex or decoder on the event loop.
   */
  private async prepareInputs(tool: PdfTool, args: Record<string, unknown>, refs: { label: string; ref: FileRef }[]): Promise<PreparedInput[]> {
    const max = this.config.PDF_MAX_FILE_BYTES;
    const steps: InputStep[] = [];
    const base64 = (label: string, text: string, keep: boolean, name: string): InputStep => {
      try {
        checkBase64Length(text, label, max);
        return { kind: 'base64', label, base64: text, keep, name };
      } catch (e) {
        return { kind: 'error', error: e as ToolFailure };
      }
    };
    for (const extra of tool.extraBase64?.(args) ?? []) steps.push(base64(extra.label, extra.base64, false, ''));
    for (const { label, ref } of refs) {
      const given = [ref.file_id, ref.url, ref.base64].filter((v) => v !== undefined).length;
      if (given !== 1) {
        steps.push({
          kind: 'error',
          error: new ToolFailure(
            'invalid_arguments',
            `${label}: give exactly one of file_id (an earlier result or upload), url (an http(s) address of the PDF) or base64 (the PDF's content).`,
            { input: label },
          ),
        });
      } else if (ref.file_id !== undefined) steps.push({ kind: 'file_id', label, ref });
      else if (ref.url !== undefined) steps.push({ kind: 'url', label, ref });
      else steps.push(base64(label, ref.base64!, true, ref.filename ?? 'document.pdf'));
    }
    // Nothing after the first refused argument can change the outcome: no work for it.
    const firstError = steps.findIndex((s) => s.kind === 'error');
    if (firstError >= 0) steps.length = firstError + 1;
    const decoded = await this.decodeBase64Inputs(steps.flatMap((s) => (s.kind === 'base64' ? [s] : [])), max);
    const out: PreparedInput[] = [];
    let d = 0;
    for (const step of steps) {
      if (step.kind === 'error') throw step.error;
      if (step.kind === 'file_id') {
        out.push(await this.checkStored(step.label, step.ref, max));
        continue;
      }
      if (step.kind === 'url') {
        // Scheme and the first host's addresses: refused before the quota, and before any byte is asked for.
        out.push({ label: step.label, name: step.ref.filename, url: await this.urls.check(step.ref.url!, step.label) });
        continue;
      }
      const r = decoded[d++];
      if (!r.ok) throw new ToolFailure(r.code, r.message, r.details);
      if (step.keep) out.push({ label: step.label, name: step.name, bytes: r.bytes! });
    }
    return out;
  }

  /** Decodes base64 arguments: in a worker when large (on the event loop if the pool cannot). */
  private async decodeBase64Inputs(items: { label: string; base64: string; keep: boolean }[], max: number): Promise<DecodeResult> {
    if (!items.length) return [];
    const task = { items: items.map(({ label, base64, keep }) => ({ label, base64, keep })), maxBytes: max };
    const chars = items.reduce((n, i) => n + i.base64.length, 0);
    if (chars > WORKER_DECODE_MIN_CHARS) {
      const viaWorker = await this.pool.decode(task);
      if (viaWorker) return viaWorker;
    }
    return decodeAll(task);
  }

  /** A file_id input checked from its row (exists, not expired, size): no byte read yet. */
  private async checkStored(label: string, ref: FileRef, max: number): Promise<PreparedInput> {
    const found = await this.store.info(ref.file_id!);
    if (found.status !== 'ok') throw this.notFound(label, ref.file_id!, found.status);
    if (found.file.size > max) throw tooLarge(label, found.file.size, max);
    return { label, name: ref.filename ?? found.file.filename, stored: found.file };
  }

  private notFound(label: string, id: string, status: 'expired' | 'missing'): ToolFailure {
    return new ToolFailure(
      'file_not_found',
      `${label}: file_id "${id}" is ${status === 'expired' ? 'expired' : 'unknown'}. Results are kept for ${Math.round(this.config.PDF_RESULT_TTL_S / 60)} minutes; send the PDF as base64 or run the tool that made it again.`,
      { input: label },
    );
  }

  /**
   * Reads the bytes of stored inputs and downloads url inputs (after the quota), one after the
   * other; `progress` gets the downloads' share (each url an equal part, by bytes received).
   */
  private async loadInputs(prepared: PreparedInput[], progress: (done: number, total: number, message: string) => void, downloads: number): Promise<InputFile[]> {
    const out: InputFile[] = [];
    const max = this.config.PDF_MAX_FILE_BYTES;
    let downloaded = 0;
    const readOnce = new Map<string, Uint8Array>();
    for (const p of prepared) {
      if ('url' in p) {
        const base = downloaded;
        const got = await this.urls.fetch(p.url, p.label, (received, total) =>
          progress(base + received / (total ?? max), downloads, `Downloading ${p.label}: ${received} bytes${total ? ` of ${total}` : ''}`),
        );
        downloaded++;
        progress(downloaded, downloads, `Downloaded ${p.label} (${got.bytes.length} bytes)`);
        out.push({ label: p.label, name: p.name ?? got.filename ?? 'document.pdf', bytes: got.bytes });
        continue;
      }
      if (!('stored' in p)) {
        out.push(p);
        continue;
      }
      // The same file given twice (e.g. merged with itself) is read once; the worker only reads input bytes.
      const id = p.stored.id;
      let bytes = readOnce.get(id);
      if (!bytes) {
        const read = await this.store.content(p.stored);
        if (!read) throw this.notFound(p.label, id, 'expired');
        bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
        readOnce.set(id, bytes);
      }
      out.push({ label: p.label, name: p.name, bytes });
    }
    return out;
  }

  /**
   * The result: `structuredContent` (every field), one `resource_link` per file and one short text
   * (under TEXT_MAX_BYTES whatever the number of files and notes, see resultText). The bytes are embedded only when the call
   * asked (`inline: true`) and the file is at most PDF_INLINE_MAX_BYTES.
   */
  private success(tool: PdfTool, result: Extract<WorkerResult, { ok: true }>, stored: StoredFileInfo[], quota: QuotaState, inline: boolean): CallToolResult {
    const { per_file: perFile, ...data } = result.data as { per_file?: Record<string, unknown>[] } & Record<string, unknown>;
    let structured: Record<string, unknown>;
    if (tool.result === 'files') structured = { files: stored.map((s, i) => ({ ...s, ...(perFile?.[i] ?? {}) })), ...data, quota };
    else structured = { ...data, ...(stored[0] ?? {}), ...(tool.result === 'optional-file' && stored[0] ? { changed: true } : {}), quota };
    const limit = this.config.PDF_INLINE_MAX_BYTES;
    const tooBig = inline ? stored.filter((_, i) => result.files[i].bytes.length > limit) : [];
    const remarks = tooBig.length
      ? [
          `Not embedded (inline): ${tooBig.map((s) => `${s.filename} is ${plural(s.bytes, 'byte')}`).join(', ')}, over the inline limit of ${plural(limit, 'byte')}; download ${tooBig.length === 1 ? 'it from its link' : 'them from their links'}.`,
        ]
      : [];
    if (remarks.length) structured.note = [structured.note, ...remarks].filter(Boolean).join(' ');
    const content: CallToolResult['content'] = [
      {
        type: 'text',
        text: resultText({
          summary: result.summary,
          files: stored,
          quota: `Quota: ${quota.remaining} of ${quota.limit} ${tool.name} calls left today.`,
          remarks,
          note: typeof data.note === 'string' ? data.note : undefined,
        }),
      },
    ];
    stored.forEach((s, i) => {
      content.push({
        type: 'resource_link',
        uri: s.download_url,
        name: s.filename,
        mimeType: 'application/pdf',
        description: `${plural(s.pages, 'page')}, ${plural(s.bytes, 'byte')}; file_id ${s.file_id}; available until ${s.expires_at}.`,
      });
      const bytes = result.files[i].bytes;
      if (inline && bytes.length <= limit) {
        content.push({ type: 'resource', resource: { uri: s.download_url, mimeType: 'application/pdf', blob: Buffer.from(bytes).toString('base64') } });
      }
    });
    return { content, structuredContent: structured };
  }
}

/** Takes the `inline` argument (every tool has it) off the arguments before the tool's own checks. */
function takeInline(raw: unknown): { inline: boolean | 'invalid'; rest: unknown } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !('inline' in raw)) return { inline: false, rest: raw ?? {} };
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
