/**
 * Times a command (the qpdf CLI) for bench/pdf/run.ts from a small process of its own, as a shell
 * or hyperfine would: a process started from the benchmark's own (which holds the app, hundreds of
 * megabytes) pays 15-20 ms more per start for copying its memory map, which is not qpdf's time.
 * argv[2]: JSON {@link TimeCommand}; prints the median of `runs` timed runs after `warmup` untimed ones, in ms.
 */
import { execFileSync } from 'node:child_process';
import { median } from '../common/median';

export interface TimeCommand {
  command: string[];
  runs: number;
  warmup: number;
}

const { command, runs, warmup } = JSON.parse(process.argv[2]) as TimeCommand;
const once = (): number => {
  const t0 = process.hrtime.bigint();
  execFileSync(command[0], command.slice(1), { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
for (let i = 0; i < warmup; i++) once();
process.stdout.write(`${median(Array.from({ length: runs }, once))}\n`);
