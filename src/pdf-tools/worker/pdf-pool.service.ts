import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type Piscina from 'piscina';
import { AppConfig } from '../../common/config/env';
import { ToolFailure } from '../core/tool-failure';
import type { DecodeResult, DecodeTask } from './decode.worker';
import { MessageChannel, type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import type { WorkerProgress, WorkerResult, WorkerTask } from './pdf.worker';
import { transferableBuffers } from '../../common/workers/transfer';
import { BACKGROUND_NICENESS, backgroundPool } from '../../common/workers/background-pool';
import { NativeThreadPriority } from '../../common/workers/native-threads';

/**
 * The PDF worker pool: PDF_WORKERS threads, each with a heap cap of PDF_WORKER_HEAP_MB, and a time
 * limit of PDF_TOOL_TIMEOUT_MS per run (the thread running an over-time task is terminated).
 * PDF work never runs on the event loop, so /mcp calls don't slow the other APIs down.
 */
@Injectable()
export class PdfPoolService implements OnApplicationShutdown {
  private readonly logger = new Logger('PdfPool');
  private readonly pool: Piscina<WorkerTask, WorkerResult>;
  /** One thread that decodes base64 arguments (see decode.worker.ts), apart from the PDF runs. */
  private readonly decoder: Piscina<DecodeTask, DecodeResult>;
  readonly nativeThreads = new NativeThreadPriority(BACKGROUND_NICENESS);

  constructor(private readonly config: AppConfig) {
    // Niced threads (see backgroundPool): when every core is busy with PDFs, the event loop serving
    // the other APIs still gets the CPU first.
    const limits = { maxQueue: config.PDF_WORKERS * 32, heapMb: config.PDF_WORKER_HEAP_MB };
    this.pool = backgroundPool(__dirname, 'pdf.worker', { ...limits, maxThreads: config.PDF_WORKERS });
    this.decoder = backgroundPool(__dirname, 'decode.worker', { ...limits, maxThreads: 1 });
  }

  /**
   * Runs a task; a failure inside the tool comes back as `{ok:false}`, pool failures throw {@link ToolFailure}.
   * Input bytes in shared memory (stored files) are shared with the worker; other input bytes move
   * to it (they are unusable here afterwards). Neither is copied on the event loop.
   */
  async run(
    task: WorkerTask,
    onProgress?: (done: number, total: number, message: string) => void,
  ): Promise<WorkerResult> {
    const timeout = this.config.PDF_TOOL_TIMEOUT_MS;
    // The tool's loops report their steps through a message port moved to the worker.
    const channel = onProgress ? new MessageChannel() : undefined;
    try {
      const transferList: (ArrayBuffer | MessagePort)[] = transferableBuffers(task.inputs.map((i) => i.bytes));
      if (channel) {
        channel.port1.on('message', (m: WorkerProgress) => onProgress!(m.done, m.total, m.message));
        task = { ...task, progress: channel.port2 };
        transferList.push(channel.port2);
      }
      const result = await this.pool.run(task, {
        signal: AbortSignal.timeout(timeout),
        transferList: transferList as never,
      });
      // The result and the steps travel on two ports, and messages of two ports are not ordered:
      // steps the worker posted before its result may still be queued here. They are delivered
      // now, before the caller goes on to its next phase (closing the port would drop them).
      if (channel)
        for (let m = receiveMessageOnPort(channel.port1); m; m = receiveMessageOnPort(channel.port1)) {
          const step = m.message as WorkerProgress;
          onProgress!(step.done, step.total, step.message);
        }
      return result;
    } catch (e) {
      return this.failed(e, timeout);
    } finally {
      channel?.port1.close();
      // sharp's image work runs on the libuv pool and libvips threads, not in the niced worker:
      // new ones are found and lowered after every run (one directory listing once all are known).
      void this.nativeThreads.lower();
    }
  }

  /** The ToolFailure for a pool failure (time limit, heap limit, queue full, anything else). */
  private failed(e: unknown, timeout: number): never {
    const err = e as Error & { code?: string };
    if (err.name === 'AbortError' || err.name === 'TimeoutError') {
      throw new ToolFailure(
        'timeout',
        `The tool did not finish within ${Math.round(timeout / 1000)} s. Try fewer pages or a lighter option (e.g. compression level "lossless").`,
      );
    }
    if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new ToolFailure(
        'internal_error',
        'The PDF needs more memory than a tool run may use. Try a smaller file or fewer pages.',
      );
    }
    if (/queue is full/i.test(err.message)) {
      throw new ToolFailure('busy', 'The PDF workers are busy. Retry in a few seconds.');
    }
    this.logger.error(err);
    throw new ToolFailure('internal_error', 'The PDF tool failed unexpectedly. Retry; if it persists, report it.');
  }

  /**
   * Decodes and size-checks base64 arguments in the decoding thread, or null if it could not (queue
   * full, timeout, thread failure): the caller then decodes on the event loop, so the outcome of a
   * call never depends on the thread.
   */
  async decode(task: DecodeTask): Promise<DecodeResult | null> {
    try {
      return await this.decoder.run(task, { signal: AbortSignal.timeout(this.config.PDF_TOOL_TIMEOUT_MS) });
    } catch (e) {
      this.logger.warn(`base64 decoding in a worker failed (${(e as Error).message}); decoding on the event loop`);
      return null;
    }
  }

  get stats(): { threads: number; queued: number; completed: number } {
    return { threads: this.pool.threads.length, queued: this.pool.queueSize, completed: this.pool.completed };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.pool.destroy(), this.decoder.destroy()]);
  }
}
