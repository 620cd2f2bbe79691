import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Piscina from 'piscina';

/**
 * Nice value of every thread doing work for requests in the background (JSON bodies, PDFs, and
 * the native threads those use): below the event loop, so that when they keep every core busy the
 * event loop serving the other APIs still gets the CPU first.
 */
export const BACKGROUND_NICENESS = 10;

export interface BackgroundPoolOptions {
  maxThreads: number;
  /** Tasks that may wait for a thread; beyond that `run()` rejects ("queue is full"). */
  maxQueue: number;
  /** Heap cap of each thread (`resourceLimits.maxOldGenerationSizeMb`). */
  heapMb: number;
}

/**
 * A piscina pool of background threads running the default export of `<dir>/<name>`: the compiled
 * `.js` (dist), or the `.ts` source, loaded after registering ts-node (transpile only) when the
 * app runs from source (ts-node, jest). Threads start on demand, end after 60 s idle, and run at
 * {@link BACKGROUND_NICENESS} (Linux, via @napi-rs/nice).
 */
export function backgroundPool<Task, Result>(
  dir: string,
  name: string,
  options: BackgroundPoolOptions,
): Piscina<Task, Result> {
  const js = join(dir, `${name}.js`);
  const compiled = existsSync(js);
  return new Piscina<Task, Result>({
    filename: compiled ? js : join(dir, `${name}.ts`),
    execArgv: compiled ? [] : ['--require', 'ts-node/register/transpile-only'],
    minThreads: 0,
    maxThreads: options.maxThreads,
    idleTimeout: 60_000,
    maxQueue: options.maxQueue,
    resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    niceIncrement: BACKGROUND_NICENESS,
  });
}
