import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Piscina from 'piscina';
import { AppConfig } from '../../common/config/env';
import { ToolFailure } from '../core/tool-failure';
import type { WorkerResult, WorkerTask } from './pdf.worker';

/** Resolves the worker entry: compiled .js next to this file (dist), or the .ts source (ts-node, jest). */
function workerEntry(): { filename: string; execArgv: string[] } {
  const js = join(__dirname, 'pdf.worker.js');
  if (existsSync(js)) return { filename: js, execArgv: [] };
  // Source run: the worker thread registers ts-node (transpile only) before loading the entry.
  return { filename: join(__dirname, 'pdf.worker.ts'), execArgv: ['--require', 'ts-node/register/transpile-only'] };
}

/**
 * The PDF worker pool: PDF_WORKERS threads, each with a heap cap of PDF_WORKER_HEAP_MB, and a time
 * limit of PDF_TOOL_TIMEOUT_MS per run (the thread running an over-time task is terminated).
 * PDF work never runs on the event loop, so /mcp calls don't slow the other APIs down.
 */
@Injectable()
export class PdfPoolService implements OnApplicationShutdown {
  private readonly logger = new Logger('PdfPool');
  private readonly pool: Piscina<WorkerTask, WorkerResult>;

  constructor(private readonly config: AppConfig) {
    const entry = workerEntry();
    this.pool = new Piscina<WorkerTask, WorkerResult>({
      filename: entry.filename,
      execArgv: entry.execArgv,
      minThreads: 0,
      maxThreads: config.PDF_WORKERS,
      idleTimeout: 60_000,
      maxQueue: config.PDF_WORKERS * 32,
      resourceLimits: { maxOldGenerationSizeMb: config.PDF_WORKER_HEAP_MB },
      // Lower the workers' scheduling priority (Linux, via @napi-rs/nice): when every core is busy
      // with PDFs, the event loop serving the other APIs still gets the CPU first.
      niceIncrement: 10,
    });
  }

  /** Runs a task; a failure inside the tool comes back as `{ok:false}`, pool failures throw {@link ToolFailure}. */
  async run(task: WorkerTask): Promise<WorkerResult> {
    const timeout = this.config.PDF_TOOL_TIMEOUT_MS;
    try {
      return await this.pool.run(task, { signal: AbortSignal.timeout(timeout) });
    } catch (e) {
      const err = e as Error & { code?: string };
      if (err.name === 'AbortError' || err.name === 'TimeoutError') {
        throw new ToolFailure('timeout', `The tool did not finish within ${Math.round(timeout / 1000)} s. Try fewer pages or a lighter option (e.g. compression level "lossless").`);
      }
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new ToolFailure('internal_error', 'The PDF needs more memory than a tool run may use. Try a smaller file or fewer pages.');
      }
      if (/queue is full/i.test(err.message)) {
        throw new ToolFailure('busy', 'The PDF workers are busy. Retry in a few seconds.');
      }
      this.logger.error(err);
      throw new ToolFailure('internal_error', 'The PDF tool failed unexpectedly. Retry; if it persists, report it.');
    }
  }

  get stats(): { threads: number; queued: number; completed: number } {
    return { threads: this.pool.threads.length, queued: this.pool.queueSize, completed: this.pool.completed };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.destroy();
  }
}
