/**
 * Scan worker processes of the benchmarks (bench/a11y/fleet.ts, bench/a11y/sites.ts): the compiled
 * `src/worker.js` of dist-bench, started with the benchmark's environment and stopped as an operator would.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** Starts a worker and resolves once it says it is ready (rejects if it exits first). */
export function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const proc = spawn(process.execPath, [join(__dirname, '..', '..', 'src', 'worker.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer): void => {
      out += c.toString();
      if (/scan worker ready/.test(out)) resolve(proc);
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
  });
}

/** SIGTERM, then waits for the exit (a worker finishes or hands back its active scans first). */
export async function stopWorker(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}
