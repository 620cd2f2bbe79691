/**
 * Entry of the PDF worker threads (piscina). Runs one tool on resolved input bytes and answers
 * with the output files or a {@link ToolFailure}'s code and message (errors don't cross thread
 * boundaries with their fields, so failures are returned, not thrown).
 */
import sharp from 'sharp';
import { bombFailure, DecodeLimitExceeded } from '../core/decode-limits';
import type { InputFile, Limits } from '../core/pdf-open';
import { sha256 } from '../core/pdf-open';
import { ToolErrorCode, ToolFailure } from '../core/tool-failure';
import { PDF_TOOLS_BY_NAME } from '../tools';
import { moving } from '../../common/workers/transfer';

// One libvips thread per worker: the pool already has a thread per core.
sharp.concurrency(1);
sharp.cache(false);

export interface WorkerTask {
  tool: string;
  args: unknown;
  inputs: InputFile[];
  limits: Limits;
}

export interface WorkerFile {
  name: string;
  bytes: Uint8Array;
  pages: number;
  sha256: string;
}

export type WorkerResult =
  | { ok: true; files: WorkerFile[]; data: Record<string, unknown>; summary: string }
  | { ok: false; code: ToolErrorCode; message: string; details: Record<string, unknown> };

export default async function runTask(task: WorkerTask): Promise<WorkerResult> {
  const tool = PDF_TOOLS_BY_NAME.get(task.tool);
  if (!tool) return { ok: false, code: 'internal_error', message: `Unknown tool ${task.tool}.`, details: {} };
  try {
    const result = await tool.run(task.args as never, task.inputs, { limits: task.limits });
    const files = result.files.map((f) => ({ ...f, sha256: sha256(f.bytes) }));
    // The output bytes move to the main thread instead of being copied.
    return moving<WorkerResult>({ ok: true, files, data: result.data, summary: result.summary }, files.map((f) => f.bytes));
  } catch (e) {
    if (e instanceof ToolFailure) return { ok: false, code: e.code, message: e.message, details: e.details };
    if (e instanceof DecodeLimitExceeded) {
      const f = bombFailure(undefined, e.cap);
      return { ok: false, code: f.code, message: f.message, details: f.details };
    }
    const message = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      code: 'corrupt_pdf',
      message: `The PDF could not be processed (${message.slice(0, 200)}). It may be damaged; repair or re-save it and try again.`,
      details: {},
    };
  }
}
