/**
 * Child processes of the PDF benchmarks (bench/pdf/run.ts, bench/pdf/convert.ts): their clients and
 * the timer of the CLI peers, each in a process of its own.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { TimeCommand } from './time-command';

/** Spawns bench/pdf/<name> (compiled when this runs from dist-bench, else from source under ts-node) with `args`. */
export function spawnScript(name: string, args: string[]) {
  const compiled = __filename.endsWith('.js');
  const entry = join(__dirname, `${name}.${compiled ? 'js' : 'ts'}`);
  return spawn(process.execPath, [...(compiled ? [] : ['-r', 'ts-node/register/transpile-only']), entry, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

/**
 * Median time of `command` (median of `runs` after `warmup` untimed runs), timed by
 * bench/pdf/time-command.ts in a small process of its own: started from the benchmark's process,
 * which holds the app, each run would also pay the copy of that process's memory map (15-20 ms
 * here), which a shell running the command does not.
 */
export async function timeCommand(command: string[], runs = 5, warmup = 2): Promise<number> {
  const request: TimeCommand = { command, runs, warmup };
  const child = spawnScript('time-command', [JSON.stringify(request)]);
  child.stdin.end();
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`timing ${command.join(' ')} failed (exit code ${code})`);
  return Number(stdout.trim());
}
