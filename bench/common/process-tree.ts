import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident memory in MiB of a process and all its descendants (Linux /proc): a server with its
 * Chromium, a worker with its browsers. Memory that processes share is counted in each, so the
 * figure is an upper bound.
 */
export function treeRssMiB(rootPid: number): number {
  const kids = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      rss.set(Number(d), Number(fields[21]) * 4096);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // the process exited meanwhile
    }
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length) {
    const p = stack.pop()!;
    total += rss.get(p) ?? 0;
    stack.push(...(kids.get(p) ?? []));
  }
  return total / 2 ** 20;
}
