/**
 * Entry of the PDF worker threads (piscina). Runs one tool on resolved input bytes and answers
 * with the output files or a {@link ToolFailure}'s code and message (errors don't cross thread
 * boundaries with their fields, so failures are returned, not thrown).
 */
import sharp from 'sharp';
import { bombFailure, DecodeLimitExceeded } from '../core/decode-limits';
import type { Limits } from '../core/limits';
import type { InputFile, OpenNote } from '../core/pdf-open';
import { sha256 } from '../core/pdf-open';
import { ToolFailure } from '../core/tool-failure';
import { PDF_TOOLS_BY_NAME } from '../tools';
import type { PdfTool } from '../tools/tool';
import { privateCopy } from '../../common/workers/shared-bytes';
import { moving } from '../../common/workers/transfer';
import type { MessagePort } from 'node:worker_threads';

// One libvips thread per worker: the pool already has a thread per core.
sharp.concurrency(1);
sharp.cache(false);

export interface WorkerTask {
  tool: string;
  args: unknown;
  inputs: InputFile[];
  limits: Limits;
  /** Where the tool's steps are posted ({@link WorkerProgress}), when the caller follows progress. */
  progress?: MessagePort;
}

/** One step of a tool's loop, posted to {@link WorkerTask.progress}. */
export interface WorkerProgress {
  done: number;
  total: number;
  message: string;
}

/** Posts steps to `port`, only when the whole percent grows (a 200-page loop posts at most 101 messages). */
function progressTo(
  port: MessagePort | undefined,
): ((done: number, total: number, message: string) => void) | undefined {
  if (!port) return undefined;
  let last = -1;
  return (done, total, message) => {
    const percent = Math.floor((done / Math.max(1, total)) * 100);
    if (percent <= last) return;
    last = percent;
    port.postMessage({ done, total, message } satisfies WorkerProgress);
  };
}

export interface WorkerFile {
  name: string;
  bytes: Uint8Array;
  pages: number;
  sha256: string;
}

export type WorkerResult =
  | {
      ok: true;
      files: WorkerFile[];
      data: Record<string, unknown>;
      summary: string;
      text?: string;
      opened?: OpenNote[];
      toolNote?: string;
    }
  | { ok: false; code: ToolFailure['code']; message: string; details: Record<string, unknown> };

/** Gives each input the `password` of its file argument (tool.inputs lists them in the order of `task.inputs`). */
function withPasswords(tool: PdfTool, task: WorkerTask): void {
  let refs: { ref: { password?: string } }[];
  try {
    refs = tool.inputs(task.args as never);
  } catch {
    return;
  }
  if (refs.length !== task.inputs.length) return;
  refs.forEach(({ ref }, i) => {
    if (typeof ref.password === 'string') task.inputs[i].password = ref.password;
  });
}

export default async function runTask(task: WorkerTask): Promise<WorkerResult> {
  const tool = PDF_TOOLS_BY_NAME.get(task.tool);
  if (!tool) return { ok: false, code: 'internal_error', message: `Unknown tool ${task.tool}.`, details: {} };
  try {
    withPasswords(tool, task);
    // Stored files come in shared memory: the tool works on this thread's own copy, so nothing
    // it does can change a stored file, and the copy is made here, not on the event loop.
    const copies = new Map<Uint8Array, Uint8Array>(); // a file given twice (merged with itself) is copied once
    for (const input of task.inputs) {
      const copy = copies.get(input.bytes) ?? privateCopy(input.bytes);
      copies.set(input.bytes, copy);
      input.bytes = copy;
    }
    const ctx = { limits: task.limits, progress: progressTo(task.progress) };
    let result: Awaited<ReturnType<PdfTool['run']>>;
    try {
      result = await tool.run(task.args as never, task.inputs, ctx);
    } catch (e) {
      // pdf-lib failed on an input as it read it (a crash, not a refusal with a code): once more,
      // on qpdf's repair of every input with a rebuilt page tree, which the note then tells.
      if (
        e instanceof ToolFailure ||
        e instanceof DecodeLimitExceeded ||
        task.inputs.some((i) => i.rebuild !== undefined)
      )
        throw e;
      const reason = shortError(e);
      for (const input of task.inputs) {
        input.bytes = input.sent ?? input.bytes;
        input.rebuild = reason;
      }
      result = await tool.run(task.args as never, task.inputs, ctx);
    }
    const files = result.files.map((f) => ({ ...f, sha256: sha256(f.bytes) }));
    task.progress?.close();
    // The output bytes move to the main thread instead of being copied.
    return moving<WorkerResult>(
      {
        ok: true,
        files,
        data: result.data,
        summary: result.summary,
        text: result.text,
        opened: result.opened,
        toolNote: result.toolNote,
      },
      files.map((f) => f.bytes),
    );
  } catch (e) {
    task.progress?.close();
    if (e instanceof ToolFailure) return { ok: false, code: e.code, message: e.message, details: e.details };
    if (e instanceof DecodeLimitExceeded) {
      const f = bombFailure(undefined, e.cap);
      return { ok: false, code: f.code, message: f.message, details: f.details };
    }
    const message = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      code: 'corrupt_pdf',
      message: `The PDF could not be processed, even after repair (${message.slice(0, 200)}). It may be damaged; re-save it and try again.`,
      details: {},
    };
  }
}

/** A program's error in a few words for a note ("Parent.ascend is not a function"). */
function shortError(e: unknown): string {
  const m = (e instanceof Error ? e.message : String(e)).split('\n')[0];
  return m.length > 120 ? `${m.slice(0, 117)}...` : m;
}
